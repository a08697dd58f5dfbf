/**
 * Ancestry inference from whatever a genotype file holds (docs/ancestry.md):
 *
 * 1. Markers: every SNP of the file that the panel has, with alleles that match (../match.ts
 *    rules), weighted for linkage disequilibrium (markers.ts). Genotypes improbable in every
 *    super-population (MISFIT_PROBABILITY) are left out as errors.
 * 2. Fit check, per tier (the curated AISNPs; all other panel SNPs): a tier whose genotypes
 *    fit no mixture of the references (fitCheck: far more missing log-likelihood than a real
 *    person's genotypes show) is left out, so thousands of markers without population signal
 *    cannot swamp the AISNPs.
 * 3. Supervised admixture proportions q over the five super-populations (likelihood.ts), with
 *    standard errors from the observed information.
 * 4. The most likely super-population: a person is compared with the 1000 Genomes
 *    individuals of each super-population, each represented by its own proportions, so a
 *    super-population is a spread of individuals, not one frequency vector. 1000 Genomes AMR
 *    (and ASW/ACB within AFR) are admixed: a Puerto Rican with mostly European ancestry
 *    resembles other PUR individuals far more than the AMR average, and is recognised as AMR.
 *    posterior(k) ∝ mean over individuals s of k of exp(τ · (ℓ(q_s) − ℓ(q̂))), with ℓ in its
 *    second-order expansion around q̂ and τ ≤ 1 widening a very precise person's likelihood to
 *    the precision the reference individuals' own proportions are known at.
 * 5. Decisions: admixed, sufficient, and a sentence for the person (THRESHOLDS below).
 */
import { POPULATION_NAMES } from '../../../shared/populations.js';
import type { Genotype } from '../../genotype/types.js';
import type { AncestryInference as AncestryInferenceFields, Population } from '../types.js';
import {
  derivatives,
  fitAdmixture,
  fitCheck,
  mixedFrequencyError,
  populationLogLikelihoods,
  proportionCovariance,
  type FitCheck,
} from './likelihood.js';
import { collectMarkers, LD_WINDOW_BP, subset, type UsedMarkers } from './markers.js';
import { K as POPULATION_COUNT, POPULATIONS } from './panel.js';
import { FREQ_FLOOR, type AncestryPanel } from './reference.js';
import { ASSUMED_POPULATION } from '../reference-population.js';

/** Local constant for the loops (see likelihood.ts). */
const K = 5;
if (POPULATION_COUNT !== K) throw new Error('infer.ts assumes five super-populations');

export const ANCESTRY_METHOD = 'likelihood over 1000 Genomes individuals + supervised admixture (maximum likelihood)';

export const ANCESTRY_THRESHOLDS = {
  /** Reference frequencies are kept within [floor, 1 − floor] (reference.ts). */
  frequencyFloor: FREQ_FLOOR,
  /** Markers within this distance of their window's first marker share one marker's weight (markers.ts). */
  ldWindowBp: LD_WINDOW_BP,
  /** A genotype less probable than this under every super-population is left out as an error. */
  misfitProbability: 1e-4,
  /**
   * A tier of markers is left out when its genotypes miss more than `fitMaxDeficit` nats of
   * log-likelihood per (weighted) marker against their own best mixture, and that shortfall
   * is beyond chance (z below `fitMinZ`). Real 1000 Genomes samples at the AISNPs show
   * −0.03 ± 0.05; random genotypes show 0.3–1.
   */
  fitMaxDeficit: 0.5,
  fitMinZ: -4,
  /** Fewer markers than this (after weighting for LD) is too little evidence. */
  minMarkers: 50,
  /** `best` is used without asking only when the posterior probability that it is right reaches this. */
  minConfidence: 0.95,
  /** Admixed: the largest proportion is at most this … */
  admixedMaxShare: 0.9,
  /** … the mixture fits better than the best single super-population by this log-likelihood ratio (1,000 : 1) … */
  admixedMinLogLikelihoodRatio: Math.log(1000),
  /** … and every proportion is known to within this standard error, so a reference built from them means something. */
  admixedMaxStandardError: 0.1,
  /**
   * A person no single population fits clearly enough (confidence below minConfidence) gets a
   * reference mixed in their proportions instead of the assumed default when that mixture's
   * frequencies differ from the default's by at least this many of their own standard errors
   * (distance from the default / mixture_frequency_error): the data then show the default is
   * wrong by more than the mixture is uncertain (docs/ancestry.md, "Mixtures for the uncertain").
   */
  mixtureMinSeparation: 2,
  /**
   * Mostly one population, not entirely: a person no single population fits clearly enough,
   * whose largest share is above `mostlyOneMinShare` and at most `admixedMaxShare`, gets a
   * reference mixed in their proportions instead of the assumed default when the mixture's
   * frequencies differ from that population's by at least this many of their own standard
   * errors: the estimate, with its uncertainty shown, rather than a default the data do not
   * support (docs/ancestry.md, "Mostly one population").
   */
  mostlyOneMinShare: 0.5,
  mostlyOneMinSeparation: 1,
  /**
   * Atypical of the population chosen: a person placed confidently in a population gets a
   * reference mixed in their proportions instead when their mixture is farther from that
   * population's reference than this share of its own 1000 Genomes individuals are, and
   * farther than `atypicalMinSeparation` of the mixture's own standard errors: the
   * population's reference was then made of people unlike them, and the mixture is the
   * closer of the two in expected squared frequency error (docs/ancestry.md, "Atypical of
   * the population chosen").
   */
  atypicalShare: 0.95,
  atypicalMinSeparation: 1,
} as const;

