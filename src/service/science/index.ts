/**
 * The science module: trait catalog, scoring, percentiles, ancestry inference.
 * createScienceEngine loads resources/catalog/catalog.json.gz and the ancestry model once.
 */
import v8 from 'node:v8';
import { compileCatalog, readCatalogFile, type CompiledCatalog } from './catalog.js';
import { loadAncestryModel, type AncestryModel } from './ancestry.js';
import { makeEngine, type ScienceEngineExt } from './engine.js';

/**
 * The compiled catalog and ancestry model: plain objects and typed arrays, so that worker
 * threads can be given them (sharedEngineData) instead of reading and parsing the catalog
 * again, which takes ~0.2 s and ~35 MB at its peak.
 */
export interface EngineData {
  catalog: CompiledCatalog;
  ancestry: AncestryModel;
}

/**
 * EngineData serialized once into shared memory (~18 MB). Handing it to a worker costs
 * nothing on the sending thread, where a structured clone per job took 15-40 ms of the
 * service's event loop; the worker deserializes its own copy.
 */
export function sharedEngineData(data: EngineData): Uint8Array {
  const bytes = v8.serialize(data);
  const shared = new Uint8Array(new SharedArrayBuffer(bytes.length));
  shared.set(bytes);
  return shared;
}

export function engineDataFromShared(shared: Uint8Array): EngineData {
  return v8.deserialize(Buffer.from(shared.buffer, shared.byteOffset, shared.byteLength)) as EngineData;
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
