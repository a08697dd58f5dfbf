/**
 * The statistics of ancestry inference on genotype counts: Hardy–Weinberg genotype
 * likelihoods under one super-population or a mixture, supervised admixture proportions
 * (the model of ADMIXTURE's supervised mode: each allele comes from population k with
 * probability q_k, so the counted-allele frequency at marker i is f_i = Σ_k q_k p_ik), the
 * observed information for standard errors, and a goodness-of-fit statistic that tells
 * genotypes that fit the reference from genotypes that fit none of it.
 *
 * Markers are given as parallel arrays: g[i] counted-allele dosage 0–2, w[i] the weight of
 * its log-likelihood (1 for an independent marker, less where markers share LD), and
 * p[i * K + k] the counted-allele frequency in population k, already kept off 0 and 1.
 */
import { K as POPULATION_COUNT } from './panel.js';

/** A local constant, not the imported binding: bundlers and test transforms turn imported
 * bindings into property reads, which cost a lot in these loops. */
const K = 5;
if (POPULATION_COUNT !== K) throw new Error('likelihood.ts assumes five super-populations');

export interface Markers {
  n: number;
  g: Uint8Array;
  w: Float64Array;
  p: Float64Array;
}

const LOG2 = Math.log(2);

/** log P(g | f) under Hardy–Weinberg equilibrium. */
export function logGenotypeProbability(g: number, f: number): number {
  return g === 0 ? 2 * Math.log(1 - f) : g === 2 ? 2 * Math.log(f) : LOG2 + Math.log(f) + Math.log(1 - f);
}

function mixedFrequency(m: Markers, i: number, q: Float64Array): number {
  let f = 0;
  for (let k = 0; k < K; k++) f += q[k] * m.p[i * K + k];
  return f;
}

/** Weighted log-likelihood Σ w_i log P(g_i | f_i(q)). */
export function logLikelihood(m: Markers, q: Float64Array): number {
  let ll = 0;
  for (let i = 0; i < m.n; i++) ll += m.w[i] * logGenotypeProbability(m.g[i], mixedFrequency(m, i, q));
  return ll;
}

/** Log-likelihood of each single super-population (q = e_k). */
export function populationLogLikelihoods(m: Markers): Float64Array {
  const ll = new Float64Array(K);
  for (let i = 0; i < m.n; i++) {
    for (let k = 0; k < K; k++) ll[k] += m.w[i] * logGenotypeProbability(m.g[i], m.p[i * K + k]);
  }
  return ll;
}

export interface AdmixtureFit {
  q: Float64Array;
  logLikelihood: number;
  iterations: number;
}

export const FIT_TOLERANCE = 1e-9;
export const FIT_MAX_ITERATIONS = 100;

/**
 * Gradient ∂ℓ/∂q_k and Hessian ∂²ℓ/∂q_k∂q_l (K × K, negative semi-definite) at q. With
 * f = Σ q_k p_k, each marker adds (g/f − (2−g)/(1−f)) p_k to the gradient and
 * −(g/f² + (2−g)/(1−f)²) p_k p_l to the Hessian.
 */
export function derivatives(m: Markers, q: Float64Array, grad: Float64Array, hess: Float64Array): void {
  evaluate(m, q, grad, hess);
}

/**
 * The log-likelihood at q, with its gradient and Hessian filled in: one pass over the markers.
 * The five populations are written out and summed in locals (the same additions in the same
 * order as loops over k and l): this pass is most of ancestry inference's time, which a
 * person waits for after every upload.
 */
