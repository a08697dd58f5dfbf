/**
 * The plain-data operation table the UI calls the API through (src/shared/routes/
 * operation-table.ts) against what the service runs on: the route table and the OpenAPI
 * document it serves. A route added, moved or given another method in one and not the
 * other fails here.
 */
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../src/service/http/openapi.js';
import { operations } from '../../src/shared/routes/index.js';
import { OPERATION_TABLE } from '../../src/shared/routes/operation-table.js';

type Json = Record<string, any>;
const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete']);

describe('the plain operation table', () => {
  it('has every operation of the route table, with its method and path, and no other', () => {
    const fromRouteTable = Object.fromEntries(
      Object.entries(operations).map(([id, op]) => [id, { method: op.method, path: op.path }]),
    );
    expect(OPERATION_TABLE).toEqual(fromRouteTable);
  });

  it('names each operation of the OpenAPI document by its method and path', () => {
    const documented: Record<string, { method: string; path: string }> = {};
    for (const [path, item] of Object.entries((openApiDocument() as Json).paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        if (METHODS.has(method)) documented[(op as Json).operationId as string] = { method, path };
      }
    }
    expect(OPERATION_TABLE).toEqual(documented);
  });
});
