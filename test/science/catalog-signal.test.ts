/**
 * The catalog's curation keeps each score's signal (docs/science.md, section 1): the strongest
 * variants survive the rules (APOE ε4 in Alzheimer's disease, the top breast-cancer loci), no
 * featured trait loses more than 5 % of its variance to a rule without a documented exception,
 * and genomes built for the purpose land where those variants put them, through the engine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createScienceEngine } from '../../src/service/science/index.js';
import type { CatalogTrait } from '../../src/service/science/format.js';
import { rng } from '../support/prng.js';
import { contextOf, genotypeOf } from './helpers.js';
import { shippedCatalog } from '../support/shipped-catalog.js';

const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');
const engine = createScienceEngine({ resourcesDir });
const file = shippedCatalog();
const report = JSON.parse(readFileSync(join(resourcesDir, 'catalog', 'build-report.json'), 'utf8'));
const exceptions: Array<{ rule: string; traits: string[]; why: string }> = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'scripts', 'catalog', 'curation-exceptions.json'), 'utf8'),
);
const trait = (code: string) => file.traits.find((t) => t.code === code)!;

/** A person's genotype at every marker of `t`, drawn from the EUR frequencies, with `fixed` calls on top. */
function personOf(t: CatalogTrait, rand: () => number, fixed: Record<string, string>): Array<[string, string]> {
  const m = t.markers;
  return m.rsid.map((rs, i) => {
    const id = `rs${rs}`;
    if (fixed[id]) return [id, fixed[id]];
    const f = m.freq.EUR[i];
    const a = rand() < f ? m.effect[i] : m.other[i];
    const b = rand() < f ? m.effect[i] : m.other[i];
    return [id, a + b];
  });
}

function variance(t: CatalogTrait, i: number): number {
  const f = t.markers.freq.EUR[i];
  return 2 * f * (1 - f) * t.markers.weight[i] ** 2;
}

describe("the Alzheimer's disease score keeps APOE ε4", () => {
  const alz = trait('alzheimers_disease');

  it('holds rs429358 with its published log-odds weight, carrying the largest share of the variance', () => {
    const i = alz.markers.rsid.indexOf(429358);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(alz.markers.effect[i]).toBe('C');
    expect(alz.markers.weight[i]).toBeCloseTo(1.03, 6);
    const total = alz.markers.rsid.reduce((a, _r, k) => a + variance(alz, k), 0);
    expect(variance(alz, i) / total).toBeGreaterThan(0.3);
  });

  it('puts ε4/ε4 Europeans at a median of the 95th percentile or higher, ε3/ε3 below the median', () => {
    const rand = rng(29);
    const pct = (fixed: Record<string, string>) => {
      const out: number[] = [];
      for (let k = 0; k < 100; k++) {
        const a = engine.assess('alzheimers_disease', genotypeOf(personOf(alz, rand, fixed)), contextOf(1))!;
        expect(a.population).toBe('EUR');
        out.push(a.percentile!);
      }
      return out.sort((x, y) => x - y)[50];
    };
    // ε4: C at rs429358 and C at rs7412; ε3: T at rs429358, C at rs7412.
    expect(pct({ rs429358: 'CC', rs7412: 'CC' })).toBeGreaterThanOrEqual(95);
    expect(pct({ rs429358: 'TT', rs7412: 'CC' })).toBeLessThan(50);
  });
});

describe('the breast cancer score keeps its top loci', () => {
  const bc = trait('breast_cancer');
  const loci: Array<[string, number, number]> = [
    // gene, rsID, the study's odds ratio per allele (Michailidou et al. 2017, PMID 29059683)
    ['TOX3', 4784227, 1.23],
    ['MAP3K1', 62355902, 1.18],
    ['CCND1', 75915166, 1.28],
    ['ESR1', 9397437, 1.17],
    ['ESR1', 3757322, 1.08],
    ['FGFR2', 45631563, 1.2345679],
  ];

  it.each(loci)('%s (rs%i) with its odds ratio converted to ln OR', (_gene, rs, or) => {
    const i = bc.markers.rsid.indexOf(rs);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(bc.markers.weight[i]).toBeCloseTo(Math.log(or), 9);
  });

  it('puts a European carrying two risk alleles at each of those loci above the 90th percentile', () => {
    const rand = rng(36);
    const fixed = Object.fromEntries(
      loci.map(([, rs]) => {
        const i = bc.markers.rsid.indexOf(rs);
        return [`rs${rs}`, bc.markers.effect[i].repeat(2)];
      }),
    );
    const out: number[] = [];
    for (let k = 0; k < 60; k++) {
      const a = engine.assess('breast_cancer', genotypeOf(personOf(bc, rand, fixed)), contextOf(1, { gender: 2 }))!;
      out.push(a.percentile!);
    }
    expect(out.sort((x, y) => x - y)[30]).toBeGreaterThan(90);
  });
});