/**
 * The result (types.ts: AncestryInference, fields documented in docs/ancestry.md), with
 * `notes`: what else the person, or a developer, may want to know — markers left out and why.
 */
export interface AncestryInference extends AncestryInferenceFields {
  notes: string[];
}

function record(values: ArrayLike<number>): Record<Population, number> {
  return Object.fromEntries(POPULATIONS.map((p, k) => [p, values[k]])) as Record<Population, number>;
}

function percent(x: number): string {
  return `${Math.round(x * 100)} %`;
}

const thousands = new Intl.NumberFormat('en-US');
function count(n: number): string {
  return thousands.format(n);
}

/** "1 marker was" / "1,234 markers were". */
function markersWere(n: number, kind = 'markers'): string {
  return n === 1 ? `1 ${kind.replace(/s$/, '')} was` : `${count(n)} ${kind} were`;
}

/** "about 55 % European, 30 % admixed American and 15 % African" (shares of at least 5 %). */
export function describeMixture(q: ArrayLike<number>): string {
  const parts = POPULATIONS.map((p, k) => ({ p, x: q[k] }))
    .filter((e) => e.x >= 0.05)
    .sort((a, b) => b.x - a.x)
    .map((e) => `${percent(e.x)} ${POPULATION_NAMES[e.p]}`);
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  return `about ${list}`;
}

/** A frequency difference in percentage points, e.g. 0.043 → "4.3". */
function points(x: number): string {
  return (100 * x).toFixed(1);
}

