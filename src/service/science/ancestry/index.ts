/**
 * Ancestry inference: which 1000 Genomes super-population (or mixture of them) a genotype
 * file's owner resembles, how sure that is, and whether it is enough to choose a reference
 * population without asking. Method, thresholds and limits: docs/ancestry.md.
 *
 *   const panel = loadAncestryPanel(resourcesDir);   // once per worker (~1 MB, a few ms)
 *   const result = inferAncestry(panel, genotype);
 */
import { readPanelFile } from './panel.js';
import { compilePanel, type AncestryPanel } from './reference.js';

export type { Population } from '../types.js';
export type { AncestryPanel } from './reference.js';
export { ANCESTRY_THRESHOLDS, inferAncestry } from './infer.js';

const loaded = new Map<string, AncestryPanel>();

/** The shipped panel (resources/ancestry/panel.bin.gz), read and decoded once per resources folder. */
export function loadAncestryPanel(resourcesDir: string): AncestryPanel {
  let panel = loaded.get(resourcesDir);
  if (!panel) {
    panel = compilePanel(readPanelFile(resourcesDir));
    loaded.set(resourcesDir, panel);
  }
  return panel;
}
