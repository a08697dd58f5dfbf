/**
 * The spec's whole client workflow against a real server: token → profile → upload URL →
 * PUT file → processing → traits → compute → single reads → delete. Every response body is
 * checked against the shared schemas, so shapes cannot drift from the contract. Each step
 * runs alone too (`it.only`): what it needs from earlier steps comes from fixtures made on
 * first use (a new profile, the processed profile, the client's trait list).
 */
import { createHash } from 'node:crypto';
import { crc32c } from '@node-rs/crc32';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  ClientTrait,
  FullTraitAssessment,
  GenotypeMetadata,
  GenotypeSnp,
  Profile,
  ProfileTraitStatus,
  TraitAssessment,
  type ProfileTrait,
} from '../../src/shared/api.js';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import { clientWithToken, request, upload, waitProcessed, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
let token: string;
const markers = catalogMarkers(7);
const file = twentyThreeAndMe(markers);

beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'workflow tool'));
});

async function newProfile(): Promise<string> {
  const r = await request(`${server.api}/profiles/`, { method: 'POST', token, json: { first_name: 'Ada' } });
  expect(r.status).toBe(201);
  return Profile.parse(r.body).id;
}

/** A profile with the file uploaded and processed, made once for the steps that read it. */
let processed: Promise<string> | undefined;
function processedProfile(): Promise<string> {
  processed ??= (async () => {
    const id = await newProfile();
    expect((await upload(server, token, id, file)).status).toBe(200);
    await waitProcessed(server, token, id);
    return id;
  })();
  return processed;
}

let clientTraitsLoaded: Promise<ClientTrait[]> | undefined;
function clientTraits(): Promise<ClientTrait[]> {
  clientTraitsLoaded ??= request(`${server.api}/traits/`, { token }).then((r) => {
    expect(r.status).toBe(200);
    return r.body.map((t: unknown) => ClientTrait.parse(t));
  });
  return clientTraitsLoaded;
}

