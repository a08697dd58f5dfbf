/**
 * The shipped distribution tables (resources/catalog/distributions.bin), written by the
 * catalog build and read once per engine: one file, no parsing beyond a small JSON index.
 *
 * Layout: "TSDT", u32 format, u32 index length, the index as UTF-8 JSON, zero padding to
 * a multiple of 8, then all knot scores as Float64, then all knot CDF values as Float32.
 * The index maps a trait code to its revision and, per reference ("EUR", … and "EUR:XY"
 * for XY people when the trait has X-chromosome markers), the first knot and the count.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CdfTable } from './table.js';

export const TABLE_FILE = 'catalog/distributions.bin';
const MAGIC = 0x54445354; // "TSDT" little-endian
const FORMAT = 1;

export interface TableIndex {
  format: number;
  traits: Record<string, { revision: string; tables: Record<string, [number, number]> }>;
}

export type TraitTables = Map<string, { revision: string; tables: Map<string, CdfTable> }>;

export function encodeTables(entries: Array<{ code: string; revision: string; tables: Map<string, CdfTable> }>): Buffer {
  const index: TableIndex = { format: FORMAT, traits: {} };
  let total = 0;
  for (const e of entries) {
    const t: Record<string, [number, number]> = {};
    for (const [key, table] of e.tables) {
      t[key] = [total, table.xs.length];
      total += table.xs.length;
    }
    index.traits[e.code] = { revision: e.revision, tables: t };
  }
  const json = Buffer.from(JSON.stringify(index), 'utf8');
  const head = 12 + json.length;
  const pad = (8 - (head % 8)) % 8;
  const out = Buffer.alloc(head + pad + 12 * total);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(FORMAT, 4);
  out.writeUInt32LE(json.length, 8);
  json.copy(out, 12);
  const xs = new Float64Array(out.buffer, out.byteOffset + head + pad, total);
  const fs = new Float32Array(out.buffer, out.byteOffset + head + pad + 8 * total, total);
  for (const e of entries) {
    for (const [key, table] of e.tables) {
      const [at] = index.traits[e.code].tables[key];
      xs.set(table.xs, at);
      fs.set(table.fs, at);
    }
  }
  return out;
}

/** The tables of a resources folder; an empty map when the file is missing (every score is then computed). */
export function loadTables(resourcesDir: string): TraitTables {
  let raw: Buffer;
  try {
    raw = readFileSync(join(resourcesDir, TABLE_FILE));
  } catch {
    return new Map();
  }
  if (raw.length < 12 || raw.readUInt32LE(0) !== MAGIC || raw.readUInt32LE(4) !== FORMAT) {
    throw new Error(`${join(resourcesDir, TABLE_FILE)} is not a distribution table file of format ${FORMAT}. Rebuild it with: npm run build:catalog`);
  }
  const jsonLength = raw.readUInt32LE(8);
  const index = JSON.parse(raw.subarray(12, 12 + jsonLength).toString('utf8')) as TableIndex;
  const head = 12 + jsonLength;
  const start = head + ((8 - (head % 8)) % 8);
  const total = (raw.length - start) / 12;
  // Copy into aligned memory of its own (a Buffer from readFileSync may sit at any offset of a pool).
  const data = new Uint8Array(raw.length - start);
  data.set(raw.subarray(start));
  const xs = new Float64Array(data.buffer, 0, total);
  const fs = new Float32Array(data.buffer, 8 * total, total);
  const out: TraitTables = new Map();
  for (const [code, t] of Object.entries(index.traits)) {
    const tables = new Map<string, CdfTable>();
    for (const [key, [at, count]] of Object.entries(t.tables)) tables.set(key, { xs: xs.subarray(at, at + count), fs: fs.subarray(at, at + count) });
    out.set(code, { revision: t.revision, tables });
  }
  return out;
}
