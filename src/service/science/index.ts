/**
 * The science module: trait catalog, scoring, percentiles, ancestry inference.
 * createScienceEngine loads resources/catalog/catalog.json.gz and the ancestry model once.
 */
import { compileCatalog, readCatalogFile, type CompiledCatalog } from './catalog.js';
import { loadAncestryModel, type AncestryModel } from './ancestry.js';
import { makeEngine, type ScienceEngineExt } from './engine.js';

/**
 * The compiled catalog and ancestry model: plain objects and typed arrays, so a worker
 * thread can be handed a copy (structured clone) instead of reading and parsing the
 * catalog again, which takes ~0.2 s and ~35 MB at its peak.
 */
export interface EngineData {
  catalog: CompiledCatalog;
  ancestry: AncestryModel;
}

export function loadEngineData(resourcesDir: string): EngineData {
  return { catalog: compileCatalog(readCatalogFile(resourcesDir).traits), ancestry: loadAncestryModel(resourcesDir) };
}

export function engineFromData(data: EngineData): ScienceEngineExt {
  return makeEngine([data.catalog], () => data.ancestry);
}

export function createScienceEngine(options: { resourcesDir: string }): ScienceEngineExt {
  return engineFromData(loadEngineData(options.resourcesDir));
}

export type { ScienceEngineExt } from './engine.js';
export { COVERAGE_THRESHOLD, DEFAULT_POPULATION, ethnicityPopulation } from './engine.js';
export { LEVEL_LABELS, LEVEL_UPPER_BOUNDS, levelForPercentile } from './levels.js';
export type { CatalogTrait, CatalogTrait as CustomTraitDefinition } from './format.js';
export type * from './types.js';