function evaluate(m: Markers, q: Float64Array, grad: Float64Array, hess: Float64Array): number {
  const { p, g: dosage, w: weight } = m;
  const q0 = q[0];
  const q1 = q[1];
  const q2 = q[2];
  const q3 = q[3];
  const q4 = q[4];
  let g0 = 0,
    g1 = 0,
    g2 = 0,
    g3 = 0,
    g4 = 0;
  let h00 = 0,
    h01 = 0,
    h02 = 0,
    h03 = 0,
    h04 = 0;
  let h11 = 0,
    h12 = 0,
    h13 = 0,
    h14 = 0;
  let h22 = 0,
    h23 = 0,
    h24 = 0;
  let h33 = 0,
    h34 = 0;
  let h44 = 0;
  let ll = 0;
  for (let i = 0, j = 0; i < m.n; i++, j += K) {
    const p0 = p[j];
    const p1 = p[j + 1];
    const p2 = p[j + 2];
    const p3 = p[j + 3];
    const p4 = p[j + 4];
    const f = q0 * p0 + q1 * p1 + q2 * p2 + q3 * p3 + q4 * p4;
    const g = dosage[i];
    const w = weight[i];
    ll += w * (g === 0 ? 2 * Math.log(1 - f) : g === 2 ? 2 * Math.log(f) : LOG2 + Math.log(f * (1 - f)));
    const slope = w * (g / f - (2 - g) / (1 - f));
    const curvature = w * (g / (f * f) + (2 - g) / ((1 - f) * (1 - f)));
    g0 += slope * p0;
    g1 += slope * p1;
    g2 += slope * p2;
    g3 += slope * p3;
    g4 += slope * p4;
    const c0 = curvature * p0;
    const c1 = curvature * p1;
    const c2 = curvature * p2;
    const c3 = curvature * p3;
    const c4 = curvature * p4;
    h00 -= c0 * p0;
    h01 -= c0 * p1;
    h02 -= c0 * p2;
    h03 -= c0 * p3;
    h04 -= c0 * p4;
    h11 -= c1 * p1;
    h12 -= c1 * p2;
    h13 -= c1 * p3;
    h14 -= c1 * p4;
    h22 -= c2 * p2;
    h23 -= c2 * p3;
    h24 -= c2 * p4;
    h33 -= c3 * p3;
    h34 -= c3 * p4;
    h44 -= c4 * p4;
  }
  grad[0] = g0;
  grad[1] = g1;
  grad[2] = g2;
  grad[3] = g3;
  grad[4] = g4;
  hess.set([h00, h01, h02, h03, h04, h01, h11, h12, h13, h14, h02, h12, h22, h23, h24]);
  hess.set([h03, h13, h23, h33, h34, h04, h14, h24, h34, h44], 15);
  return ll;
}

/**
 * Newton direction for maximising ℓ over the free components with Σ Δ = 0 (the KKT system
 * H Δ − μ 1 = −G, 1ᵀΔ = 0), and the multiplier μ. A small ridge keeps H invertible when
 * there are fewer informative markers than populations.
 */
function newtonDirection(
  grad: Float64Array,
  hess: Float64Array,
  free: number[],
): { delta: Float64Array; mu: number } | null {
  const d = free.length;
  const h = new Float64Array(d * d);
  let trace = 0;
  for (let a = 0; a < d; a++) trace += -hess[free[a] * K + free[a]];
  const ridge = 1e-9 * (trace / d + 1);
  for (let a = 0; a < d; a++)
    for (let b = 0; b < d; b++) h[a * d + b] = -hess[free[a] * K + free[b]] + (a === b ? ridge : 0);
  // With A = −H (positive definite): A Δ = G − μ 1, and 1ᵀΔ = 0 fixes μ.
  const ones = new Float64Array(d).fill(1);
  const g = Float64Array.from(free, (k) => grad[k]);
  const aInvG = solve(h, g, d);
  const aInv1 = solve(h, ones, d);
  if (!aInvG || !aInv1) return null;
  let num = 0;
  let den = 0;
  for (let a = 0; a < d; a++) {
    num += aInvG[a];
    den += aInv1[a];
  }
  const mu = num / den;
  const delta = new Float64Array(K);
  for (let a = 0; a < d; a++) delta[free[a]] = aInvG[a] - mu * aInv1[a];
  return { delta, mu };
}

/**
 * Maximum-likelihood proportions on the simplex: the supervised-admixture estimate that
 * ADMIXTURE's EM computes, found here by an active-set Newton method (the log-likelihood
 * is concave in q, so the maximum is global; Newton needs a handful of passes over the
 * markers where EM needs hundreds, and EM creeps towards proportions of 0). Components at 0
 * stay there while their gradient is below the multiplier (the KKT condition) and are
 * released when it rises above it.
 */
