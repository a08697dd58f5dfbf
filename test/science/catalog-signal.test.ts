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
import { readCatalogFile } from '../../src/service/science/catalog.js';
import type { CatalogTrait } from '../../src/service/science/format.js';
import { contextOf, genotypeOf } from './helpers.js';

const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');
const engine = createScienceEngine({ resourcesDir });
const file = readCatalogFile(resourcesDir);
const report = JSON.parse(readFileSync(join(resourcesDir, 'catalog', 'build-report.json'), 'utf8'));
const exceptions: Array<{ code: string; rule: string; why: string }> = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'scripts', 'catalog', 'curation-exceptions.json'), 'utf8'),
);
const trait = (code: string) => file.traits.find((t) => t.code === code)!;

/** A seeded uniform generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
    const rand = random(29);
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
    const rand = random(36);
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
        if (e.variance_share_lost > 0.05 && !exceptions.some((x) => x.code === t.code && x.rule === rule))
          unexplained.push(`${t.code} ${rule} ${e.variance_share_lost}`);
    }
    expect(unexplained).toEqual([]);
    for (const x of exceptions) expect(x.why.length, x.code).toBeGreaterThan(40);
  });

  it('converts weights that look like odds ratios instead of dropping them', () => {
    expect(report.rules.counts.marker_rows_odds_ratio_converted_to_log).toBeGreaterThan(100);
    expect(report.dropped_marker_rows_in_kept_traits_by_reason.odds_ratio_like_effect_size).toBeUndefined();
    expect(report.rules.effects_by_rule.odds_ratio_converted_to_log.rows).toBe(
      report.rules.counts.marker_rows_odds_ratio_converted_to_log,
    );
  });
});
