/** Test helpers: genotypes built directly from (rsid, genotype letters) pairs, and small trait definitions. */
import { alleleFromLetter, makeCall } from '../../src/service/genotype/encoding.js';
import type { Genotype } from '../../src/service/genotype/types.js';
import { compileCatalog } from '../../src/service/science/catalog.js';
import { makeEngine } from '../../src/service/science/engine.js';
import type { CatalogTrait } from '../../src/service/science/format.js';
import type { AncestryInference, AssessContext, Population } from '../../src/service/science/types.js';
import { traitRevision } from '../../src/service/science/revision.js';

/** A genotype from entries like ['rs123', 'AG'], ['rs5', 'A'] (haploid) or ['rs9', '--'] (no-call). */
export function genotypeOf(entries: Array<[string, string]>): Genotype {
  const sorted = [...entries]
    .map(([id, gt]) => [Number(id.replace(/^rs/, '')), gt] as const)
    .sort((a, b) => a[0] - b[0]);
  const rsids = new Uint32Array(sorted.length);
  const calls = new Uint8Array(sorted.length);
  sorted.forEach(([rs, gt], i) => {
    rsids[i] = rs;
    calls[i] = gt === '--' ? 0 : makeCall(alleleFromLetter(gt[0]), gt.length > 1 ? alleleFromLetter(gt[1]) : 0);
  });
  return { rsids, calls, chroms: new Uint8Array(sorted.length), positions: new Uint32Array(sorted.length) };
}

export interface TestMarker {
  rsid: number;
  effect: string;
  other: string;
  weight: number;
  /** Effect-allele frequency: one number for every population, or [EUR, AMR, AFR, EAS, SAS]. */
  freq: number | [number, number, number, number, number];
}

export function traitOf(code: string, markers: TestMarker[]): CatalogTrait {
  const sorted = [...markers].sort((a, b) => a.rsid - b.rsid);
  const col = (i: number) => sorted.map((m) => (typeof m.freq === 'number' ? m.freq : m.freq[i]));
  const t: CatalogTrait = {
    code,
    name: code,
    overview: 'test trait',
    connotation: 'neutral',
    category: 'Test',
    featured: false,
    default_pricing: 'basic',
    quality: {
      markers: sorted.length,
      sample_size: null,
      publication_year: null,
      evidence: 'limited',
      study_id: null,
      pmid: null,
      first_author: null,
      citation: 'test',
    },
    study_label: 'test',
    group: { code, name: code, size: 1, headline: true },
    sex: null,
    sex_reason: null,
    evidence: {
      label: 'limited',
      reasons: [],
      genome_wide_markers: null,
      top_marker_share: 0,
      curated: false,
      flags: [],
      variance_explained: null,
    },
    revision: '',
    weight_scale: 'beta',
    text_kind: 'trait',
    phrase: code,
    recommendations: ['r1', 'r2', 'r3', 'r4', 'r5'],
    source: {
      dataset: 'PGS Catalog',
      study_id: 'test',
      pmid: null,
      source_trait: code,
      source_rows: sorted.length,
      dropped: {},
    },
    markers: {
      rsid: sorted.map((m) => m.rsid),
      effect: sorted.map((m) => m.effect).join(''),
      other: sorted.map((m) => m.other).join(''),
      weight: sorted.map((m) => m.weight),
      freq: { EUR: col(0), AMR: col(1), AFR: col(2), EAS: col(3), SAS: col(4) },
    },
  };
  t.revision = traitRevision(t);
  return t;
}

/** A scoring context: the profile's ethnicity and, optionally, what is known about the person. */
export function contextOf(ethnicity: number, extra: Partial<AssessContext> = {}): AssessContext {
  return { ethnicity, gender: 0, mixture: null, ancestry: null, inferredSex: null, ...extra };
}

const POPS: Population[] = ['EUR', 'AMR', 'AFR', 'EAS', 'SAS'];

/** A confident single-population ancestry estimate, as the inference would store it. */
export function inferredAncestry(best: Population, extra: Partial<AncestryInference> = {}): AncestryInference {
  const oneHot = Object.fromEntries(POPS.map((p) => [p, p === best ? 1 : 0])) as Record<Population, number>;
  return {
    method: 'test',
    best,
    posterior: oneHot,
    proportions: oneHot,
    proportions_se: null,
    markers_used: 500,
    aisnps_used: 100,
    confidence: 0.99,
    admixed: false,
    sufficient: true,
    reason: null,
    ...extra,
  };
}

/** What the inference says when a file holds no ancestry markers. */
export const NO_ANCESTRY: AncestryInference = {
  ...inferredAncestry('EUR'),
  best: null,
  markers_used: 0,
  aisnps_used: 0,
  confidence: 0,
  sufficient: false,
  reason: 'No ancestry markers in this test genotype.',
};

/** An engine over the given definitions, without tables, whose ancestry estimate is always `ancestry`. */
export function testEngine(defs: CatalogTrait[], ancestry: AncestryInference = NO_ANCESTRY) {
  return makeEngine([compileCatalog(defs)], { inferAncestry: () => ancestry, tables: new Map() });
}
