/** A trait's revision: a short hash of everything that defines it (texts, markers, weights, frequencies). */
import { createHash } from 'node:crypto';
import { recommendationsOf, type CatalogTrait } from './format.js';

/** JSON with object keys sorted, so the hash does not depend on key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return flat(value) ? JSON.stringify(value) : `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * An array without holes, objects or arrays in it (a trait's marker columns): JSON.stringify
 * prints it as canonical would, element by element, in one call.
 */
function flat(value: unknown[]): boolean {
  for (let i = 0; i < value.length; i++) {
    const x: unknown = value[i];
    if ((x !== null && typeof x === 'object') || !(i in value)) return false;
  }
  return true;
}

/** Hash of a trait definition without its revision field, with its recommendation texts resolved. */
export function traitRevision(definition: CatalogTrait): string {
  const { revision: _ignored, ...rest } = definition;
  const full = { ...rest, recommendations: recommendationsOf(definition) };
  return createHash('sha256').update(canonical(full)).digest('hex').slice(0, 16);
}
