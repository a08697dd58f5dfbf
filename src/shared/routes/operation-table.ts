/**
 * Method and path of every operation of the route table, by operationId, as plain data: what
 * a client needs to make a call. Derived from the route table here; in the UI's bundle this
 * module is replaced at build time by the same table as a literal (electron.vite.config.ts,
 * `operationTableLiteral`), so the page carries no zod schemas. test/api/operation-table.test.ts
 * checks the literal in the built UI and the OpenAPI document against the route table.
 */
import { operations, type OperationId, type Operations } from './index.js';

export type OperationTable = {
  readonly [Id in OperationId]: { readonly method: Operations[Id]['method']; readonly path: Operations[Id]['path'] };
};

/** Method and path of each operation of a route table. */
export function operationTableOf(table: Operations): OperationTable {
  return Object.fromEntries(
    Object.entries(table).map(([id, op]) => [id, { method: op.method, path: op.path }]),
  ) as OperationTable;
}

export const OPERATION_TABLE: OperationTable = operationTableOf(operations);
