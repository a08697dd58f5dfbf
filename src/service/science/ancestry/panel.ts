/**
 * The ancestry reference panel (resources/ancestry/panel.bin.gz): every autosomal SNP with
 * 1000 Genomes phase 3 allele frequencies for the five super-populations, built by
 * scripts/catalog/ancestry-panel.ts. Shared by that script (encodePanel) and the service
 * (loadAncestryPanel), so both agree on one byte layout.
 *
 * Layout (all little-endian, gzipped as a whole):
 *   "TSAP" · u32 format · u32 header length · header JSON (UTF-8) · zero padding to 4 bytes
 *   rsid      u32[n]    ascending numeric rsIDs
 *   chrom     u8[n]     GRCh37 chromosome 1–22
 *   pos       u32[n]    GRCh37 position, 0 where no source gives one
 *   alleles   u8[n]     (counted << 4) | other, allele codes of ../../genotype/encoding.ts
 *   source    u8[n]     SOURCE_* below: which table the frequencies come from
 *   freq      u16[5n]   counted-allele frequency × 10,000, marker-major, POPULATIONS order
 *   aisnp     u32[m]    panel row of each Kidd/Seldin AISNP
 *   count     u16[5m]   counted alleles per super-population among the reference samples
 *   chromosomes u16[5m] chromosomes per super-population (2 × samples)
 *   sampleSuper u8[S]   super-population of each 1000 Genomes reference sample
 *   samplePop u8[S]     its population, an index into header.population_codes
 *   sampleQ   u16[5S]   its admixture proportions at the AISNPs × 10,000
 * Frequencies are stored at the 4-decimal resolution every source uses, so they are exact.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { POPULATIONS } from '../../../shared/populations.js';
import type { Population } from '../types.js';

export const ANCESTRY_PANEL_FILE = 'ancestry/panel.bin.gz';
export const PANEL_FORMAT = 1;
const MAGIC = 0x50415354; // "TSAP" read as a little-endian u32

/** Column order of every per-population array (src/shared/populations.ts). */
export { POPULATIONS };
export const K = POPULATIONS.length;
export const FREQ_SCALE = 10_000;

export const SOURCE_AISNP = 0;
export const SOURCE_KG = 1;
export const SOURCE_UKB = 2;
export const SOURCE_GWAS = 3;

export interface PanelHeader {
  format: number;
  populations: Population[];
  /** One line per SOURCE_* code: the table and where it came from. */
  sources: string[];
  /** Markers per SOURCE_* code. */
  counts: number[];
  built_by: string;
  /** 1000 Genomes sample ids, in the order of the sample sections. */
  sample_ids: string[];
  /** 1000 Genomes population codes ("GBR", "PUR", …) indexed by samplePop. */
  population_codes: string[];
  /**
   * Median over the reference samples of the mean squared standard error of their AISNP
   * proportions: how precisely the reference individuals' proportions are known.
   */
  reference_variance: number;
}

export interface AncestryPanelData {
  header: PanelHeader;
  rsid: Uint32Array;
  chrom: Uint8Array;
  pos: Uint32Array;
  alleles: Uint8Array;
  source: Uint8Array;
  /** Counted-allele frequency × FREQ_SCALE, freq[i * K + k]. */
  freq: Uint16Array;
  aisnp: Uint32Array;
  /** Counted alleles and chromosomes per AISNP and super-population, [j * K + k]. */
  aisnpCount: Uint16Array;
  aisnpChromosomes: Uint16Array;
  sampleSuper: Uint8Array;
  samplePop: Uint8Array;
  /** Proportions × FREQ_SCALE, [s * K + k]. */
  sampleQ: Uint16Array;
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}

