/**
 * The science module: trait catalog, scoring, percentiles, ancestry inference.
 * createScienceEngine loads resources/catalog/catalog.json.gz and the ancestry model once.
 */
import { compileCatalog, readCatalogFile } from './catalog.js';
import { loadAncestryModel } from './ancestry.js';
import { pcaInference } from './ancestry-pca-adapter.js';
import { loadTables } from './distribution/table-file.js';
import { makeEngine, type ScienceEngineExt } from './engine.js';

export function createScienceEngine(options: { resourcesDir: string }): ScienceEngineExt {
  const catalog = compileCatalog(readCatalogFile(options.resourcesDir).traits);
  const model = loadAncestryModel(options.resourcesDir);
  return makeEngine([catalog], { inferAncestry: (g) => pcaInference(model, g), tables: loadTables(options.resourcesDir) });
}

export type { ScienceEngineExt } from './engine.js';
export { COVERAGE_THRESHOLD } from './engine.js';
export { assessContext } from './assess-context.js';
export { LEVEL_LABELS, LEVEL_UPPER_BOUNDS, levelForPercentile } from './levels.js';
export type { CatalogTrait, CatalogTrait as CustomTraitDefinition } from './format.js';
export type * from './types.js';
