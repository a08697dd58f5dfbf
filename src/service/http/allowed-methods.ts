/** The methods the route table documents for a path (405 answers' Allow header, CORS preflights). */
import { operations } from '../../shared/routes/index.js';

const documentedPaths = Object.values(operations).map((op) => ({
  pattern: new RegExp(
    `^${op.path
      .replace(/\./g, '\\.')
      .replace(/\{[a-z_]+\}/g, '[^/]+')
      .replace(/\/$/, '')}/?$`,
  ),
  method: op.method.toUpperCase(),
}));

/** The methods the table documents for a path: the same for every caller and id, so they reveal nothing. */
export function allowedMethods(path: string): string[] {
  return [...new Set(documentedPaths.filter((p) => p.pattern.test(path)).map((p) => p.method))];
}
