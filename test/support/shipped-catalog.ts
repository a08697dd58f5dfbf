/**
 * The shipped trait catalog (resources/catalog/catalog.json.gz), read once per test process.
 * The files a vitest worker runs share it (isolate: false, vitest.config.ts) instead of each
 * spending about 0.2 s of CPU on gunzip and JSON.parse of 8 MB. It is frozen, so a test that
 * changed it throws instead of changing what the next file reads: to change a trait, change
 * a copy of it (structuredClone).
 */
import path from 'node:path';
import { readCatalogFile } from '../../src/service/science/catalog.js';
import type { CatalogFile } from '../../src/service/science/format.js';

const RESOURCES = path.resolve(import.meta.dirname, '..', '..', 'resources');
let cached: CatalogFile | undefined;

export function shippedCatalog(): CatalogFile {
  return (cached ??= deepFreeze(readCatalogFile(RESOURCES)));
}

/** Freezes every object and array reachable from `value` (JSON data: no typed arrays). */
function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  const values: unknown[] = Array.isArray(value) ? value : Object.values(value);
  for (const v of values) if (v !== null && typeof v === 'object') deepFreeze(v);
  return Object.freeze(value);
}
