/** Trait routes beyond the happy path: unknown codes, unavailable traits, bad bodies, free-trait configuration. */
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import { clientWithToken, request, upload, waitProcessed, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
let token: string;
let profileId: string;
// A genotype with a third of the featured markers, so most traits are unavailable, and every
// marker of two of them, so those can be computed whatever the catalog holds.
const COMPLETE = ['type_2_diabetes', 'migraine'];
const twoTraits = catalogMarkers(5, { traits: (t) => COMPLETE.includes(t.code) });
const complete = new Set(twoTraits.map((m) => m.rsid));
const markers = catalogMarkers(5).filter((m, i) => i % 3 === 0 || complete.has(m.rsid));

/**
 * The profile's trait statuses (about 4 MB), read once for the tests that pick a trait by its
 * status: no test changes whether a trait is unavailable.
 */
let statusList: Promise<any[]> | undefined;
const statuses = () =>
  (statusList ??= request(`${server.api}/profiles/${profileId}/traits/`, { token }).then((r) => r.body as any[]));

beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'traits tool'));
  profileId = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: { ethnicity: 3 } })).body.id;
  await upload(server, token, profileId, twentyThreeAndMe(markers));
  await waitProcessed(server, token, profileId);
});

describe('profile traits', () => {
  it('PUT on an unavailable trait is 409, on an unknown code 404', async () => {
    const list = await statuses();
    const unavailable = list.find((t: any) => t.status === 'unavailable');
    expect(unavailable).toBeDefined();
    const r = await request(`${server.api}/profiles/${profileId}/traits/${unavailable.trait.code}/`, {
      method: 'PUT',
      token,
    });
    expect(r.status).toBe(409);
    expect(r.body.detail).toMatch(/markers/);
    const unknown = await request(`${server.api}/profiles/${profileId}/traits/no_such_trait/`, {
      method: 'PUT',
      token,
    });
    expect(unknown.status).toBe(404);
    expect((await request(`${server.api}/profiles/${profileId}/traits/no_such_trait/`, { token })).status).toBe(404);
  });

  it('POST leaves unavailable codes out and rejects bodies that are not code lists', async () => {
    const list = await statuses();
    const unavailable = list.find((t: any) => t.status === 'unavailable').trait.code;
    expect(
      (await request(`${server.api}/profiles/${profileId}/traits/`, { method: 'POST', token, json: [unavailable] }))
        .body,
    ).toEqual([]);
    for (const json of [{ codes: ['x'] }, 'x', [1, 2], { trait_codes: 'x' }]) {
      const r = await request(`${server.api}/profiles/${profileId}/traits/`, { method: 'POST', token, json });
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body.detail).toMatch(/trait codes/);
    }
  });

  it('POST names unknown codes in a header, and answers 400 when none is known', async () => {
    const known = 'type_2_diabetes';
    const mixed = await request(`${server.api}/profiles/${profileId}/traits/`, {
      method: 'POST',
      token,
      json: [known, 'no_such_trait', 'also missing'],
    });
    expect(mixed.status).toBe(200);
    expect(mixed.headers.get('traitscope-unknown-trait-codes')).toBe('no_such_trait,also%20missing');
    expect(mixed.body.map((t: any) => t.trait.code)).toEqual([known]);
    const allKnown = await request(`${server.api}/profiles/${profileId}/traits/`, {
      method: 'POST',
      token,
      json: [known],
    });
    expect(allKnown.headers.get('traitscope-unknown-trait-codes')).toBeNull();
    const none = await request(`${server.api}/profiles/${profileId}/traits/`, {
      method: 'POST',
      token,
      json: { trait_codes: ['no_such_trait'] },
    });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: 'invalid_request' });
    expect(none.body.detail).toMatch(/None of the trait codes.*"no_such_trait".*GET \/api\/traits\//);
    expect(none.headers.get('traitscope-unknown-trait-codes')).toBe('no_such_trait');
  });

  it('uses the profile ethnicity to choose the reference population', async () => {
    const list = await statuses();
    const code = list.find((t: any) => t.status !== 'unavailable').trait.code;
    const r = await request(`${server.api}/profiles/${profileId}/traits/${code}/`, { method: 'PUT', token });
    expect(r.body).toMatchObject({ status: 'computed', population: 'AFR', population_source: 'ethnicity' });
    const scored = (await request(`${server.api}/profiles/${profileId}/traits/?score`, { token })).body;
    for (const t of scored) expect(t).toMatchObject({ population: 'AFR', population_source: 'ethnicity' });
    await request(`${server.api}/profiles/${profileId}/`, { method: 'PATCH', token, json: { ethnicity: 4 } });
    const after = (await request(`${server.api}/profiles/${profileId}/traits/${code}/`, { token })).body;
    expect(after).toMatchObject({ status: 'computed', population: 'EAS', population_source: 'ethnicity' });
  });

  it('a client configured with no free traits gets nothing computed automatically', async () => {
    const { token: t2 } = await clientWithToken(server, 'pays for all', { free_traits: 'none' });
    const traits = (await request(`${server.api}/traits/`, { token: t2 })).body;
    expect(traits.every((t: any) => t.type === 'basic')).toBe(true);
    const id = (await request(`${server.api}/profiles/`, { method: 'POST', token: t2, json: {} })).body.id;
    await upload(server, t2, id, twentyThreeAndMe(twoTraits));
    await waitProcessed(server, t2, id);
    expect((await request(`${server.api}/profiles/${id}/traits/?score`, { token: t2 })).body).toEqual([]);
    const statuses = (await request(`${server.api}/profiles/${id}/traits/`, { token: t2 })).body;
    expect(statuses.some((t: any) => t.status === 'available')).toBe(true);
    expect(statuses.some((t: any) => t.status === 'computed')).toBe(false);
  });

  it('a client with chosen free traits gets exactly those computed', { timeout: 180_000 }, async () => {
    const list = await statuses();
    const code = list.find((t: any) => t.status !== 'unavailable' && COMPLETE.includes(t.trait.code)).trait.code;
    const { token: t3 } = await clientWithToken(server, 'one free', { free_traits: [code] });
    const traits = (await request(`${server.api}/traits/`, { token: t3 })).body;
    expect(traits.filter((t: any) => t.type === 'free').map((t: any) => t.trait.code)).toEqual([code]);
    const id = (await request(`${server.api}/profiles/`, { method: 'POST', token: t3, json: {} })).body.id;
    await upload(server, t3, id, twentyThreeAndMe(twoTraits));
    await waitProcessed(server, t3, id);
    expect(
      (await request(`${server.api}/profiles/${id}/traits/?score`, { token: t3 })).body.map((t: any) => t.trait.code),
    ).toEqual([code]);
  });
});

describe('genotype marker look-up', () => {
  it('validates the rsid list', async () => {
    for (const q of ['', '?rsid=', '?rsid=123', '?rsid=rs1,i700']) {
      const r = await request(`${server.api}/profiles/${profileId}/genotype/snps/${q}`, { token });
      expect(r.status, q).toBe(400);
    }
  });
});
