/**
 * The science module: trait catalog, scoring, percentiles, ancestry inference.
 * createScienceEngine loads the catalog, its distribution tables and the ancestry panel once.
 */
import { inferAncestry, loadAncestryPanel } from './ancestry/index.js';
import { loadCompiledCatalog } from './compiled-catalog.js';
import { loadTables } from './distribution/table-file.js';
import { makeEngine, type ScienceEngineExt } from './engine.js';

export interface EngineOptions {
  resourcesDir: string;
  /**
   * When the ancestry panel loads: with the engine (default: an engine that infers
   * ancestry, as the workers' do for every file), or when an inference first needs it (an
   * engine that reads stored estimates, as the service's own on its event loop: ~37 ms and
   * the panel's memory saved there).
   */
  ancestryPanel?: 'with-engine' | 'on-first-use';
}

export function createScienceEngine(options: EngineOptions): ScienceEngineExt {
  const catalog = loadCompiledCatalog(options.resourcesDir);
  let panel = options.ancestryPanel === 'on-first-use' ? undefined : loadAncestryPanel(options.resourcesDir);
  return makeEngine([catalog], {
    inferAncestry: (g) => inferAncestry((panel ??= loadAncestryPanel(options.resourcesDir)), g),
    tables: loadTables(options.resourcesDir),
  });
}

export type { ScienceEngineExt } from './engine.js';
export { assessContext } from './assess-context.js';
export type { CatalogTrait as CustomTraitDefinition } from './format.js';
export type * from './types.js';