export function fitAdmixture(m: Markers, start?: ArrayLike<number>): AdmixtureFit {
  // A start inside the simplex (every component > 0) lets every population be considered.
  const q = new Float64Array(K).fill(1 / K);
  if (start) for (let k = 0; k < K; k++) q[k] = 0.9 * start[k] + 0.1 / K;
  if (m.n === 0) return { q, logLikelihood: 0, iterations: 0 };
  let grad = new Float64Array(K);
  let hess = new Float64Array(K * K);
  let gradTrial = new Float64Array(K);
  let hessTrial = new Float64Array(K * K);
  const held = new Uint8Array(K); // 1: held at 0
  const releases = new Uint8Array(K);
  const trial = new Float64Array(K);
  let ll = evaluate(m, q, grad, hess);
  let iterations = 0;
  while (iterations++ < FIT_MAX_ITERATIONS) {
    const free: number[] = [];
    for (let k = 0; k < K; k++) if (!held[k]) free.push(k);
    const step = newtonDirection(grad, hess, free);
    if (!step) break;
    const { delta } = step;
    // Longest step that keeps every proportion ≥ 0; the component that blocks it is held at 0.
    let tMax = 1;
    let blocking = -1;
    for (const k of free) {
      if (delta[k] < 0 && -q[k] / delta[k] < tMax) {
        tMax = -q[k] / delta[k];
        blocking = k;
      }
    }
    if (blocking >= 0 && tMax <= 1e-12) {
      held[blocking] = 1; // already at 0 and pushed further down
      q[blocking] = 0;
      ll = evaluate(m, q, grad, hess);
      continue;
    }
    // Backtracking (Armijo) line search; each trial point is evaluated with its derivatives,
    // which the next iteration reuses when the point is accepted.
    let t = tMax;
    let llTrial = -Infinity;
    let slope = 0;
    for (let k = 0; k < K; k++) slope += grad[k] * delta[k];
    for (let halvings = 0; halvings < 40; halvings++) {
      let s = 0;
      for (let k = 0; k < K; k++) s += trial[k] = Math.max(0, q[k] + t * delta[k]);
      if (t === tMax && blocking >= 0) {
        s -= trial[blocking];
        trial[blocking] = 0;
      }
      for (let k = 0; k < K; k++) trial[k] /= s;
      llTrial = evaluate(m, trial, gradTrial, hessTrial);
      if (llTrial >= ll + 1e-4 * t * slope) break;
      t /= 2;
    }
    const moved = llTrial > ll;
    let change = 0;
    if (moved) {
      for (let k = 0; k < K; k++) change = Math.max(change, Math.abs(trial[k] - q[k]));
      q.set(trial);
      [grad, gradTrial] = [gradTrial, grad];
      [hess, hessTrial] = [hessTrial, hess];
      if (t === tMax && blocking >= 0) held[blocking] = 1;
    }
    const gain = moved ? llTrial - ll : 0;
    if (moved) ll = llTrial;
    if (moved && change > FIT_TOLERANCE && gain > 1e-12) continue;
    // Converged on this face: optimal if no held component would grow (KKT: ∂ℓ/∂q_k ≤ μ,
    // μ the common gradient of the free components).
    let mu = 0;
    let nFree = 0;
    for (let k = 0; k < K; k++) {
      if (held[k]) continue;
      mu += grad[k];
      nFree++;
    }
    mu /= nFree || 1;
    let release = -1;
    for (let k = 0; k < K; k++) {
      if (
        held[k] &&
        releases[k] < 3 &&
        grad[k] > mu + 1e-7 * (Math.abs(mu) + 1) &&
        (release < 0 || grad[k] > grad[release])
      )
        release = k;
    }
    if (release < 0) break;
    held[release] = 0;
    releases[release]++;
  }
  return { q, logLikelihood: ll, iterations };
}

/** Reference optimiser for tests: plain EM (ADMIXTURE's update), many iterations. */
export function fitAdmixtureEm(m: Markers, iterations: number): Float64Array {
  let q = new Float64Array(K).fill(1 / K);
  for (let it = 0; it < iterations; it++) {
    const next = new Float64Array(K);
    let total = 0;
    for (let i = 0; i < m.n; i++) {
      const f = mixedFrequency(m, i, q);
      const a = (m.w[i] * m.g[i]) / f;
      const b = (m.w[i] * (2 - m.g[i])) / (1 - f);
      for (let k = 0; k < K; k++) next[k] += q[k] * (a * m.p[i * K + k] + b * (1 - m.p[i * K + k]));
      total += 2 * m.w[i];
    }
    let sum = 0;
    for (let k = 0; k < K; k++) sum += next[k] /= total;
    for (let k = 0; k < K; k++) next[k] /= sum; // rounding drifts near a vertex
    q = next;
  }
  return q;
}

/** Solve A x = b for a small dense system (Gaussian elimination, partial pivoting); null if singular. */
function solve(a: Float64Array, b: Float64Array, n: number): Float64Array | null {
  const m = Float64Array.from(a);
  const x = Float64Array.from(b);
  for (let c = 0; c < n; c++) {
    let piv = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r * n + c]) > Math.abs(m[piv * n + c])) piv = r;
    if (Math.abs(m[piv * n + c]) < 1e-12) return null;
    if (piv !== c) {
      for (let k = 0; k < n; k++) [m[c * n + k], m[piv * n + k]] = [m[piv * n + k], m[c * n + k]];
      [x[c], x[piv]] = [x[piv], x[c]];
    }
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r * n + c] / m[c * n + c];
      if (f === 0) continue;
      for (let k = c; k < n; k++) m[r * n + k] -= f * m[c * n + k];
      x[r] -= f * x[c];
    }
  }
  for (let c = 0; c < n; c++) x[c] /= m[c * n + c];
  return x;
}

/**
 * Covariance of the proportions (K × K, row-major) from the observed information on the
 * simplex (q_K = 1 − Σ others, then the delta method back to all five); null where the
 * information does not determine the proportions (e.g. too few markers for five populations).
 */
