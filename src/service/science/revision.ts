/** A trait's revision: a short hash of everything that defines it (texts, markers, weights, frequencies). */
import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so the hash does not depend on key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value as object).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function traitRevision(definition: object): string {
  const { revision: _ignored, ...rest } = definition as { revision?: string };
  return createHash('sha256').update(canonical(rest)).digest('hex').slice(0, 16);
}
