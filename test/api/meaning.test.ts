/**
 * What a result means, through the real API: profiles built for the purpose get `meaning`
 * on every assessment, and the notable order the summary and the report use
 * (src/renderer/src/lib/notable.ts) puts the largest absolute difference first, not the most
 * extreme rank (docs/science.md, "What a result means").
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { notableResults } from '../../src/renderer/src/lib/notable.js';
import { readCatalogFile } from '../../src/service/science/catalog.js';
import type { CatalogTrait } from '../../src/service/science/format.js';
import { markersOf, twentyThreeAndMe } from '../support/genotypes.js';
import { clientWithToken, request, upload, waitProcessed, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

const catalog = readCatalogFile(path.resolve(import.meta.dirname, '..', '..', 'resources'));
const traitOf = (code: string): CatalogTrait => catalog.traits.find((t) => t.code === code)!;

/** Genotype letters for every marker of a trait: `effect` copies of the effect allele (0–2). */
function calls(code: string, effect: (i: number) => number): Array<[string, string]> {
  const m = traitOf(code).markers;
  return m.rsid.map((rs, i) => [`rs${rs}`, m.effect[i].repeat(effect(i)) + m.other[i].repeat(2 - effect(i))]);
}

/** The file of a profile built for the purpose: each trait's markers set by a rule; an rsID shared by traits keeps its first call. */
function fileOf(parts: Array<Array<[string, string]>>): string {
  const byRsid = new Map<string, string>();
  for (const part of parts) for (const [rs, g] of part) if (!byRsid.has(rs)) byRsid.set(rs, g);
  return twentyThreeAndMe(markersOf([...byRsid]));
}

// Type 2 diabetes with every effect allele: far above average in absolute terms. Left-handedness
// with every effect allele: an extreme rank, but no frequency and a small effect. Gout and
// kidney stones with one copy of each effect allele.
const CODES = ['type_2_diabetes', 'left_handedness', 'gout', 'kidney_stones', 'celiac_disease'];
const PROFILE_FILE = fileOf([
  calls('type_2_diabetes', () => 2),
  calls('left_handedness', () => 2),
  calls('gout', () => 1),
  calls('kidney_stones', () => 1),
  calls('celiac_disease', (i) => i % 2),
]);

let server: TestServer;
let token: string;

async function profileWith(ethnicity: number, gender: number): Promise<string> {
  const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: { ethnicity, gender } })).body.id;
  await upload(server, token, id, PROFILE_FILE);
  await waitProcessed(server, token, id);
  return id;
}

beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'meaning tool'));
});

describe('meaning through the API', () => {
  it('carries meaning on every assessment, and the notable order puts the largest difference in points first', async () => {
    const id = await profileWith(1, 2);
    const computed = (await request(`${server.api}/profiles/${id}/traits/`, { method: 'POST', token, json: CODES }))
      .body as any[];
    expect(computed.map((t) => t.trait.code).sort()).toEqual([...CODES].sort());
    for (const t of computed) {
      expect(t.meaning, t.trait.code).toMatchObject({ kind: expect.stringMatching(/^(risk|value|relative)$/) });
      expect(typeof t.meaning.reliability).toBe('string');
      if (t.meaning.kind === 'relative') expect(t.meaning.reason).toBeTruthy();
      else expect(t.meaning.frequency?.pmid ?? 'value').toMatch(/^(\d{6,9}|value)$/);
    }
    const diabetes = computed.find((t) => t.trait.code === 'type_2_diabetes');
    expect(diabetes.meaning).toMatchObject({ kind: 'risk', average: 38.5, unit: 'percent' });
    expect(diabetes.meaning.yours).toBeGreaterThan(diabetes.meaning.average);

    // The stored summaries (what the summary page reads) carry the same meaning.
    const listed = (await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body as any[];
    const stored = listed.find((t) => t.trait.code === 'type_2_diabetes');
    expect(stored.meaning.yours).toBeCloseTo(diabetes.meaning.yours, 6);

    const order = notableResults(
      listed.filter((t) => t.status === 'computed').map((result) => ({ result, featured: true })),
    );
    const codes = order.map((c) => c.result.trait.code);
    expect(codes[0]).toBe('type_2_diabetes');
    // Left-handedness has the most extreme rank here but no absolute terms: it never comes before one that has them.
    const left = listed.find((t) => t.trait.code === 'left_handedness');
    expect(left.percentile).toBeGreaterThan(99);
    expect(left.meaning.kind).toBe('relative');
    const lastAbsolute = Math.max(...order.map((c, i) => (c.result.meaning?.kind === 'relative' ? -1 : i)));
    if (codes.includes('left_handedness')) expect(codes.indexOf('left_handedness')).toBeGreaterThan(lastAbsolute);
  });

  it('marks absolute figures as less certain for a person of African ancestry, citing the portability figures', async () => {
    const id = await profileWith(3, 1);
    const [gout] = (await request(`${server.api}/profiles/${id}/traits/`, { method: 'POST', token, json: ['gout'] }))
      .body as any[];
    expect(gout.meaning).toMatchObject({ kind: 'risk', less_certain: true, average: 5.9 });
    expect(gout.meaning.reliability).toMatch(/24 %/);
  });
});
