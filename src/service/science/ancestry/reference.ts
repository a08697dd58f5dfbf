/**
 * The panel as inference uses it: allele codes split out and frequencies as numbers kept
 * off 0 and 1. Also the leave-one-out reference used to validate the method on the 1000
 * Genomes samples the AISNP frequencies were counted from.
 */
import { matchDosage } from '../match.js';
import { FREQ_SCALE as SCALE, K as POPULATION_COUNT, SOURCE_AISNP, type AncestryPanelData } from './panel.js';

/** Local constants for the loops (see likelihood.ts). */
const K = 5;
const FREQ_SCALE: number = SCALE;
if (POPULATION_COUNT !== K) throw new Error('reference.ts assumes five super-populations');

/**
 * Frequencies are kept within [FREQ_FLOOR, 1 − FREQ_FLOOR]. A super-population of 1000
 * Genomes holds 694–1,322 chromosomes, so an allele it does not carry may still have a
 * frequency up to about 1/700; the AllDiseases table itself floors zeros at 0.001. Without a
 * floor one genotyping error at such a marker would rule a population out outright.
 */
export const FREQ_FLOOR = 0.001;

export interface AncestryPanel {
  size: number;
  rsid: Uint32Array;
  counted: Uint8Array;
  other: Uint8Array;
  /** 1 for the Kidd/Seldin AISNPs. */
  aisnp: Uint8Array;
  /** GRCh37 chromosome and position where a source gives one (position 0 otherwise). */
  chrom: Uint8Array;
  pos: Uint32Array;
  /** Counted-allele frequency per population, floored: p[i * K + k]. */
  p: Float64Array;
  /** 1000 Genomes reference individuals: super-population index and AISNP proportions q[s * K + k]. */
  sampleSuper: Uint8Array;
  sampleQ: Float64Array;
  /** A reference individual left out of the comparison (leaveOneOut), or −1. */
  excludedSample: number;
  data: AncestryPanelData;
}

function floored(f: number): number {
  return Math.min(1 - FREQ_FLOOR, Math.max(FREQ_FLOOR, f));
}

export function compilePanel(data: AncestryPanelData): AncestryPanel {
  const n = data.rsid.length;
  const p = new Float64Array(n * K);
  for (let j = 0; j < n * K; j++) p[j] = floored(data.freq[j] / FREQ_SCALE);
  // AISNPs: the exact counts rather than their 4-decimal rounding, as leaveOneOut uses.
  data.aisnp.forEach((i, j) => {
    for (let k = 0; k < K; k++) p[i * K + k] = floored(data.aisnpCount[j * K + k] / data.aisnpChromosomes[j * K + k]);
  });
  const S = data.sampleSuper.length;
  const sampleQ = new Float64Array(S * K);
  for (let t = 0; t < S; t++) {
    let sum = 0;
    for (let k = 0; k < K; k++) sum += data.sampleQ[t * K + k];
    for (let k = 0; k < K; k++) sampleQ[t * K + k] = data.sampleQ[t * K + k] / sum;
  }
  return {
    size: n,
    rsid: data.rsid,
    counted: data.alleles.map((a) => a >> 4),
    other: data.alleles.map((a) => a & 0xf),
    aisnp: data.source.map((s) => (s === SOURCE_AISNP ? 1 : 0)),
    chrom: data.chrom,
    pos: data.pos,
    p,
    sampleSuper: data.sampleSuper,
    sampleQ,
    excludedSample: -1,
    data,
  };
}

/**
 * The panel with one 1000 Genomes reference sample taken out: its alleles (`callAt(rsid)`,
 * a genotype call byte, 0 when missing) are removed from the AISNP counts of its
 * super-population, and it is left out of the reference individuals. Used to test
 * inference on the very samples the reference was counted from, honestly.
 */
export function leaveOneOut(panel: AncestryPanel, sample: number, callAt: (rsid: number) => number): AncestryPanel {
  const k = panel.sampleSuper[sample];
  const p = Float64Array.from(panel.p);
  const { aisnp, aisnpCount, aisnpChromosomes } = panel.data;
  for (let j = 0; j < aisnp.length; j++) {
    const i = aisnp[j];
    const d = matchDosage(callAt(panel.rsid[i]), panel.counted[i], panel.other[i]);
    if (d < 0) continue;
    const count = aisnpCount[j * K + k] - (d & 3);
    const chromosomes = aisnpChromosomes[j * K + k] - 2;
    p[i * K + k] = floored(count / chromosomes);
  }
  return { ...panel, p, excludedSample: sample };
}
