/**
 * The shipped distribution tables (resources/catalog/distributions.bin), written by the
 * catalog build and read once per engine: one file, no parsing beyond a small JSON index.
 *
 * Layout: "TSDT", u32 format, u32 index length, the index as UTF-8 JSON, zero padding to
 * a multiple of 8, then all knot scores (Float64), all atom scores (Float64), all knot
 * values (Float32) and all atom probabilities (Float32). The index maps a trait code to its
 * revision and, per reference ("EUR", … and "EUR:XY" for XY people when the trait has
 * X-chromosome markers), [first knot, knots, first atom, atoms].
 */
import { join } from 'node:path';
import { readWhole } from '../whole-file.js';
import type { CdfTable } from './table.js';

export const TABLE_FILE = 'catalog/distributions.bin';
const MAGIC = 0x54445354; // "TSDT" little-endian
const FORMAT = 2;

export interface TableIndex {
  format: number;
  /** Totals of knots and atoms, for the section sizes. */
  knots: number;
  atoms: number;
  traits: Record<string, { revision: string; tables: Record<string, [number, number, number, number]> }>;
}

export interface TraitTablesEntry {
  revision: string;
  tables: Map<string, CdfTable>;
}

/** A trait's tables by its code (a Map, or the file's index read trait by trait on demand). */
export interface TraitTables {
  get: (code: string) => TraitTablesEntry | undefined;
}

export function encodeTables(
  entries: Array<{ code: string; revision: string; tables: Map<string, CdfTable> }>,
): Buffer {
  const index: TableIndex = { format: FORMAT, knots: 0, atoms: 0, traits: {} };
  for (const e of entries) {
    const t: Record<string, [number, number, number, number]> = {};
    for (const [key, table] of e.tables) {
      t[key] = [index.knots, table.xs.length, index.atoms, table.atomXs.length];
      index.knots += table.xs.length;
      index.atoms += table.atomXs.length;
    }
    index.traits[e.code] = { revision: e.revision, tables: t };
  }
  const json = Buffer.from(JSON.stringify(index), 'utf8');
  const head = 12 + json.length;
  const start = head + ((8 - (head % 8)) % 8);
  const out = Buffer.alloc(start + 12 * (index.knots + index.atoms));
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(FORMAT, 4);
  out.writeUInt32LE(json.length, 8);
  json.copy(out, 12);
  const v = sections(out.buffer, out.byteOffset + start, index);
  for (const e of entries) {
    for (const [key, table] of e.tables) {
      const [k, , a] = index.traits[e.code].tables[key];
      v.xs.set(table.xs, k);
      v.fs.set(table.fs, k);
      v.atomXs.set(table.atomXs, a);
      v.atomPs.set(table.atomPs, a);
    }
  }
  return out;
}

function sections(buffer: ArrayBuffer, at: number, index: TableIndex) {
  const { knots, atoms } = index;
  return {
    xs: new Float64Array(buffer, at, knots),
    atomXs: new Float64Array(buffer, at + 8 * knots, atoms),
    fs: new Float32Array(buffer, at + 8 * (knots + atoms), knots),
    atomPs: new Float32Array(buffer, at + 8 * (knots + atoms) + 4 * knots, atoms),
  };
}

/**
 * The tables of a resources folder. A missing file is an error, not a quiet fallback: the
 * coarser scoring-time computation is not accurate enough for the most heavy-tailed traits
 * of a fully genotyped person (test/science/heavy-tails.test.ts).
 */
export function loadTables(resourcesDir: string): TraitTables {
  const file = join(resourcesDir, TABLE_FILE);
  let memory: ArrayBuffer;
  try {
    memory = readWhole(file);
  } catch (error) {
    throw new Error(
      `Cannot read the distribution tables ${file} (${(error as Error).message}). Rebuild them with: npm run build:catalog`,
      { cause: error },
    );
  }
  const raw = Buffer.from(memory);
  if (raw.length < 12 || raw.readUInt32LE(0) !== MAGIC || raw.readUInt32LE(4) !== FORMAT) {
    throw new Error(
      `${file} is not a distribution table file of format ${FORMAT}. Rebuild it with: npm run build:catalog`,
    );
  }
  const jsonLength = raw.readUInt32LE(8);
  const index = JSON.parse(raw.subarray(12, 12 + jsonLength).toString('utf8')) as TableIndex;
  const head = 12 + jsonLength;
  const start = head + ((8 - (head % 8)) % 8);
  const v = sections(memory, start, index);
  // Views are made per trait when it is first scored, not for every trait at start-up
  // (about 60 ms of each engine's load; a person's results use one reference of each).
  const made = new Map<string, TraitTablesEntry>();
  return {
    get(code) {
      const done = made.get(code);
      if (done) return done;
      const t = Object.hasOwn(index.traits, code) ? index.traits[code] : undefined;
      if (!t) return undefined;
      const tables = new Map<string, CdfTable>();
      for (const [key, [k, nk, a, na]] of Object.entries(t.tables)) {
        tables.set(key, {
          xs: v.xs.subarray(k, k + nk),
          fs: v.fs.subarray(k, k + nk),
          atomXs: v.atomXs.subarray(a, a + na),
          atomPs: v.atomPs.subarray(a, a + na),
        });
      }
      const entry = { revision: t.revision, tables };
      made.set(code, entry);
      return entry;
    },
  };
}