export function encodePanel(p: AncestryPanelData): Buffer {
  const n = p.rsid.length;
  const m = p.aisnp.length;
  const header = Buffer.from(JSON.stringify(p.header), 'utf8');
  const S = p.header.sample_ids.length;
  const sections: ArrayBufferView[] = [
    p.rsid,
    p.chrom,
    p.pos,
    p.alleles,
    p.source,
    p.freq,
    p.aisnp,
    p.aisnpCount,
    p.aisnpChromosomes,
    p.sampleSuper,
    p.samplePop,
    p.sampleQ,
  ];
  const expected = [4 * n, n, 4 * n, n, n, 2 * K * n, 4 * m, 2 * K * m, 2 * K * m, S, S, 2 * K * S];
  sections.forEach((s, i) => {
    if (s.byteLength !== expected[i])
      throw new Error(`ancestry panel section ${i} has ${s.byteLength} bytes, expected ${expected[i]}`);
  });
  let size = pad4(12 + header.length);
  for (const s of sections) size += pad4(s.byteLength);
  const out = Buffer.alloc(size);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(PANEL_FORMAT, 4);
  out.writeUInt32LE(header.length, 8);
  header.copy(out, 12);
  let at = pad4(12 + header.length);
  for (const s of sections) {
    out.set(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), at);
    at += pad4(s.byteLength);
  }
  // mtime 0 and a fixed level: the same panel always gives the same bytes.
  return gzipSync(out, { level: 9 });
}

export function decodePanel(gz: Uint8Array): AncestryPanelData {
  // A fresh, 0-aligned copy so the typed-array views below are aligned.
  const bytes = new Uint8Array(gunzipSync(gz));
  const view = new DataView(bytes.buffer);
  if (bytes.length < 12 || view.getUint32(0, true) !== MAGIC)
    throw new Error('The ancestry panel file is damaged (wrong signature). Reinstall Traitscope.');
  const format = view.getUint32(4, true);
  if (format !== PANEL_FORMAT)
    throw new Error(
      `The ancestry panel file has format ${format}; this version reads format ${PANEL_FORMAT}. Reinstall Traitscope.`,
    );
  const headerLength = view.getUint32(8, true);
  const header = JSON.parse(Buffer.from(bytes.buffer, 12, headerLength).toString('utf8')) as PanelHeader;
  const n = header.counts.reduce((a, b) => a + b, 0);
  const m = header.counts[SOURCE_AISNP];
  const S = header.sample_ids.length;
  let at = pad4(12 + headerLength);
  function take<T>(make: (buffer: ArrayBuffer, offset: number, length: number) => T, length: number, width: number): T {
    if (at + length * width > bytes.length)
      throw new Error('The ancestry panel file is damaged (truncated). Reinstall Traitscope.');
    const v = make(bytes.buffer, at, length);
    at += pad4(length * width);
    return v;
  }
  const u32 = (b: ArrayBuffer, o: number, l: number) => new Uint32Array(b, o, l);
  const u16 = (b: ArrayBuffer, o: number, l: number) => new Uint16Array(b, o, l);
  const u8 = (b: ArrayBuffer, o: number, l: number) => new Uint8Array(b, o, l);
  return {
    header,
    rsid: take(u32, n, 4),
    chrom: take(u8, n, 1),
    pos: take(u32, n, 4),
    alleles: take(u8, n, 1),
    source: take(u8, n, 1),
    freq: take(u16, K * n, 2),
    aisnp: take(u32, m, 4),
    aisnpCount: take(u16, K * m, 2),
    aisnpChromosomes: take(u16, K * m, 2),
    sampleSuper: take(u8, S, 1),
    samplePop: take(u8, S, 1),
    sampleQ: take(u16, K * S, 2),
  };
}

export function readPanelFile(resourcesDir: string): AncestryPanelData {
  const path = join(resourcesDir, ANCESTRY_PANEL_FILE);
  let gz: Buffer;
  try {
    gz = readFileSync(path);
  } catch {
    throw new Error(`The ancestry panel ${path} is missing. Run "npm run build:catalog", or reinstall Traitscope.`);
  }
  return decodePanel(gz);
}
