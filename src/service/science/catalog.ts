/**
 * Loading the catalog file once and compiling it into flat typed arrays: marker i of the
 * whole catalog has rsid[i], effect[i], other[i], weight[i] and freq[i * 5 + population].
 * Each trait is the range [start, start + count).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { alleleFromLetter } from '../genotype/encoding.js';
import {
  CATALOG_FILE,
  CATALOG_FORMAT,
  POPULATION_ORDER,
  recommendationsOf,
  type CatalogFile,
  type CatalogTrait,
  type TraitBaseline,
  type WeightScale,
} from './format.js';
import type { TraitInfo } from './types.js';

export const N_POPS = POPULATION_ORDER.length;

export interface CompiledTrait {
  info: TraitInfo;
  start: number;
  count: number;
  recommendations: readonly string[];
  weight_scale: WeightScale;
  /** Offsets within the trait of its X-chromosome markers, ascending. */
  x: Int32Array;
  /** Why results of this (imported) trait are raw scores without a percentile, or null. */
  rawScoreOnly: string | null;
  /** Scale and frequency for the result's meaning in absolute terms (format.ts). */
  baseline: TraitBaseline | null;
}

export interface CompiledCatalog {
  traits: CompiledTrait[];
  byCode: Map<string, CompiledTrait>;
  rsid: Uint32Array;
  effect: Uint8Array;
  other: Uint8Array;
  weight: Float64Array;
  /** Score contribution for 0, 1, 2 effect alleles: contrib[3i + dosage]. */
  contrib: Float64Array;
  freq: Float64Array;
  /** Distinct rsIDs of the catalog, ascending; markerSlot[i] is marker i's index in it. */
  uniqueRsids: Uint32Array;
  markerSlot: Int32Array;
}

export function readCatalogFile(resourcesDir: string): CatalogFile {
  const path = join(resourcesDir, CATALOG_FILE);
  let file: CatalogFile;
  try {
    file = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8')) as CatalogFile;
  } catch (err) {
    throw new Error(
      `Cannot read the trait catalog at ${path} (${(err as Error).message}). Rebuild it with: npx tsx scripts/build-catalog.ts`,
      { cause: err },
    );
  }
  if (file.format !== CATALOG_FORMAT) {
    throw new Error(
      `The trait catalog at ${path} has format ${file.format}, this version reads format ${CATALOG_FORMAT}. Rebuild it with: npx tsx scripts/build-catalog.ts`,
    );
  }
  return file;
}

export function traitInfoOf(t: CatalogTrait): TraitInfo {
  return {
    code: t.code,
    name: t.name,
    overview: t.overview,
    connotation: t.connotation,
    category: t.category,
    featured: t.featured,
    default_pricing: t.default_pricing,
    quality: t.quality,
    study_label: t.study_label,
    group: t.group,
    sex: t.sex,
    sex_reason: t.sex_reason,
    evidence: t.evidence,
    revision: t.revision,
  };
}

export function compileCatalog(defs: readonly CatalogTrait[]): CompiledCatalog {
  let total = 0;
  for (const t of defs) total += t.markers.rsid.length;
  const rsid = new Uint32Array(total);
  const effect = new Uint8Array(total);
  const other = new Uint8Array(total);
  const weight = new Float64Array(total);
  const contrib = new Float64Array(3 * total);
  const freq = new Float64Array(total * N_POPS);
  const traits: CompiledTrait[] = [];
  const byCode = new Map<string, CompiledTrait>();
  let at = 0;
  for (const t of defs) {
    const m = t.markers;
    const count = m.rsid.length;
    if (m.effect.length !== count || m.other.length !== count || m.weight.length !== count) {
      throw new Error(`Trait ${t.code}: marker arrays have different lengths`);
    }
    rsid.set(m.rsid, at);
    weight.set(m.weight, at);
    if (m.dosage_weights) {
      if (m.dosage_weights.length !== 3 * count)
        throw new Error(`Trait ${t.code}: dosage_weights must hold three numbers per marker`);
      contrib.set(m.dosage_weights, 3 * at);
    } else {
      for (let i = 0; i < count; i++) {
        contrib[3 * (at + i) + 1] = m.weight[i];
        contrib[3 * (at + i) + 2] = 2 * m.weight[i];
      }
    }
    for (let i = 0; i < count; i++) {
      effect[at + i] = alleleFromLetter(m.effect[i]);
      other[at + i] = alleleFromLetter(m.other[i]);
      if (effect[at + i] === 0 || other[at + i] === 0)
        throw new Error(`Trait ${t.code}: marker rs${m.rsid[i]} has an unknown allele`);
    }
    for (let p = 0; p < N_POPS; p++) {
      const col = m.freq[POPULATION_ORDER[p]];
      if (!col || col.length !== count) throw new Error(`Trait ${t.code}: missing ${POPULATION_ORDER[p]} frequencies`);
      for (let i = 0; i < count; i++) freq[(at + i) * N_POPS + p] = col[i] ?? NaN; // null: unknown (raw-score-only imports)
    }
    const compiled: CompiledTrait = {
      info: traitInfoOf(t),
      start: at,
      count,
      recommendations: recommendationsOf(t),
      weight_scale: t.weight_scale,
      x: Int32Array.from(m.x ?? []).sort(),
      rawScoreOnly: t.raw_score_only?.reason ?? null,
      baseline: t.baseline ?? null,
    };
    if (byCode.has(t.code)) throw new Error(`Trait code ${t.code} appears twice`);
    traits.push(compiled);
    byCode.set(t.code, compiled);
    at += count;
  }
  const uniqueRsids = distinctSorted(rsid);
  const markerSlot = new Int32Array(total);
  for (let i = 0; i < total; i++) markerSlot[i] = lowerBound(uniqueRsids, rsid[i]);
  return { traits, byCode, rsid, effect, other, weight, contrib, freq, uniqueRsids, markerSlot };
}

/** The distinct values, ascending: a sorted copy with repeats dropped (a Set of ~70,000 numbers took 6 times longer). */
function distinctSorted(values: Uint32Array): Uint32Array {
  const sorted = values.slice().sort();
  let n = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[n - 1]) sorted[n++] = sorted[i];
  return sorted.slice(0, n);
}

function lowerBound(a: Uint32Array, v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Calls of a genotype at the catalog's distinct rsIDs (0 where absent), by a merge join of two sorted lists. */
export function callsAtSlots(uniqueRsids: Uint32Array, rsids: Uint32Array, calls: Uint8Array): Uint8Array {
  const out = new Uint8Array(uniqueRsids.length);
  let j = 0;
  const n = rsids.length;
  for (let i = 0; i < uniqueRsids.length; i++) {
    const r = uniqueRsids[i];
    while (j < n && rsids[j] < r) j++;
    if (j < n && rsids[j] === r) out[i] = calls[j];
  }
  return out;
}