export function proportionCovariance(m: Markers, q: Float64Array): Float64Array | null {
  // Observed information −∂²ℓ/∂q_k∂q_l, as a full K × K matrix.
  const grad = new Float64Array(K);
  const info = new Float64Array(K * K);
  derivatives(m, q, grad, info);
  for (let j = 0; j < K * K; j++) info[j] = -info[j];
  // Free parameters q_0 … q_{K−2}; direction j moves q_j up and q_{K−1} down.
  const d = K - 1;
  const reduced = new Float64Array(d * d);
  const last = K - 1;
  for (let j = 0; j < d; j++) {
    for (let l = 0; l < d; l++)
      reduced[j * d + l] = info[j * K + l] - info[j * K + last] - info[last * K + l] + info[last * K + last];
  }
  const cov = new Float64Array(d * d);
  for (let j = 0; j < d; j++) {
    const e = new Float64Array(d);
    e[j] = 1;
    const col = solve(reduced, e, d);
    if (!col) return null;
    for (let l = 0; l < d; l++) cov[l * d + j] = col[l];
  }
  // q_last = 1 − Σ free: Cov(q_j, q_last) = −Σ_l cov[j][l], Var(q_last) = Σ_jl cov[j][l].
  const full = new Float64Array(K * K);
  let varLast = 0;
  for (let j = 0; j < d; j++) {
    let row = 0;
    for (let l = 0; l < d; l++) {
      full[j * K + l] = cov[j * d + l];
      row += cov[j * d + l];
    }
    full[j * K + last] = -row;
    full[last * K + j] = -row;
    varLast += row;
  }
  full[last * K + last] = varLast;
  return full;
}

/** Standard errors of the proportions (proportionCovariance); Infinity where they are not determined. */
export function proportionStandardErrors(m: Markers, q: Float64Array): Float64Array {
  const cov = proportionCovariance(m, q);
  if (!cov) return new Float64Array(K).fill(Infinity);
  return Float64Array.from({ length: K }, (_, k) => Math.sqrt(Math.max(0, cov[k * K + k])));
}

/**
 * How uncertain a reference built from the proportions is: the root mean square, over the
 * markers (weighted), of the standard error of each marker's mixed frequency Σ q_k p_ik
 * (pᵢᵀ Cov(q) pᵢ by the delta method). Proportions can be uncertain along directions that
 * barely change any frequency (1000 Genomes AMR is itself a mix of the others); this measures
 * what a reference built from them would get wrong. Infinity when the covariance is not determined.
 */
export function mixedFrequencyError(m: Markers, cov: Float64Array | null): number {
  if (!cov) return Infinity;
  let sum = 0;
  let weight = 0;
  for (let i = 0; i < m.n; i++) {
    let v = 0;
    for (let k = 0; k < K; k++) {
      const pk = m.p[i * K + k];
      for (let l = 0; l < K; l++) v += pk * m.p[i * K + l] * cov[k * K + l];
    }
    sum += m.w[i] * Math.max(0, v);
    weight += m.w[i];
  }
  return weight > 0 ? Math.sqrt(sum / weight) : Infinity;
}

export interface FitCheck {
  /** Σ w (E[log P] − log P(observed)) / Σ w: log-likelihood missing per (weighted) marker, in nats. */
  deficit: number;
  /** The same deficit as a z score (negative: the genotypes fit worse than the model expects). */
  z: number;
}

/**
 * How well the genotypes fit the fitted mixture: the observed log-likelihood against its
 * expectation and variance if the genotypes were drawn from that mixture. Genotypes of a
 * real person fit with a deficit near 0; genotypes that carry no population signal (random
 * calls, another person's data mixed in, strand or allele errors) fall far short.
 */
export function fitCheck(m: Markers, q: Float64Array): FitCheck {
  let gap = 0;
  let variance = 0;
  let weight = 0;
  for (let i = 0; i < m.n; i++) {
    const f = mixedFrequency(m, i, q);
    const lf = Math.log(f);
    const lg = Math.log(1 - f);
    // log P and P of the three genotypes under Hardy–Weinberg at f.
    const l0 = 2 * lg;
    const l1 = LOG2 + lf + lg;
    const l2 = 2 * lf;
    const p0 = (1 - f) * (1 - f);
    const p1 = 2 * f * (1 - f);
    const p2 = f * f;
    const e = p0 * l0 + p1 * l1 + p2 * l2;
    const e2 = p0 * l0 * l0 + p1 * l1 * l1 + p2 * l2 * l2;
    const g = m.g[i];
    const w = m.w[i];
    gap += w * (e - (g === 0 ? l0 : g === 1 ? l1 : l2));
    variance += w * w * Math.max(0, e2 - e * e);
    weight += w;
  }
  return { deficit: weight > 0 ? gap / weight : 0, z: variance > 0 ? -gap / Math.sqrt(variance) : 0 };
}
