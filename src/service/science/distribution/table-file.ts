/**
 * The shipped distribution tables (resources/catalog/distributions.bin), written by the
 * catalog build: one file, no parsing beyond a small JSON index, each trait's tables read
 * when it is first scored.
 *
 * Layout: "TSDT", u32 format, u32 index length, the index as UTF-8 JSON, zero padding to
 * a multiple of 8, then all knot scores (Float64), all atom scores (Float64), all knot
 * values (Float32) and all atom probabilities (Float32). The index maps a trait code to its
 * revision and, per reference ("EUR", … and "EUR:XY" for XY people when the trait has
 * X-chromosome markers), [first knot, knots, first atom, atoms].
 */
import { closeSync, fstatSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { readExactly } from '../whole-file.js';
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

/** The tables of each resources folder loaded in this process. */
const opened = new Map<string, TraitTables>();

/**
 * The tables of a resources folder. A missing file is an error, not a quiet fallback: the
 * coarser scoring-time computation is not accurate enough for the most heavy-tailed traits
 * of a fully genotyped person (test/science/heavy-tails.test.ts).
 *
 * Only the index is read at load; a trait's tables are read from the file when it is first
 * scored. A person's results use one reference of each trait, and reading all 9.5 MB into
 * fresh memory cost ~40 ms of each engine's load (mostly the kernel mapping its pages). The
 * file stays open, once per process and folder, shared by the engines it builds.
 */
export function loadTables(resourcesDir: string): TraitTables {
  const hit = opened.get(resourcesDir);
  if (hit) return hit;
  const file = join(resourcesDir, TABLE_FILE);
  const rebuild = 'Rebuild it with: npm run build:catalog';
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    throw new Error(`Cannot read the distribution tables ${file} (${(error as Error).message}). ${rebuild}`, {
      cause: error,
    });
  }
  const size = fstatSync(fd).size;
  const read = (into: ArrayBufferView, at: number) => {
    try {
      readExactly(fd, into, at, size);
    } catch (error) {
      throw new Error(`${file}: ${(error as Error).message}. ${rebuild}`, { cause: error });
    }
  };
  const head = Buffer.alloc(12);
  if (size >= 12) read(head, 0);
  if (size < 12 || head.readUInt32LE(0) !== MAGIC || head.readUInt32LE(4) !== FORMAT) {
    closeSync(fd);
    throw new Error(`${file} is not a distribution table file of format ${FORMAT}. ${rebuild}`);
  }
  const json = Buffer.alloc(head.readUInt32LE(8));
  read(json, 12);
  const index = JSON.parse(json.toString('utf8')) as TableIndex;
  const start = 12 + json.length + ((8 - ((12 + json.length) % 8)) % 8);
  const { knots, atoms } = index;
  if (size !== start + 12 * (knots + atoms)) {
    closeSync(fd);
    throw new Error(`${file} is ${size} bytes, not the ${start + 12 * (knots + atoms)} its index says. ${rebuild}`);
  }
  const made = new Map<string, TraitTablesEntry>();
  const tables: TraitTables = {
    get(code) {
      const done = made.get(code);
      if (done) return done;
      const t = Object.hasOwn(index.traits, code) ? index.traits[code] : undefined;
      if (!t) return undefined;
      // A trait's tables are consecutive in each section: four reads, then views per reference.
      const ranges = Object.values(t.tables);
      const k0 = Math.min(...ranges.map((r) => r[0]));
      const a0 = Math.min(...ranges.map((r) => r[2]));
      const xs = new Float64Array(ranges.reduce((n, r) => n + r[1], 0));
      const atomXs = new Float64Array(ranges.reduce((n, r) => n + r[3], 0));
      const fs = new Float32Array(xs.length);
      const atomPs = new Float32Array(atomXs.length);
      read(xs, start + 8 * k0);
      read(atomXs, start + 8 * knots + 8 * a0);
      read(fs, start + 8 * (knots + atoms) + 4 * k0);
      read(atomPs, start + 8 * (knots + atoms) + 4 * knots + 4 * a0);
      const byReference = new Map<string, CdfTable>();
      for (const [key, [k, nk, a, na]] of Object.entries(t.tables)) {
        byReference.set(key, {
          xs: xs.subarray(k - k0, k - k0 + nk),
          fs: fs.subarray(k - k0, k - k0 + nk),
          atomXs: atomXs.subarray(a - a0, a - a0 + na),
          atomPs: atomPs.subarray(a - a0, a - a0 + na),
        });
      }
      const entry = { revision: t.revision, tables: byReference };
      made.set(code, entry);
      return entry;
    },
  };
  opened.set(resourcesDir, tables);
  return tables;
}
