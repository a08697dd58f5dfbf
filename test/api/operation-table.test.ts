/**
 * The operation table the UI calls the API through (src/shared/routes/operation-table.ts,
 * turned into a literal in the UI's build) against what the service runs on: the route
 * table and the OpenAPI document it serves. A route added, moved or given another method in
 * one and not the other fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/service/http/openapi.js';
import { operations } from '../../src/shared/routes/index.js';
import { ROOT } from '../support/server.js';

type Json = Record<string, any>;
const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete']);

const fromRouteTable = Object.fromEntries(
  Object.entries(operations).map(([id, op]) => [id, { method: op.method, path: op.path }]),
);

describe('the operation table', () => {
  it("is in the UI's bundle as a literal with every operation's method and path, and no other", () => {
    const assets = path.join(ROOT, 'out', 'renderer', 'assets');
    const bundle = readdirSync(assets)
      .filter((f) => f.endsWith('.js'))
      .map((f) => readFileSync(path.join(assets, f), 'utf8'))
      .join('\n');
    // The minifier drops the quotes of keys and may quote strings with backticks; read the
    // table's object literal back as JSON.
    const start = bundle.indexOf('{getVersion:');
    expect(start, 'the UI bundle holds the operation table as a literal').toBeGreaterThanOrEqual(0);
    let depth = 0;
    let end = start;
    for (; end < bundle.length; end++) {
      if (bundle[end] === '{') depth++;
      else if (bundle[end] === '}' && --depth === 0) break;
    }
    const literal = bundle
      .slice(start, end + 1)
      .replace(/`([^`"\\]*)`/g, '"$1"')
      .replace(/([{,])([A-Za-z_$][\w$]*):/g, '$1"$2":');
    expect(JSON.parse(literal)).toEqual(fromRouteTable);
  });

  it('names each operation of the OpenAPI document by its method and path', () => {
    const documented: Record<string, { method: string; path: string }> = {};
    for (const [p, item] of Object.entries((openApiDocument() as Json).paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        if (METHODS.has(method)) documented[(op as Json).operationId as string] = { method, path: p };
      }
    }
    expect(documented).toEqual(fromRouteTable);
  });
});
