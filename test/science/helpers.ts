/** Test helpers: genotypes built directly from (rsid, genotype letters) pairs, and small trait definitions. */
import { alleleFromLetter, makeCall } from '../../src/service/genotype/encoding.js';
import type { Genotype } from '../../src/service/genotype/types.js';
import type { CatalogTrait } from '../../src/service/science/format.js';
import { traitRevision } from '../../src/service/science/revision.js';

/** A genotype from entries like ['rs123', 'AG'], ['rs5', 'A'] (haploid) or ['rs9', '--'] (no-call). */
export function genotypeOf(entries: Array<[string, string]>): Genotype {
  const sorted = [...entries].map(([id, gt]) => [Number(id.replace(/^rs/, '')), gt] as const).sort((a, b) => a[0] - b[0]);
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
    quality: { markers: sorted.length, sample_size: null, publication_year: null, evidence: 'limited', study_id: null, pmid: null, first_author: null, citation: 'test' },
    revision: '',
    weight_scale: 'beta',
    text_kind: 'trait',
    phrase: code,
    recommendations: ['r1', 'r2', 'r3', 'r4', 'r5'],
    source: { dataset: 'PGS Catalog', study_id: 'test', pmid: null, source_trait: code, source_rows: sorted.length, dropped: {} },
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