describe('no rule removes a featured score’s signal unnoticed', () => {
  it('reports every rule’s effect by trait, and a featured trait loses at most 5 % of its variance to a rule unless an exception says why', () => {
    expect(report.rules.variance_loss_limit_featured).toBe(0.05);
    const unexplained: string[] = [];
    for (const t of report.rules.effects_by_trait as Array<{
      code: string;
      featured: boolean;
      rules: Record<string, { variance_share_lost: number }>;
    }>) {
      if (!t.featured) continue;
      for (const [rule, e] of Object.entries(t.rules))
        if (e.variance_share_lost > 0.05 && !exceptions.some((x) => x.rule === rule && x.traits.includes(t.code)))
          unexplained.push(`${t.code} ${rule} ${e.variance_share_lost}`);
    }
    expect(unexplained).toEqual([]);
    for (const x of exceptions) expect(x.why.length, x.rule).toBeGreaterThan(40);
  });

  it('converts weights that look like odds ratios instead of dropping them', () => {
    expect(report.rules.counts.marker_rows_odds_ratio_converted_to_log).toBeGreaterThan(100);
    expect(report.dropped_marker_rows_in_kept_traits_by_reason.odds_ratio_like_effect_size).toBeUndefined();
    expect(report.rules.effects_by_rule.odds_ratio_converted_to_log.rows).toBe(
      report.rules.counts.marker_rows_odds_ratio_converted_to_log,
    );
  });
});

describe('headlines that inform', () => {
  const groups = new Map<string, CatalogTrait[]>();
  for (const t of file.traits) groups.set(t.group.code, [...(groups.get(t.group.code) ?? []), t]);
  const computed = (t: CatalogTrait) =>
    t.evidence.variance_explained?.description.includes('computed') ? t.evidence.variance_explained.value : null;

  it('heads at least 90 % of multi-study groups with their best-informed member, the share the build report states', () => {
    let multi = 0;
    let best = 0;
    const excepted = new Set(
      (report.rules.headlines.exceptions as Array<{ phenotype: string; headline: string }>).map((x) => x.headline),
    );
    for (const members of groups.values()) {
      if (members.length < 2) continue;
      multi++;
      const head = members.find((t) => t.group.headline)!;
      const top = Math.max(...members.map((t) => t.headline_power ?? -1));
      if ((head.headline_power ?? -1) >= top) best++;
      else
        expect(excepted, `${head.code} heads its group without the largest power or an exception`).toContain(head.code);
    }
    expect(multi).toBeGreaterThan(200);
    expect(best / multi).toBeGreaterThanOrEqual(0.9);
    expect(report.rules.headlines).toMatchObject({
      multi_study_groups: multi,
      headed_by_best_informed: best,
      best_informed_share: Number((best / multi).toFixed(4)),
    });
    expect(report.rules.headlines.exceptions.length).toBe(multi - best);
  });

  it('gives every headline its power figure: at most what its score explains uncorrected, and below it for small studies near the threshold', () => {
    let withFigure = 0;
    // What is wrong with any group's figures, in words: one expect for the 1,500+ traits.
    const wrong: string[] = [];
    for (const members of groups.values()) {
      const head = members.find((t) => t.group.headline)!;
      if (head.headline_power === undefined) wrong.push(`${head.code}: no power figure`);
      if (members.some((t) => t.headline_power !== null)) {
        if (head.headline_power === null) wrong.push(`${head.code}: null, while a member has a figure`);
        withFigure++;
      }
      for (const t of members) {
        if (t.headline_power === null || t.headline_power === undefined) continue;
        if (!(t.headline_power >= 0)) wrong.push(`${t.code}: power ${t.headline_power}`);
        const own = computed(t);
        if (own !== null && !(t.headline_power <= own * 1.005))
          wrong.push(`${t.code}: power ${t.headline_power} above the ${own} its score explains`);
      }
    }
    expect(wrong).toEqual([]);
    expect(withFigure / groups.size).toBeGreaterThan(0.8);
    // An Alzheimer's study of 5,609 people listing 90 markers, most near its selection threshold, keeps under a third of its figure.
    const small = trait('gwas_late_onset_alzheimers_disease_27770636');
    expect(small.headline_power!).toBeLessThan(computed(small)! / 3);
  });

  it("heads the Alzheimer's group with a score holding APOE ε4: ε4/ε4 Europeans at a median of the 95th percentile or higher", () => {
    const head = trait(trait('alzheimers_disease').group.code);
    expect(head.markers.rsid).toContain(429358);
    const rand = rng(4);
    const out: number[] = [];
    for (let k = 0; k < 100; k++)
      out.push(
        engine.assess(head.code, genotypeOf(personOf(head, rand, { rs429358: 'CC', rs7412: 'CC' })), contextOf(1))!
          .percentile!,
      );
    expect(out.sort((x, y) => x - y)[50]).toBeGreaterThanOrEqual(95);
  });

  it("merges Alzheimer's disease studies into one group", () => {
    const alz = file.traits.filter((t) =>
      /^(alzheimer's disease|alzheimer's disease \(late onset\)|late-onset alzheimer's disease|alzheimer disease and age of onset)$/i.test(
        t.source.source_trait.replace(/\s*\[[^\]]*\]/g, '').trim(),
      ),
    );
    expect(alz.length).toBeGreaterThanOrEqual(6);
    expect(new Set(alz.map((t) => t.group.code)).size).toBe(1);
  });

  it("keeps a trait featured only when its group's headline reaches the information floor", () => {
    const info = report.information;
    expect(info.floor).toEqual({ quantitative_r2: 0.01, disease_or98: 1.3 });
    for (const f of info.featured as Array<{
      code: string;
      featured: boolean;
      scale: string;
      headline: string;
      headline_r2: number | null;
      headline_or98: number | null;
    }>) {
      expect(trait(f.code).featured).toBe(f.featured);
      const head = trait(f.headline);
      const reaches =
        head.evidence.variance_explained !== null &&
        (f.headline_or98 !== null ? f.headline_or98 >= 1.3 : (f.headline_r2 ?? 0) >= 0.01);
      expect(f.featured, f.code).toBe(reaches);
    }
    // The Height score of one small study explains well under 1 % of height: no longer featured.
    expect(trait('height').featured).toBe(false);
    expect(trait('breast_cancer').featured).toBe(true);
  });

  it('reaches an odds ratio of at least 1.3 between the 98th percentile and the median for featured diseases, through the engine', () => {
    // Score values at the 50th and 98th percentiles of simulated Europeans: the difference of two log-odds scores.
    for (const code of ['breast_cancer', 'alzheimers_disease']) {
      const t = trait(trait(code).group.code);
      const rand = rng(98);
      const scores: number[] = [];
      for (let k = 0; k < 400; k++) {
        const a = engine.assess(t.code, genotypeOf(personOf(t, rand, {})), contextOf(1, { gender: 2 }))!;
        scores.push(a.score);
      }
      scores.sort((x, y) => x - y);
      expect(Math.exp(scores[392] - scores[200]), code).toBeGreaterThanOrEqual(1.3);
    }
  });
});