/** "about 70 % European (± 16), 23 % admixed American (± 16) and 7 % African (± 6)": shares of at least 5 % with their standard errors. */
function describeMixtureWithErrors(q: ArrayLike<number>, se: ArrayLike<number>): string {
  const parts = POPULATIONS.map((p, k) => ({ p, x: q[k], e: se[k] }))
    .filter((e) => e.x >= 0.05)
    .sort((a, b) => b.x - a.x)
    .map((e) => `${percent(e.x)} ${POPULATION_NAMES[e.p]} (± ${Math.round(100 * e.e)})`);
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}` : parts[0];
  return `about ${list}`;
}

/**
 * A genotype less probable than misfitProbability under every super-population: an error,
 * not ancestry. With P = p², 2p(1 − p), (1 − p)², that is: two counted alleles where every
 * population's frequency is below √limit, none where every frequency is above 1 − √limit,
 * or a heterozygote where 2p(1 − p) is below the limit everywhere.
 */
function isMisfit(m: UsedMarkers, u: number): boolean {
  const limit = ANCESTRY_THRESHOLDS.misfitProbability;
  const root = Math.sqrt(limit);
  let lo = 1;
  let hi = 0;
  let het = 0;
  for (let k = 0; k < K; k++) {
    const p = m.p[u * K + k];
    lo = Math.min(lo, p);
    hi = Math.max(hi, p);
    het = Math.max(het, 2 * p * (1 - p));
  }
  const g = m.g[u];
  return g === 2 ? hi < root : g === 0 ? lo > 1 - root : het < limit;
}

function rejected(check: FitCheck): boolean {
  return check.deficit > ANCESTRY_THRESHOLDS.fitMaxDeficit && check.z < ANCESTRY_THRESHOLDS.fitMinZ;
}

function effectiveCount(m: UsedMarkers): number {
  let s = 0;
  for (let u = 0; u < m.n; u++) s += m.w[u];
  return s;
}

/**
 * Posterior over the super-populations from the 1000 Genomes individuals' proportions
 * (module comment, step 4).
 */
function populationPosterior(panel: AncestryPanel, m: UsedMarkers, q: Float64Array, se: Float64Array): Float64Array {
  const grad = new Float64Array(K);
  const hess = new Float64Array(K * K);
  derivatives(m, q, grad, hess);
  let variance = 0;
  for (let k = 0; k < K; k++) variance += (se[k] * se[k]) / K;
  const reference = panel.data.header.reference_variance;
  const tau = Number.isFinite(variance) && variance < reference ? variance / reference : 1;
  const sums = new Float64Array(K).fill(-Infinity);
  const counts = new Float64Array(K);
  const d = new Float64Array(K);
  const S = panel.sampleSuper.length;
  // log Σ exp(score) per population, accumulated stably.
  for (let s = 0; s < S; s++) {
    if (s === panel.excludedSample) continue;
    let score = 0;
    for (let k = 0; k < K; k++) d[k] = panel.sampleQ[s * K + k] - q[k];
    for (let k = 0; k < K; k++) {
      score += grad[k] * d[k];
      for (let l = 0; l < K; l++) score += 0.5 * hess[k * K + l] * d[k] * d[l];
    }
    score *= tau;
    const k = panel.sampleSuper[s];
    counts[k]++;
    const a = sums[k];
    sums[k] = a === -Infinity ? score : Math.max(a, score) + Math.log1p(Math.exp(-Math.abs(a - score)));
  }
  const logMean = Float64Array.from(sums, (x, k) => (counts[k] ? x - Math.log(counts[k]) : -Infinity));
  const top = Math.max(...logMean);
  const posterior = Float64Array.from(logMean, (x) => Math.exp(x - top));
  const z = posterior.reduce((a, b) => a + b, 0);
  for (let k = 0; k < K; k++) posterior[k] /= z;
  return posterior;
}

/**
 * Σ_i w_i p_i p_iᵀ / Σ_i w_i over the markers used (K × K): with it, the distance of any
 * mixture q from population e's reference is √((q − e)ᵀ M (q − e)) — distanceFrom in O(K²),
 * for every reference individual at once.
 */
function frequencyMoments(m: UsedMarkers): Float64Array {
  const M = new Float64Array(K * K);
  let weight = 0;
  for (let i = 0; i < m.n; i++) {
    const w = m.w[i];
    weight += w;
    for (let k = 0; k < K; k++) for (let l = 0; l < K; l++) M[k * K + l] += w * m.p[i * K + k] * m.p[i * K + l];
  }
  for (let j = 0; j < K * K; j++) M[j] /= weight;
  return M;
}

function momentDistance(M: Float64Array, q: ArrayLike<number>, e: number): number {
  let sum = 0;
  for (let k = 0; k < K; k++)
    for (let l = 0; l < K; l++) sum += (q[k] - (k === e ? 1 : 0)) * M[k * K + l] * (q[l] - (l === e ? 1 : 0));
  return Math.sqrt(Math.max(0, sum));
}

/**
 * The share of population e's 1000 Genomes individuals whose own proportions lie closer to
 * e's reference (on the person's markers) than `distance`.
 */
function shareOfPopulationCloser(panel: AncestryPanel, m: UsedMarkers, e: number, distance: number): number {
  const M = frequencyMoments(m);
  let members = 0;
  let closer = 0;
  for (let s = 0; s < panel.sampleSuper.length; s++) {
    if (s === panel.excludedSample || panel.sampleSuper[s] !== e) continue;
    members++;
    if (momentDistance(M, panel.sampleQ.subarray(s * K, s * K + K), e) < distance) closer++;
  }
  return members ? closer / members : 0;
}

function noInference(reason: string, notes: string[]): AncestryInference {
  const even = record(new Array(K).fill(1 / K));
  return {
    method: ANCESTRY_METHOD,
    best: null,
    posterior: even,
    proportions: even,
    proportions_se: null,
    markers_used: 0,
    aisnps_used: 0,
    confidence: 0,
    admixed: false,
    sufficient: false,
    reason,
    mixture_frequency_error: null,
    notes,
  };
}

/**
 * How far a single population's reference (the assumed default, or the population the person
 * is mostly of) is from a reference mixed in their proportions: the root mean square over the
 * markers (weighted) of Σ q_k p_ik − p_ie.
 */
function distanceFrom(m: UsedMarkers, q: Float64Array, e: number): number {
  let sum = 0;
  let weight = 0;
  for (let i = 0; i < m.n; i++) {
    let f = 0;
    for (let k = 0; k < K; k++) f += q[k] * m.p[i * K + k];
    const d = f - m.p[i * K + e];
    sum += m.w[i] * d * d;
    weight += m.w[i];
  }
  return Math.sqrt(sum / weight);
}

export function inferAncestry(panel: AncestryPanel, genotype: Genotype): AncestryInference {
  const T = ANCESTRY_THRESHOLDS;
  const notes: string[] = [];
  const { markers: found, mismatched } = collectMarkers(panel, genotype);
  if (mismatched > 0)
    notes.push(
      `${markersWere(mismatched, 'ancestry markers')} left out because the alleles in the file differ from the reference's.`,
    );
  const fits = new Uint8Array(found.n);
  let misfits = 0;
  for (let u = 0; u < found.n; u++) {
    fits[u] = isMisfit(found, u) ? 0 : 1;
    misfits += 1 - fits[u];
  }
  const usable = misfits ? subset(found, fits) : found;
  if (misfits > 0)
    notes.push(
      `${markersWere(misfits)} left out because the genotype is very unlikely in every reference population (a likely genotyping error).`,
    );
  if (usable.n === 0) {
    return noInference(
      'Your file holds none of the markers Traitscope uses to estimate ancestry, so it cannot tell which reference population fits you. Please choose your ancestry.',
      notes,
    );
  }

  // Tiers: the curated AISNPs and everything else; each must fit some mixture of the references.
  const keep = new Uint8Array(usable.n);
  let tiersKept = 0;
  let tiersPresent = 0;
  let lastFit: Float64Array | undefined;
  for (const tier of [0, 1]) {
    const inTier = new Uint8Array(usable.n);
    for (let u = 0; u < usable.n; u++) inTier[u] = usable.aisnp[u] === tier ? 1 : 0;
    const markers = subset(usable, inTier);
    if (markers.n === 0) continue;
    tiersPresent++;
    const tierFit = fitAdmixture(markers).q;
    const check = fitCheck(markers, tierFit);
    if (rejected(check)) {
      notes.push(
        `${markersWere(markers.n, tier ? 'ancestry-informative markers' : 'other markers')} left out because their genotypes fit no mixture of the reference populations (${check.deficit.toFixed(2)} nats per marker below expectation).`,
      );
    } else {
      for (let u = 0; u < usable.n; u++) keep[u] |= inTier[u];
      tiersKept++;
      lastFit ??= tierFit; // the larger tier's fit: a good start for the combined one
    }
  }
  const used = tiersKept === tiersPresent ? usable : subset(usable, keep);
  if (used.n === 0) {
    return noInference(
      'The genotypes in your file fit none of the reference populations, so Traitscope cannot estimate your ancestry from them. The file may be damaged, or not one person’s raw data; please check it, or choose your ancestry.',
      notes,
    );
  }

  const fit = fitAdmixture(used, lastFit);
  const cov = proportionCovariance(used, fit.q);
  const se = Float64Array.from({ length: K }, (_, k) => (cov ? Math.sqrt(Math.max(0, cov[k * K + k])) : Infinity));
  const frequencyError = mixedFrequencyError(used, cov);
  const defaultDistance = distanceFrom(used, fit.q, POPULATIONS.indexOf(ASSUMED_POPULATION));
  const posterior = populationPosterior(panel, used, fit.q, se);
  let best = 0;
  for (let k = 1; k < K; k++) if (posterior[k] > posterior[best]) best = k;
  const confidence = posterior[best];
  const single = populationLogLikelihoods(used);
  const logLikelihoodRatio = fit.logLikelihood - Math.max(...single);
  const largest = Math.max(...fit.q);
  const maxSe = Math.max(...se);
  const mixtureShown = largest <= T.admixedMaxShare && logLikelihoodRatio >= T.admixedMinLogLikelihoodRatio;
  const admixed = mixtureShown && maxSe <= T.admixedMaxStandardError;
  let mostly = 0;
  for (let k = 1; k < K; k++) if (fit.q[k] > fit.q[mostly]) mostly = k;
  const mostlyDistance = distanceFrom(used, fit.q, mostly);
  const mostlyOne =
    largest > T.mostlyOneMinShare &&
    largest <= T.admixedMaxShare &&
    confidence < T.minConfidence &&
    mostlyDistance >= T.mostlyOneMinSeparation * frequencyError;
  // Confidently placed, yet unlike the population's own individuals (THRESHOLDS.atypicalShare).
  const bestDistance = distanceFrom(used, fit.q, best);
  const atypical =
    confidence >= T.minConfidence &&
    fit.q.filter((x) => x >= 0.05).length > 1 &&
    bestDistance >= T.atypicalMinSeparation * frequencyError &&
    shareOfPopulationCloser(panel, used, best, bestDistance) >= T.atypicalShare;
  const effective = effectiveCount(used);
  const aisnps = used.aisnp.reduce((a, b) => a + b, 0);
  const bestName = POPULATION_NAMES[POPULATIONS[best]];

  let reason: string | null = null;
  let sufficient = true;
  let mixtureReference = false;
  if (effective < T.minMarkers) {
    sufficient = false;
    reason = `Only ${count(used.n)} of the markers Traitscope uses to estimate ancestry are usable in your file${used.n > effective + 0.5 ? ` (about ${Math.round(effective)} independent ones)` : ''}, too few to tell your ancestry reliably. Please choose your ancestry.`;
  } else if (admixed) {
    reason = `Your DNA suggests mixed ancestry: ${describeMixture(fit.q)}. A reference mixed in these proportions fits you better than any single population.`;
  } else if (confidence < T.minConfidence && defaultDistance >= T.mixtureMinSeparation * frequencyError) {
    mixtureReference = true;
    reason = `Your DNA suggests mixed ancestry: ${describeMixtureWithErrors(fit.q, se)}. Your file's ancestry markers cannot tell which single population fits you, but a reference mixed in these proportions fits you measurably better than the ${POPULATION_NAMES[ASSUMED_POPULATION]} default: its allele frequencies are known to within about ±${points(frequencyError)} points and differ from the default's by about ${points(defaultDistance)} points.`;
  } else if (mostlyOne) {
    mixtureReference = true;
    const mostlyName = POPULATION_NAMES[POPULATIONS[mostly]];
    reason = `Your DNA suggests mixed ancestry: ${describeMixtureWithErrors(fit.q, se)}, mostly ${mostlyName} but not entirely. Your file's ancestry markers cannot tell which single population fits you, but a reference mixed in these proportions is closer to you than the ${mostlyName} reference alone: its allele frequencies are known to within about ±${points(frequencyError)} points and differ from the ${mostlyName} reference's by about ${points(mostlyDistance)} points.`;
  } else if (confidence < T.minConfidence) {
    sufficient = false;
    reason = mixtureShown
      ? `Your DNA suggests mixed ancestry (${describeMixture(fit.q)}), but your file holds too few ancestry markers to measure the mix reliably. Please choose your ancestry.`
      : `Your DNA fits the ${bestName} reference best, but not clearly enough (${percent(confidence)} likely) to choose it for you. Please choose your ancestry.`;
  } else if (atypical) {
    mixtureReference = true;
    reason = `Your DNA fits the ${bestName} reference best (${percent(confidence)} likely), but it suggests ${describeMixtureWithErrors(fit.q, se).replace(/^about /, 'a mixture of about ')}, farther from the ${bestName} reference than ${Math.round(100 * T.atypicalShare)} in 100 of its own reference individuals are. A reference mixed in these proportions is closer to you: its allele frequencies are known to within about ±${points(frequencyError)} points and differ from the ${bestName} reference's by about ${points(bestDistance)} points.`;
  }

  return {
    method: ANCESTRY_METHOD,
    best: POPULATIONS[best],
    posterior: record(posterior),
    proportions: record(fit.q),
    proportions_se: record(se),
    markers_used: used.n,
    aisnps_used: aisnps,
    confidence,
    admixed: admixed || mixtureReference,
    sufficient,
    reason,
    mixture_frequency_error: Number.isFinite(frequencyError) ? frequencyError : null,
    notes,
  };
}
