/**
 * Single-variant findings through the real service: a genome built for the purpose (one
 * copy of Factor V Leiden, a single letter at APOE's rs429358, three HFE risk alleles),
 * uploaded, parsed and read back from GET /profiles/{id}/findings/ for a person who chose
 * an East Asian reference and one who chose a European one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogMarkers, combine, markersOf, twentyThreeAndMe } from '../support/genotypes.js';
import { clientWithToken, request, upload, waitProcessed, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

const FINDING_RSIDS = new Set([6025, 429358, 7412, 1800562, 1799945, 4988235, 671]);
const genome = combine([
  markersOf([['rs6025', 'CT']], 1),
  markersOf(
    [
      ['rs1800562', 'AA'],
      ['rs1799945', 'CG'],
    ],
    6,
  ),
  markersOf(
    [
      ['rs429358', 'C'],
      ['rs7412', 'CC'],
    ],
    19,
  ),
  catalogMarkers(5).filter((m) => !FINDING_RSIDS.has(m.rsid)),
]);

let server: TestServer;
let token: string;

async function findingsFor(ethnicity: number): Promise<Record<string, any>> {
  const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: { ethnicity } })).body.id;
  await upload(server, token, id, twentyThreeAndMe(genome));
  const processed = await waitProcessed(server, token, id);
  expect(processed.metadata.status).toBe('processed');
  const r = await request(`${server.api}/profiles/${id}/findings/`, { token });
  expect(r.status).toBe(200);
  return Object.fromEntries(r.body.findings.map((f: any) => [f.code, f]));
}

beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'findings', { scopes: ['read:profiles', 'write:profiles'] }));
});

describe('GET /profiles/{id}/findings/ on a genome built for the purpose', () => {
  let eas: Record<string, any>;
  let eur: Record<string, any>;
  beforeAll(async () => {
    eas = await findingsFor(4);
    eur = await findingsFor(1);
  }, 120_000);

  it('states how rarely a Factor V Leiden call is right in an East Asian reference, and not in a European one', () => {
    const f = eas.factor_v_leiden;
    expect(f.result).toBe('One copy of Factor V Leiden');
    expect(f.markers[0].reliability).toMatchObject({ population: 'East Asian (EAS)', error_rate: 0.001 });
    expect(f.markers[0].reliability.positive_predictive_value).toBeLessThanOrEqual(0.5);
    expect(f.flags.map((x: any) => x.code)).toEqual(['rare_in_reference']);
    expect(f.limits[0].text).toMatch(/East Asian \(EAS\).*right only about 50 % of the time/);
    expect(eur.factor_v_leiden.flags).toEqual([]);
    expect(eur.factor_v_leiden.markers[0].reliability.positive_predictive_value).toBeGreaterThan(0.95);
  });

  it('reads the single letter at rs429358 as a no-call and gives no APOE genotype', () => {
    const f = eur.apoe;
    expect(f.result).toBeNull();
    expect(f.markers[0]).toMatchObject({ rsid: 'rs429358', genotype: 'C', state: 'no_call', copies: null });
    expect(f.flags.map((x: any) => x.code)).toEqual(['single_letter_call']);
  });

  it('flags three HFE risk alleles as implausible and says nothing about haemochromatosis', () => {
    expect(eur.hfe).toMatchObject({ result: 'Unusual combination', statements: [] });
    expect(eur.hfe.flags.map((x: any) => x.code)).toEqual(['implausible_combination']);
  });
});