describe('what a score explains', () => {
  const overview = new Map(
    readFileSync(
      join(
        import.meta.dirname,
        '..',
        '..',
        '..',
        'shared',
        'data',
        'impute-me',
        'AllDiseases_2021-01-28_trait_overview.tsv',
      ),
      'utf8',
    )
      .split('\n')
      .slice(1)
      .map((l) => l.split('\t'))
      .map((c) => [c[0], c[16]] as const),
  );

  it('is never above the trait’s heritability, cites a PMID and says whether it was published or computed', () => {
    let shown = 0;
    // What is wrong with any trait's figure, in words: one expect for the 1,500+ traits.
    const wrong: string[] = [];
    for (const t of file.traits) {
      const v = t.evidence.variance_explained;
      if (!v) continue;
      shown++;
      if (!/^PMID \d{6,9}$/.test(v.source)) wrong.push(`${t.code}: source ${v.source}`);
      if (!/as published|computed from/.test(v.description)) wrong.push(`${t.code}: description ${v.description}`);
      if (!(v.value > 0 && v.value < 1)) wrong.push(`${t.code}: value ${v.value}`);
      const h2 = Number(overview.get(t.source.study_id) ?? '');
      if (h2 > 0 && !(v.value <= h2)) wrong.push(`${t.code}: ${v.value} above the heritability ${h2}`);
    }
    expect(wrong).toEqual([]);
    expect(shown / file.traits.length).toBeGreaterThan(0.8);
    expect(trait('left_handedness').evidence.variance_explained!.value).toBeLessThanOrEqual(0.25);
  });

  it('for a quantitative trait, equals Σ 2pq·β² of the score in Europeans', () => {
    const t = trait('body_mass_index');
    const v = t.markers.rsid.reduce((a, _r, i) => a + variance(t, i), 0);
    expect(t.evidence.variance_explained!.description).toMatch(/computed from/);
    expect(t.evidence.variance_explained!.value).toBeCloseTo(v, 3);
  });
});
