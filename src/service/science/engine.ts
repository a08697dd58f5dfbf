/**
 * The science engine: scores a genotype on the compiled catalog, places the score in the
 * reference population and turns it into an assessment (docs/science.md).
 */
import type { Genotype } from '../genotype/types.js';
import { callToString, ALLELE_LETTERS } from '../genotype/encoding.js';
import { inferAncestryWith, type AncestryModel } from './ancestry.js';
import { callsAtSlots, compileCatalog, N_POPS, type CompiledCatalog, type CompiledTrait } from './catalog.js';
import { referenceFor } from './distribution.js';
import { POPULATION_ORDER, type CatalogTrait } from './format.js';
import { LEVEL_LABELS, levelForPercentile } from './levels.js';
import { DOSAGE_MISSING, FLIPPED, matchDosage } from './match.js';
import type { AncestryEstimate, Assessment, AssessContext, AssessedMarker, Population, ScienceEngine, TraitInfo, TraitOutcome } from './types.js';

/**
 * A trait is computable when at least this share of its markers is genotyped with
 * matching alleles (and at least one is). Missing markers enter the score at their
 * expected dosage 2p, so they do not move the percentile; the threshold keeps results
 * from resting on a small part of the score.
 */
export const COVERAGE_THRESHOLD = 0.5;
export const DEFAULT_POPULATION: Population = 'EUR';

export interface EngineInternals {
  catalog: CompiledCatalog;
  /** Lazily loads the ancestry model (null when it cannot be loaded). */
  ancestryModel: () => AncestryModel | null;
}

export interface ScienceEngineExt extends ScienceEngine {
  /** An engine that also knows the given custom traits (same definition format as the catalog). */
  withCustomTraits(defs: readonly CatalogTrait[]): ScienceEngineExt;
  /** Assess one custom trait definition without adding it to an engine. */
  assessCustom(def: CatalogTrait, genotype: Genotype, context: AssessContext): Assessment | null;
  /** Match statistics without computing the assessment. */
  coverage(code: string, genotype: Genotype): { markers: number; observed: number; excluded: number; coverage: number } | null;
}

/** Genotype text of every call byte, built once ("AG", "A", "--"). */
const CALL_TEXT: string[] = Array.from({ length: 256 }, (_, c) => callToString(c));

/** "rs123" for catalog marker i, built once per marker and kept. */
const rsidTexts = new WeakMap<CompiledCatalog, string[]>();
function rsidText(cat: CompiledCatalog, i: number): string {
  let texts = rsidTexts.get(cat);
  if (!texts) rsidTexts.set(cat, (texts = new Array<string>(cat.rsid.length)));
  return (texts[i] ??= `rs${cat.rsid[i]}`);
}

export function ethnicityPopulation(ethnicity: number): Population | null {
  return ethnicity >= 1 && ethnicity <= 5 ? POPULATION_ORDER[ethnicity - 1] : null;
}

