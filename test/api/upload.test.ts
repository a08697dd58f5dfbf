/**
 * The upload flow's guarantees: signed, expiring, content-type-bound URLs; PUT only; size
 * limit; zip uploads; synchronous processing; and a bad file never destroying stored data.
 * That an expired URL is refused is test/api/expiry.test.ts's, on a service whose URLs live 1 s.
 */
import { zipSync, strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ancestryDna, catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import { clientWithToken, request, startServer, upload, waitProcessed, type TestServer } from '../support/server.js';

let server: TestServer;
let token: string;
const MAX = 400_000;
beforeAll(async () => {
  server = await startServer({ env: { TRAITSCOPE_MAX_UPLOAD_BYTES: String(MAX) } });
  ({ token } = await clientWithToken(server, 'upload tool'));
});
afterAll(() => server?.stop());

const newProfile = async () =>
  (await request(`${server.api}/profiles/`, { method: 'POST', token, json: { first_name: 'Up' } })).body.id as string;
const uploadUrl = async (id: string, type?: string) =>
  (
    await request(
      `${server.api}/profiles/${id}/genotype/upload/${type ? `?content-type=${encodeURIComponent(type)}` : ''}`,
      { token },
    )
  ).body.url as string;
const put = (url: string, body: string | Uint8Array, type = 'text/plain') =>
  request(url, { method: 'PUT', body: body as BodyInit, headers: { 'content-type': type } });
// The markers of two free traits: enough for results that must survive a bad upload, and the
// featured catalog's (every featured trait scored) only where scores must differ.
const twoTraits = (seed: number) =>
  catalogMarkers(seed, { traits: (t) => t.code === 'type_2_diabetes' || t.code === 'migraine' });
const file = twentyThreeAndMe(twoTraits(3));

describe('upload URLs', () => {
  it('point at this service under /storage, carry an expiry and signature, default to text/plain', async () => {
    const id = await newProfile();
    const url = new URL(await uploadUrl(id));
    expect(url.origin).toBe(server.origin);
    expect(url.pathname).toBe(`/storage/genotypes/${id}`);
    expect(url.searchParams.get('content_type')).toBe('text/plain');
    expect(Number(url.searchParams.get('expires'))).toBeGreaterThan(Date.now() / 1000 - 1);
  });

  it('reject unsupported content types with 400', async () => {
    const id = await newProfile();
    const r = await request(`${server.api}/profiles/${id}/genotype/upload/?content-type=image/png`, { token });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/text\/plain/);
  });

  it('refuse tampered or foreign-profile URLs with 403, and other content types', async () => {
    const id = await newProfile();
    const other = await newProfile();
    const url = await uploadUrl(id);
    const tampered = url.replace(/signature=([^&]+)/, (_m, s: string) => `signature=${s.slice(0, -2)}xx`);
    expect((await put(tampered, file)).status).toBe(403);
    expect((await put(url.replace(id, other), file)).status).toBe(403);
    expect(
      (await put(url.replace('content_type=text%2Fplain', 'content_type=application%2Fzip'), file, 'application/zip'))
        .status,
    ).toBe(403);
    const wrongType = await put(url, file, 'application/zip');
    expect(wrongType.status).toBe(403);
    expect(wrongType.body.detail).toMatch(/Content-Type/);
    expect((await request(`${server.api}/profiles/${id}/genotype/`, { token })).body).toEqual({});
  });

  it('accept only PUT (POST and GET are 405)', async () => {
    const id = await newProfile();
    const url = await uploadUrl(id);
    for (const method of ['POST', 'GET']) {
      const r = await request(url, {
        method,
        body: method === 'POST' ? file : undefined,
        headers: { 'content-type': 'text/plain' },
      });
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('PUT');
      expect(r.body.detail).toMatch(/PUT/);
    }
  });

  it('refuse bodies over the size limit with 413 and keep nothing', async () => {
    const id = await newProfile();
    const r = await put(await uploadUrl(id), 'x'.repeat(MAX + 1));
    expect(r.status).toBe(413);
    expect((await request(`${server.api}/profiles/${id}/genotype/`, { token })).body).toEqual({});
  });
});

describe('processing', () => {
  it('synchronous processing before any upload is a 401 with a detail', async () => {
    const id = await newProfile();
    const r = await request(`${server.api}/profiles/${id}/genotype/upload/`, { method: 'POST', token });
    expect(r.status).toBe(401);
    expect(r.body.detail).toMatch(/upload/i);
  });

  it('accepts a zip through an application/zip URL', async () => {
    const id = await newProfile();
    const zip = zipSync({ 'AncestryDNA.txt': strToU8(ancestryDna(twoTraits(4))) });
    const r = await upload(server, token, id, zip, 'application/zip');
    expect(r.status).toBe(200);
    const meta = await waitProcessed(server, token, id);
    expect(meta.content_type).toBe('application/zip');
    expect(meta.metadata).toMatchObject({ status: 'processed', format: 'ancestrydna', container: 'zip' });
  });

  it('a file that cannot be read keeps the previous genotype and assessments', async () => {
    const id = await newProfile();
    await upload(server, token, id, file);
    const first = await waitProcessed(server, token, id);
    const scored = (await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body;
    expect(scored.length).toBeGreaterThan(0);
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(200).fill(7)]);
    expect((await upload(server, token, id, png)).status).toBe(200);
    const sync = await request(`${server.api}/profiles/${id}/genotype/upload/`, { method: 'POST', token });
    expect(sync.status).toBe(422);
    expect(sync.body.detail.length).toBeGreaterThan(20);
    const meta = (await request(`${server.api}/profiles/${id}/genotype/`, { token })).body;
    expect(meta.metadata.status).toBe('failed');
    expect(meta.metadata.error).toBe(sync.body.detail);
    expect(meta.size).toBe(String(png.length));
    expect(meta.created_at).toBe(first.created_at);
    expect(meta.metadata.snp_count).toBe(first.metadata.snp_count); // the genotype in use is still the first file's
    expect((await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body).toEqual(scored);
    const rsid = scored[0].snps[0];
    expect((await request(`${server.api}/profiles/${id}/genotype/snps/?rsid=${rsid}`, { token })).body).toHaveLength(1);
  });

  it('the last successful upload wins and computed traits are recomputed on it', async () => {
    const id = await newProfile();
    await upload(server, token, id, twentyThreeAndMe(catalogMarkers(11)));
    await waitProcessed(server, token, id);
    const first = (await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body;
    await upload(server, token, id, twentyThreeAndMe(catalogMarkers(12)));
    const meta = await waitProcessed(server, token, id);
    expect(meta.updated_at >= meta.created_at).toBe(true);
    const second = (await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body;
    expect(second.map((t: any) => t.trait.code)).toEqual(first.map((t: any) => t.trait.code));
    expect(second.map((t: any) => t.score)).not.toEqual(first.map((t: any) => t.score));
  });
});
