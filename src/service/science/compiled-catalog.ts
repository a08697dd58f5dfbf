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
 * distinct rsIDs, u32 index length, u32 texts length, the index as ASCII JSON (each trait's
 * description and range), the texts (each trait's overview, quality and evidence as an
 * ASCII JSON object of its own, where the index says), zero padding to a multiple of 8,
 * then weight, contrib and freq (Float64), rsid and the distinct rsIDs (Uint32),
 * markerSlot (Int32), effect and other (Uint8).
 *
 * The texts are 2.7 of the 4.4 MB of JSON, and an engine worker, which only scores, reads
 * them for the traits it computes (evidence and quality go into a result), not for the
 * ones a file leaves unavailable: each trait's are parsed when first read.
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
const FORMAT = 2;
const HEAD = 60; // magic, format, catalog format, digest (32), markers, distinct rsIDs, index and texts lengths

/** The trait descriptions' long texts, kept apart from the index (module comment). */
const TEXT_FIELDS = ['overview', 'quality', 'evidence'] as const;
type TraitTexts = Pick<TraitInfo, (typeof TEXT_FIELDS)[number]>;

/** What a trait keeps besides its marker range: its description and how its texts are made. */
interface IndexedTrait {
  /** The description, its TEXT_FIELDS kept in their places but read from the texts. */
  info: TraitInfo;
  /** Where the trait's texts are: offset from the start of the texts, and length. */
  texts: [number, number];
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
  const texts: string[] = [];
  let textsLength = 0;
  const index: IndexedTrait[] = file.traits.map((t, k) => {
    const c = cat.traits[k];
    const own = asciiJson(Object.fromEntries(TEXT_FIELDS.map((f) => [f, c.info[f]])));
    texts.push(own);
    textsLength += own.length;
    return {
      // Placeholders keep the fields' order, which loadCompiledCatalog keeps.
      info: { ...c.info, ...Object.fromEntries(TEXT_FIELDS.map((f) => [f, 0])) },
      texts: [textsLength - own.length, own.length],
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
  const json = Buffer.from(asciiJson(index) + texts.join(''), 'latin1');
  const indexLength = json.length - textsLength;
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
  out.writeUInt32LE(indexLength, 52);
  out.writeUInt32LE(textsLength, 56);
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

/**
 * JSON with non-ASCII characters escaped: it is then read as Latin-1 into one-byte strings,
 * which takes half the time of decoding UTF-8 into two-byte ones.
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
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
  const indexLength = raw.readUInt32LE(52);
  const jsonLength = indexLength + raw.readUInt32LE(56);
  const start = HEAD + jsonLength + ((8 - ((HEAD + jsonLength) % 8)) % 8);
  if (raw.length !== start + sectionBytes(n, u)) {
    throw new Error(
      `${file} is ${raw.length} bytes, not the ${start + sectionBytes(n, u)} its header says. ${rebuild}`,
    );
  }
  const index = JSON.parse(raw.subarray(HEAD, HEAD + indexLength).toString('latin1')) as IndexedTrait[];
  const textsAt = HEAD + indexLength;
  const traits: CompiledTrait[] = index.map((t) => {
    let texts: readonly string[] | undefined;
    return {
      info: withLazyTexts(t.info, () => {
        const [at, length] = t.texts;
        return JSON.parse(raw.subarray(textsAt + at, textsAt + at + length).toString('latin1')) as TraitTexts;
      }),
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

/** The info's own texts, parsed on first read (a trait's texts, for every field that reads them). */
const lazyTexts = new WeakMap<TraitInfo, { read: () => TraitTexts; texts?: TraitTexts }>();

/**
 * The info with each TEXT_FIELDS field a getter, in its place among the fields (so JSON and
 * every copy keep their order), that parses the trait's texts on first read. Built as a new
 * object, field by field, with one getter per field shared by every trait: all infos keep
 * one fast shape (turning the parsed object's fields into getters would make each a
 * dictionary).
 */
const textGetters = Object.fromEntries(
  TEXT_FIELDS.map((field) => [
    field,
    function (this: TraitInfo) {
      const lazy = lazyTexts.get(this)!;
      return (lazy.texts ??= lazy.read())[field];
    },
  ]),
);
const isTextField = (key: string): key is (typeof TEXT_FIELDS)[number] => key in textGetters;

function withLazyTexts(parsed: TraitInfo, read: () => TraitTexts): TraitInfo {
  const info: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (isTextField(key))
      Object.defineProperty(info, key, { get: textGetters[key], enumerable: true, configurable: true });
    else info[key] = value;
  }
  lazyTexts.set(info as unknown as TraitInfo, { read });
  return info as unknown as TraitInfo;
}
