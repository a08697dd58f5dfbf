/**
 * The catalog compiled for the engine (resources/catalog/catalog.bin), written by the
 * catalog build from the catalog.json.gz next to it: what compileCatalog (catalog.ts) makes
 * of that file, so an engine load views the marker arrays in place instead of parsing 8 MB
 * of JSON (~350 of the ~575 ms of CPU each service worker and CLI command spent loading).
 * catalog.json.gz stays the catalog's record, every number traceable to its study; this
 * file names the SHA-256 of the catalog.json.gz it was compiled from and is refused when
 * that file has changed since.
 *
 * Layout: "TSCC", u32 format, u32 catalog format, the 32-byte SHA-256, u32 markers, u32
 * distinct rsIDs, u32 index length, the index as ASCII JSON (each trait's description and
 * range), zero padding to a multiple of 8, then weight, contrib and freq (Float64), rsid
 * and the distinct rsIDs (Uint32), markerSlot (Int32), effect and other (Uint8).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileCatalog, N_POPS, type CompiledCatalog, type CompiledTrait } from './catalog.js';
import { CATALOG_FILE, CATALOG_FORMAT, recommendationsOf, type CatalogFile, type CatalogTrait } from './format.js';
import type { TraitInfo } from './types.js';
import { readWhole } from './whole-file.js';

export const COMPILED_CATALOG_FILE = 'catalog/catalog.bin';
const MAGIC = 0x43435354; // "TSCC" little-endian
const FORMAT = 1;
const HEAD = 56; // magic, format, catalog format, digest (32), markers, distinct rsIDs, index length

/** What a trait keeps besides its marker range: its description and how its texts are made. */
interface IndexedTrait {
  info: TraitInfo;
  start: number;
  count: number;
  weight_scale: CatalogTrait['weight_scale'];
  x: number[];
  raw_score_only: string | null;
  baseline?: CatalogTrait['baseline'];
  text_kind: CatalogTrait['text_kind'];
  phrase: string;
  recommendations?: string[];
}

/** SHA-256 of the catalog file's bytes, as stored (gzipped). */
function digestOf(catalogJsonGz: Uint8Array): Buffer {
  return createHash('sha256').update(catalogJsonGz).digest();
}