describe('the spec workflow', () => {
  it('creates a profile with defaults for omitted fields', async () => {
    const r = await request(`${server.api}/profiles/`, {
      method: 'POST',
      token,
      json: { first_name: 'Ada', last_name: 'Lovelace', age: 36 },
    });
    expect(r.status).toBe(201);
    const p = Profile.parse(r.body);
    expect(p).toEqual({
      id: p.id,
      email: '',
      first_name: 'Ada',
      last_name: 'Lovelace',
      gender: 0,
      age: 36,
      ethnicity: 0,
      reference_mixture: null,
    });
  });

  it('has no genotype and an empty traits list before upload', async () => {
    const profileId = await newProfile();
    expect((await request(`${server.api}/profiles/${profileId}/genotype/`, { token })).body).toEqual({});
    expect((await request(`${server.api}/profiles/${profileId}/traits/`, { token })).body).toEqual([]);
  });

  it('uploads through the signed URL and processes the file by itself', async () => {
    // The processed profile's fixture is this step: a new profile, the file PUT to its URL (200), processing awaited.
    const profileId = await processedProfile();
    const meta = GenotypeMetadata.parse(await waitProcessed(server, token, profileId));
    expect(meta).toMatchObject({ content_type: 'text/plain', size: String(Buffer.byteLength(file)) });
    const bytes = Buffer.from(file);
    expect((meta as any).md5_hash).toBe(createHash('md5').update(bytes).digest('base64'));
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32c(bytes) >>> 0);
    expect((meta as any).crc32c).toBe(crc.toString('base64'));
    expect((meta as any).metadata).toMatchObject({ status: 'processed', snp_count: markers.length, format: '23andme' });
    expect(Date.parse((meta as any).created_at)).not.toBeNaN();
  });

  it('the synchronous processing call reprocesses and answers when done', async () => {
    const profileId = await processedProfile();
    const r = await request(`${server.api}/profiles/${profileId}/genotype/upload/`, { method: 'POST', token });
    expect(r.status).toBe(200);
    expect(r.body.detail).toMatch(/Processing finished/);
  });

  it('lists the client traits with pricing type, filtered by q', async () => {
    const traits = await clientTraits();
    expect(traits.length).toBeGreaterThanOrEqual(10);
    expect(new Set(traits.map((t) => t.type))).toEqual(new Set(['free', 'basic']));
    const probe = traits[0].trait.name.slice(0, 5).toLowerCase();
    const filtered = await request(`${server.api}/traits/?q=${encodeURIComponent(probe)}`, { token });
    expect(filtered.body.length).toBeGreaterThan(0);
    expect(filtered.body.length).toBeLessThanOrEqual(traits.length);
    for (const t of filtered.body) expect(`${t.trait.code} ${t.trait.name}`.toLowerCase()).toContain(probe);
  });

  it('lists statuses; free traits are computed automatically', async () => {
    const [profileId, traits] = await Promise.all([processedProfile(), clientTraits()]);
    const r = await request(`${server.api}/profiles/${profileId}/traits/`, { token });
    const list = r.body.map((t: unknown) => ProfileTraitStatus.parse(t));
    expect(list.length).toBe(traits.length);
    // trait and status; unavailable ones also say why (status_reason, an extension of the interface).
    for (const t of list)
      expect(Object.keys(t).sort()).toEqual(
        t.status === 'unavailable' && 'status_reason' in t ? ['status', 'status_reason', 'trait'] : ['status', 'trait'],
      );
    const free = new Set(traits.filter((t) => t.type === 'free').map((t) => t.trait.code));
    const freeFeatured = list.filter((t: ProfileTrait) => free.has(t.trait.code) && t.trait.featured);
    expect(freeFeatured.length).toBeGreaterThan(0);
    for (const t of freeFeatured) expect(t.status).toBe('computed');
    expect(list.some((t: ProfileTrait) => t.status === 'available')).toBe(true);
  });

  it('the score form returns only computed traits, with assessment data', async () => {
    const profileId = await processedProfile();
    const r = await request(`${server.api}/profiles/${profileId}/traits/?score`, { token });
    expect(r.body.length).toBeGreaterThan(0);
    for (const raw of r.body) {
      const t = TraitAssessment.parse(raw);
      expect(t.status).toBe('computed');
      expect(t.assessment_level).toBeGreaterThanOrEqual(1);
      expect(t.percentile).toBeGreaterThanOrEqual(0);
      expect(t.snps.every((s) => s.startsWith('rs'))).toBe(true);
      expect(typeof t.recommendations).toBe('string');
    }
  });

  it('POST computes available traits, in both body shapes, and skips unknown codes', async () => {
    const profileId = await processedProfile();
    const list: ProfileTrait[] = (await request(`${server.api}/profiles/${profileId}/traits/`, { token })).body;
    const available = list.filter((t) => t.status === 'available' && t.trait.featured).map((t) => t.trait.code);
    expect(available.length).toBeGreaterThanOrEqual(2);
    const a = await request(`${server.api}/profiles/${profileId}/traits/`, {
      method: 'POST',
      token,
      json: [available[0], 'no_such_trait'],
    });
    expect(a.status).toBe(200);
    expect(a.body.map((t: ProfileTrait) => t.trait.code)).toEqual([available[0]]);
    expect(TraitAssessment.parse(a.body[0]).status).toBe('computed');
    const b = await request(`${server.api}/profiles/${profileId}/traits/`, {
      method: 'POST',
      token,
      json: { trait_codes: [available[1]] },
    });
    expect(b.body.map((t: ProfileTrait) => t.trait.code)).toEqual([available[1]]);
    expect(b.body[0].assessment_level).toBeGreaterThanOrEqual(1);
    const after = (await request(`${server.api}/profiles/${profileId}/traits/${available[0]}/`, { token })).body;
    expect(after.status).toBe('computed');
  });

  it('PUT single computes and returns the full assessment; GET reads it', async () => {
    const profileId = await processedProfile();
    const list: ProfileTrait[] = (await request(`${server.api}/profiles/${profileId}/traits/`, { token })).body;
    const code = list.find((t) => t.status === 'available')!.trait.code;
    const before = (await request(`${server.api}/profiles/${profileId}/traits/${code}`, { token })).body;
    expect(before).toEqual({ trait: expect.objectContaining({ code }), status: 'available' });
    const put = await request(`${server.api}/profiles/${profileId}/traits/${code}/`, { method: 'PUT', token });
    expect(put.status).toBe(200);
    const full = FullTraitAssessment.parse(put.body);
    expect(full).toMatchObject({ status: 'computed' });
    expect(full.markers.length).toBeGreaterThan(0);
    expect(full.distribution?.density.length).toBeGreaterThan(0);
    const get = FullTraitAssessment.parse(
      (await request(`${server.api}/profiles/${profileId}/traits/${code}/`, { token })).body,
    );
    expect(get.percentile).toBe(full.percentile);
  });

  it('looks up genotypes of requested markers', async () => {
    const profileId = await processedProfile();
    const [m1, m2] = markers;
    const r = await request(`${server.api}/profiles/${profileId}/genotype/snps/?rsid=rs${m1.rsid},rs${m2.rsid},rs1`, {
      token,
    });
    expect(r.status).toBe(200);
    const snps = r.body.map((s: unknown) => GenotypeSnp.parse(s));
    expect(snps.map((s: GenotypeSnp) => s.rsid)).toEqual([`rs${m1.rsid}`, `rs${m2.rsid}`]);
    expect(snps[0].genotype).toBe(m1.genotype);
    expect(snps[0].chromosome).toBe('1');
    expect(snps[0].position).toBe(1000);
  });

  it('deletes the profile with everything it had', async () => {
    const profileId = await newProfile();
    // A genotype with the markers of two traits: what it holds is deleted, whatever its size.
    const twoTraits = catalogMarkers(7, { traits: (t) => t.code === 'type_2_diabetes' || t.code === 'migraine' });
    expect((await upload(server, token, profileId, twentyThreeAndMe(twoTraits))).status).toBe(200);
    await waitProcessed(server, token, profileId);
    const r = await request(`${server.api}/profiles/${profileId}/`, { method: 'DELETE', token });
    expect(r.status).toBe(200);
    expect(typeof r.body.detail).toBe('string');
    for (const path of ['', 'genotype/', 'traits/', 'genotype/upload/']) {
      expect((await request(`${server.api}/profiles/${profileId}/${path}`, { token })).status).toBe(404);
    }
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(`${server.dataDir}/genotypes`).filter((n) => n.startsWith(profileId))).toEqual([]);
  });
});