export function makeEngine(catalogs: CompiledCatalog[], ancestryModel: () => AncestryModel | null): ScienceEngineExt {
  const byCode = new Map<string, { cat: CompiledCatalog; trait: CompiledTrait }>();
  const infos: TraitInfo[] = [];
  for (const cat of catalogs) {
    for (const trait of cat.traits) {
      if (byCode.has(trait.info.code)) throw new Error(`Trait code ${trait.info.code} is defined twice`);
      byCode.set(trait.info.code, { cat, trait });
      infos.push(trait.info);
    }
  }
  // Per-genotype caches: calls at each catalog's distinct rsIDs, and the inferred ancestry.
  const slotCache = new WeakMap<Genotype, Map<CompiledCatalog, Uint8Array>>();
  const ancestryCache = new WeakMap<Genotype, AncestryEstimate | null>();
  let scratchC = new Float64Array(3 * 1024);
  let scratchP = new Float64Array(1024);

  function slotsFor(cat: CompiledCatalog, g: Genotype): Uint8Array {
    let m = slotCache.get(g);
    if (!m) slotCache.set(g, (m = new Map()));
    let s = m.get(cat);
    if (!s) m.set(cat, (s = callsAtSlots(cat.uniqueRsids, g.rsids, g.calls)));
    return s;
  }

  function inferAncestry(g: Genotype): AncestryEstimate | null {
    if (ancestryCache.has(g)) return ancestryCache.get(g)!;
    const model = ancestryModel();
    const est = model ? inferAncestryWith(model, g) : null;
    ancestryCache.set(g, est);
    return est;
  }

  function choosePopulation(g: Genotype, ctx: AssessContext): { population: Population; source: Assessment['population_source'] } {
    const fromEthnicity = ethnicityPopulation(ctx.ethnicity);
    if (fromEthnicity) return { population: fromEthnicity, source: 'ethnicity' };
    if (ctx.inferred) return { population: ctx.inferred, source: 'inferred' };
    const est = inferAncestry(g);
    if (est) return { population: est.population, source: 'inferred' };
    return { population: DEFAULT_POPULATION, source: 'default' };
  }

  function coverageOf(cat: CompiledCatalog, t: CompiledTrait, g: Genotype) {
    const slots = slotsFor(cat, g);
    let observed = 0;
    let excluded = 0;
    for (let i = t.start; i < t.start + t.count; i++) {
      const d = matchDosage(slots[cat.markerSlot[i]], cat.effect[i], cat.other[i]);
      if (d >= 0) observed++;
      else if (d !== DOSAGE_MISSING) excluded++;
    }
    return { markers: t.count, observed, excluded, coverage: t.count ? observed / t.count : 0 };
  }

  const computable = (c: { observed: number; coverage: number }) => c.observed >= 1 && c.coverage >= COVERAGE_THRESHOLD;

  function assessTrait(cat: CompiledCatalog, t: CompiledTrait, g: Genotype, ctx: AssessContext): Assessment | null {
    const slots = slotsFor(cat, g);
    const { population, source } = choosePopulation(g, ctx);
    const pop = POPULATION_ORDER.indexOf(population);
    if (scratchP.length < t.count) {
      scratchC = new Float64Array(3 * t.count);
      scratchP = new Float64Array(t.count);
    }
    let score = 0;
    let constant = 0;
    let n = 0;
    let imputed = 0;
    let excluded = 0;
    let flipped = 0;
    const markers: AssessedMarker[] = new Array(t.count);
    const snps: string[] = [];
    for (let k = 0; k < t.count; k++) {
      const i = t.start + k;
      const call = slots[cat.markerSlot[i]];
      const p = cat.freq[i * N_POPS + pop];
      const c0 = cat.contrib[3 * i];
      const c1 = cat.contrib[3 * i + 1];
      const c2 = cat.contrib[3 * i + 2];
      const d = matchDosage(call, cat.effect[i], cat.other[i]);
      const rsid = rsidText(cat, i);
      let dosage: number;
      let use: AssessedMarker['use'];
      if (d >= 0) {
        if (d >= FLIPPED) flipped++;
        dosage = d & 3;
        score += dosage === 0 ? c0 : dosage === 1 ? c1 : c2;
        scratchC[3 * n] = c0;
        scratchC[3 * n + 1] = c1;
        scratchC[3 * n + 2] = c2;
        scratchP[n++] = p;
        use = 'observed';
        snps.push(rsid);
      } else {
        // Expected contribution under Hardy–Weinberg (2pw for an additive marker).
        const q = 1 - p;
        const expected = c0 === 0 && c2 === 2 * c1 ? 2 * p * c1 : q * q * c0 + 2 * p * q * c1 + p * p * c2;
        dosage = 2 * p;
        score += expected;
        constant += expected;
        if (d === DOSAGE_MISSING) {
          imputed++;
          use = 'imputed';
        } else {
          excluded++;
          use = 'excluded';
        }
      }
      markers[k] = {
        rsid,
        genotype: CALL_TEXT[call],
        effect_allele: ALLELE_LETTERS[cat.effect[i]],
        other_allele: ALLELE_LETTERS[cat.other[i]],
        weight: cat.weight[i],
        dosage,
        use,
      };
    }
    const coverage = t.count ? n / t.count : 0;
    if (!computable({ observed: n, coverage })) return null;
    const ref = referenceFor(scratchC, scratchP, n, constant);
    const percentile = ref.percentile(score);
    const level = levelForPercentile(percentile);
    return {
      assessment_level: level,
      level_label: LEVEL_LABELS[level - 1],
      percentile,
      recommendations: t.recommendations[level - 1],
      snps,
      coverage,
      population,
      population_source: source,
      score,
      distribution: ref.distribution,
      markers,
      quality: t.info.quality,
      revision: t.info.revision,
      match: { markers: t.count, observed: n, imputed, excluded, strand_flipped: flipped },
    };
  }

  const engine: ScienceEngineExt = {
    traits: infos,
    trait: (code) => byCode.get(code)?.trait.info,
    isComputable(code, genotype) {
      const hit = byCode.get(code);
      return hit ? computable(coverageOf(hit.cat, hit.trait, genotype)) : false;
    },
    coverage(code, genotype) {
      const hit = byCode.get(code);
      return hit ? coverageOf(hit.cat, hit.trait, genotype) : null;
    },
    assess(code, genotype, context) {
      const hit = byCode.get(code);
      return hit ? assessTrait(hit.cat, hit.trait, genotype, context) : null;
    },
    inferAncestry,
    assessMany(genotype, context, codes) {
      const out = new Map<string, TraitOutcome>();
      for (const code of codes ?? byCode.keys()) {
        const hit = byCode.get(code);
        if (!hit) continue;
        const assessment = assessTrait(hit.cat, hit.trait, genotype, context);
        out.set(
          code,
          assessment
            ? { status: 'computed', assessment }
            : { status: 'unavailable', reason: { code: 'low_coverage', detail: 'Too few of this trait\'s markers are in the genotype.' } },
        );
      }
      return out;
    },
    withCustomTraits(defs) {
      return makeEngine([...catalogs, compileCatalog(defs)], ancestryModel);
    },
    assessCustom(def, genotype, context) {
      const cat = compileCatalog([def]);
      return assessTrait(cat, cat.traits[0], genotype, context);
    },
  };
  return engine;
}

