/**
 * The science module: trait catalog, scoring, percentiles, ancestry inference.
 * createScienceEngine loads the catalog, its distribution tables and the ancestry panel once.
 */
import { inferAncestry, loadAncestryPanel } from './ancestry/index.js';
import { loadCompiledCatalog } from './compiled-catalog.js';
import { loadTables } from './distribution/table-file.js';
import { makeEngine, type ScienceEngineExt } from './engine.js';

export function createScienceEngine(options: { resourcesDir: string }): ScienceEngineExt {
  const catalog = loadCompiledCatalog(options.resourcesDir);
  const panel = loadAncestryPanel(options.resourcesDir);
  return makeEngine([catalog], {
    inferAncestry: (g) => inferAncestry(panel, g),
    tables: loadTables(options.resourcesDir),
  });
}

export type { ScienceEngineExt } from './engine.js';
export { assessContext } from './assess-context.js';
export type { CatalogTrait as CustomTraitDefinition } from './format.js';
export type * from './types.js';
