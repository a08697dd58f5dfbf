/**
 * Super-population inference from a genotype with the PCA model of impute.me's ethnicity
 * module (1,974 SNPs, 1000 Genomes phase 3 reference samples).
 *
 * PC scores: the model's rotation R (SNPs × 5) is orthonormal, so with every SNP present
 * the scores are Rᵀx, x_i = (alt count − center_i) / scale_i. Consumer files miss some
 * SNPs; plain projection over the present ones would shrink the scores towards zero, so
 * we use the least-squares scores over the present SNPs, z = (R_oᵀR_o)⁻¹ R_oᵀ x_o, which
 * equals Rᵀx when nothing is missing. The super-population is the majority among the k
 * nearest reference samples in PC space.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { Genotype } from '../genotype/types.js';
import { alleleFromLetter, findRsid } from '../genotype/encoding.js';
import { matchDosage } from './match.js';
import type { Population } from './types.js';

export interface AncestryEstimate {
  population: Population;
  /** Share of the nearest reference samples that belong to each super-population. */
  proportions: Record<Population, number>;
  markers_used: number;
  pcs: number[];
}

export interface AncestryModelFile {
  source: string;
  snps: { rsid: number[]; ref: string; alt: string; center: number[]; scale: number[]; rotation: number[][] };
  samples: { id: string[]; pop: string[]; super_pop: string[]; pcs: number[][] };
}

export const ANCESTRY_MODEL_FILE = 'ancestry/pca-model.json.gz';
/** Fewer usable model SNPs than this → no inference. */
export const ANCESTRY_MIN_MARKERS = 100;
/** Nearest reference samples that vote. */
export const ANCESTRY_K = 25;

const POPS: Population[] = ['EUR', 'AMR', 'AFR', 'EAS', 'SAS'];

export interface AncestryModel {
  rsid: Uint32Array;
  ref: Uint8Array;
  alt: Uint8Array;
  center: Float64Array;
  scale: Float64Array;
  /** rotation[k * n + i] for PC k+1 and SNP i. */
  rotation: Float64Array;
  nPcs: number;
  /** Reference sample PCs, samplePcs[s * nPcs + k]. */
  samplePcs: Float64Array;
  sampleSuperPop: Uint8Array;
}

export function loadAncestryModel(resourcesDir: string): AncestryModel {
  const file = JSON.parse(gunzipSync(readFileSync(join(resourcesDir, ANCESTRY_MODEL_FILE))).toString('utf8')) as AncestryModelFile;
  return compileAncestryModel(file);
}

export function compileAncestryModel(file: AncestryModelFile): AncestryModel {
  const n = file.snps.rsid.length;
  const nPcs = file.snps.rotation.length;
  const rotation = new Float64Array(nPcs * n);
  file.snps.rotation.forEach((col, k) => rotation.set(col, k * n));
  const ns = file.samples.super_pop.length;
  const samplePcs = new Float64Array(ns * nPcs);
  for (let s = 0; s < ns; s++) for (let k = 0; k < nPcs; k++) samplePcs[s * nPcs + k] = file.samples.pcs[k][s];
  return {
    rsid: Uint32Array.from(file.snps.rsid),
    ref: Uint8Array.from(file.snps.ref, (c) => alleleFromLetter(c)),
    alt: Uint8Array.from(file.snps.alt, (c) => alleleFromLetter(c)),
    center: Float64Array.from(file.snps.center),
    scale: Float64Array.from(file.snps.scale),
    rotation,
    nPcs,
    samplePcs,
    sampleSuperPop: Uint8Array.from(file.samples.super_pop, (p) => POPS.indexOf(p as Population)),
  };
}

/** ALT allele count (0–2) of a call at a model SNP, or -1 when missing or not matching (same rules as scoring). */
export function altCount(call: number, ref: number, alt: number): number {
  const d = matchDosage(call, alt, ref);
  return d < 0 ? -1 : d & 3;
}

/** Solve the small symmetric system A z = b (Gaussian elimination with partial pivoting). */
function solve(a: Float64Array, b: Float64Array, n: number): Float64Array | null {
  const m = Float64Array.from(a);
  const z = Float64Array.from(b);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r * n + c]) > Math.abs(m[piv * n + c])) piv = r;
    if (Math.abs(m[piv * n + c]) < 1e-12) return null;
    if (piv !== c) {
      for (let k = 0; k < n; k++) [m[c * n + k], m[piv * n + k]] = [m[piv * n + k], m[c * n + k]];
      [z[c], z[piv]] = [z[piv], z[c]];
    }
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r * n + c] / m[c * n + c];
      if (f === 0) continue;
      for (let k = c; k < n; k++) m[r * n + k] -= f * m[c * n + k];
      z[r] -= f * z[c];
    }
  }
  for (let c = 0; c < n; c++) z[c] /= m[c * n + c];
  return z;
}

export function inferAncestryWith(model: AncestryModel, genotype: Genotype): AncestryEstimate | null {
  const n = model.rsid.length;
  const p = model.nPcs;
  const ata = new Float64Array(p * p);
  const atx = new Float64Array(p);
  let used = 0;
  for (let i = 0; i < n; i++) {
    const gi = findRsid(genotype.rsids, model.rsid[i]);
    if (gi < 0) continue;
    const count = altCount(genotype.calls[gi], model.ref[i], model.alt[i]);
    if (count < 0) continue;
    const x = (count - model.center[i]) / model.scale[i];
    used++;
    for (let k = 0; k < p; k++) {
      const rk = model.rotation[k * n + i];
      atx[k] += rk * x;
      for (let l = k; l < p; l++) ata[k * p + l] += rk * model.rotation[l * n + i];
    }
  }
  if (used < ANCESTRY_MIN_MARKERS) return null;
  for (let k = 0; k < p; k++) for (let l = 0; l < k; l++) ata[k * p + l] = ata[l * p + k];
  const pcs = solve(ata, atx, p);
  if (!pcs) return null;
  // k nearest reference samples.
  const ns = model.sampleSuperPop.length;
  const dist = new Float64Array(ns);
  for (let s = 0; s < ns; s++) {
    let d = 0;
    for (let k = 0; k < p; k++) {
      const diff = model.samplePcs[s * p + k] - pcs[k];
      d += diff * diff;
    }
    dist[s] = d;
  }
  const order = Array.from({ length: ns }, (_, i) => i).sort((a, b) => dist[a] - dist[b] || a - b);
  const votes = [0, 0, 0, 0, 0];
  const k = Math.min(ANCESTRY_K, ns);
  for (let j = 0; j < k; j++) votes[model.sampleSuperPop[order[j]]]++;
  // Majority; a tie goes to the super-population of the nearest sample among the tied.
  const best = Math.max(...votes);
  let winner = model.sampleSuperPop[order[0]];
  if (votes[winner] !== best) {
    for (let j = 0; j < k; j++) {
      const sp = model.sampleSuperPop[order[j]];
      if (votes[sp] === best) {
        winner = sp;
        break;
      }
    }
  }
  const proportions = Object.fromEntries(POPS.map((pop, i) => [pop, votes[i] / k])) as Record<Population, number>;
  return { population: POPS[winner], proportions, markers_used: used, pcs: Array.from(pcs) };
}