/** The compiled form of `file`, whose bytes on disk (catalog.json.gz) are `catalogJsonGz`. */
export function encodeCompiledCatalog(file: CatalogFile, catalogJsonGz: Uint8Array): Buffer {
  const cat = compileCatalog(file.traits); // the catalog's checks: lengths, alleles, frequencies, codes
  const index: IndexedTrait[] = file.traits.map((t, k) => {
    const c = cat.traits[k];
    return {
      info: c.info,
      start: c.start,
      count: c.count,
      weight_scale: c.weight_scale,
      x: Array.from(c.x),
      raw_score_only: c.rawScoreOnly,
      ...(c.baseline ? { baseline: c.baseline } : {}),
      text_kind: t.text_kind,
      phrase: t.phrase,
      ...(t.recommendations ? { recommendations: t.recommendations } : {}),
    };
  });
  // Non-ASCII characters escaped: the index is then read as Latin-1 into one-byte strings,
  // which takes half the time of decoding UTF-8 into two-byte ones.
  const text = JSON.stringify(index).replace(
    /[^\0-\x7f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const json = Buffer.from(text, 'latin1');
  const start = HEAD + json.length + ((8 - ((HEAD + json.length) % 8)) % 8);
  const n = cat.rsid.length;
  const u = cat.uniqueRsids.length;
  const out = Buffer.alloc(start + sectionBytes(n, u));
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(FORMAT, 4);
  out.writeUInt32LE(file.format, 8);
  digestOf(catalogJsonGz).copy(out, 12);
  out.writeUInt32LE(n, 44);
  out.writeUInt32LE(u, 48);
  out.writeUInt32LE(json.length, 52);
  json.copy(out, HEAD);
  const v = sections(out.buffer, out.byteOffset + start, n, u);
  v.weight.set(cat.weight);
  v.contrib.set(cat.contrib);
  v.freq.set(cat.freq);
  v.rsid.set(cat.rsid);
  v.uniqueRsids.set(cat.uniqueRsids);
  v.markerSlot.set(cat.markerSlot);
  v.effect.set(cat.effect);
  v.other.set(cat.other);
  return out;
}

function sectionBytes(n: number, u: number): number {
  return 8 * (1 + 3 + N_POPS) * n + 4 * (2 * n + u) + 2 * n;
}

function sections(buffer: ArrayBuffer, at: number, n: number, u: number) {
  const weight = new Float64Array(buffer, at, n);
  const contrib = new Float64Array(buffer, weight.byteOffset + weight.byteLength, 3 * n);
  const freq = new Float64Array(buffer, contrib.byteOffset + contrib.byteLength, N_POPS * n);
  const rsid = new Uint32Array(buffer, freq.byteOffset + freq.byteLength, n);
  const uniqueRsids = new Uint32Array(buffer, rsid.byteOffset + rsid.byteLength, u);
  const markerSlot = new Int32Array(buffer, uniqueRsids.byteOffset + uniqueRsids.byteLength, n);
  const effect = new Uint8Array(buffer, markerSlot.byteOffset + markerSlot.byteLength, n);
  const other = new Uint8Array(buffer, effect.byteOffset + n, n);
  return { weight, contrib, freq, rsid, uniqueRsids, markerSlot, effect, other };
}

/**
 * The compiled catalog of a resources folder. Missing, of another format, or compiled from
 * another catalog.json.gz than the one beside it: an error that says how to rebuild it,
 * never a catalog other than the one shipped.
 */
export function loadCompiledCatalog(resourcesDir: string): CompiledCatalog {
  const file = join(resourcesDir, COMPILED_CATALOG_FILE);
  const rebuild = 'Rebuild it with: npm run build:catalog -- --compiled-only';
  let memory: ArrayBuffer;
  let source: Buffer;
  try {
    memory = readWhole(file);
    source = readFileSync(join(resourcesDir, CATALOG_FILE));
  } catch (error) {
    throw new Error(`Cannot read the trait catalog (${(error as Error).message}). ${rebuild}`, { cause: error });
  }
  const raw = Buffer.from(memory);
  if (raw.length < HEAD || raw.readUInt32LE(0) !== MAGIC || raw.readUInt32LE(4) !== FORMAT) {
    throw new Error(`${file} is not a compiled trait catalog of format ${FORMAT}. ${rebuild}`);
  }
  if (raw.readUInt32LE(8) !== CATALOG_FORMAT || !raw.subarray(12, 44).equals(digestOf(source))) {
    throw new Error(`${file} was not compiled from the ${CATALOG_FILE} beside it. ${rebuild}`);
  }
  const n = raw.readUInt32LE(44);
  const u = raw.readUInt32LE(48);
  const jsonLength = raw.readUInt32LE(52);
  const start = HEAD + jsonLength + ((8 - ((HEAD + jsonLength) % 8)) % 8);
  if (raw.length !== start + sectionBytes(n, u)) {
    throw new Error(
      `${file} is ${raw.length} bytes, not the ${start + sectionBytes(n, u)} its header says. ${rebuild}`,
    );
  }
  const index = JSON.parse(raw.subarray(HEAD, HEAD + jsonLength).toString('latin1')) as IndexedTrait[];
  const traits: CompiledTrait[] = index.map((t) => {
    let texts: readonly string[] | undefined;
    return {
      info: t.info,
      start: t.start,
      count: t.count,
      // Filled in when a result first needs them: ~4 MB of text, most of it never shown.
      get recommendations() {
        return (texts ??= recommendationsOf(t));
      },
      weight_scale: t.weight_scale,
      x: Int32Array.from(t.x),
      rawScoreOnly: t.raw_score_only,
      baseline: t.baseline ?? null,
    };
  });
  const byCode = new Map(traits.map((t) => [t.info.code, t]));
  return { traits, byCode, ...sections(memory, start, n, u) };
}
