/**
 * The shipped 1000 Genomes phase 3 table (resources/catalog/kg-frequencies.json.gz): GRCh37
 * position, REF/ALT and ALT frequency per super-population for ~27,000 SNPs. Imported PGS
 * files use it for missing frequencies, strand alignment and position → rsID matching.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { POPULATION_ORDER } from './format.js';

export const KG_TABLE_FILE = 'catalog/kg-frequencies.json.gz';

export interface KgTableFile {
  source: string;
  rsid: number[];
  chrom: string[];
  pos: number[];
  ref: string;
  alt: string;
  alt_freq: Record<(typeof POPULATION_ORDER)[number], number[]>;
}

export interface KgVariant {
  rsid: number;
  chrom: string;
  pos: number;
  ref: string;
  alt: string;
  /** ALT frequency per super-population, POPULATION_ORDER. */
  altFreq: number[];
}

export interface KgTable {
  size: number;
  byRsid: (rsid: number) => KgVariant | undefined;
  /** GRCh37 chromosome ("1"–"22", "X") and position. */
  byPosition: (chrom: string, pos: number) => KgVariant[];
}

const cache = new Map<string, KgTable>();

export function loadKgTable(resourcesDir: string): KgTable {
  const hit = cache.get(resourcesDir);
  if (hit) return hit;
  const file = JSON.parse(gunzipSync(readFileSync(join(resourcesDir, KG_TABLE_FILE))).toString('utf8')) as KgTableFile;
  const variants = file.rsid.map((rsid, i) => ({
    rsid,
    chrom: file.chrom[i],
    pos: file.pos[i],
    ref: file.ref[i],
    alt: file.alt[i],
    altFreq: POPULATION_ORDER.map((p) => file.alt_freq[p][i]),
  }));
  const byRsid = new Map(variants.map((v) => [v.rsid, v]));
  const byPos = new Map<string, KgVariant[]>();
  for (const v of variants) {
    const key = `${v.chrom}:${v.pos}`;
    const list = byPos.get(key);
    if (list) list.push(v);
    else byPos.set(key, [v]);
  }
  const table: KgTable = {
    size: variants.length,
    byRsid: (rsid) => byRsid.get(rsid),
    byPosition: (chrom, pos) => byPos.get(`${chrom}:${pos}`) ?? [],
  };
  cache.set(resourcesDir, table);
  return table;
}
