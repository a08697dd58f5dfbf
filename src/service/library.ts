/**
 * The service's modules for tools that load the bundle instead of the TypeScript sources:
 * the benchmarks measure this (out/main/library.js, built from the same sources, in the
 * same chunks as the desktop app and the command line).
 */
export { createClient } from './auth/clients.js';
export { openDatabase } from './db/database.js';
export { alleleFromLetter, findRsid, makeCall } from './genotype/encoding.js';
export { storeGenotype } from './genotype/genotype-store.js';
export { parseGenotypeFile } from './genotype/parse/index.js';
export { loadPositionIndex } from './genotype/positions.js';
export { createProfile } from './profiles/profiles.js';
export { inferAncestry, loadAncestryPanel } from './science/ancestry/index.js';
export { readCatalogFile } from './science/catalog.js';
export { assessContext, createScienceEngine } from './science/index.js';
export { startService } from './index.js';
