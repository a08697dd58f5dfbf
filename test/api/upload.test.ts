/**
 * The upload flow's guarantees: signed, expiring, content-type-bound URLs; PUT only; zip
 * uploads; synchronous processing; and a bad file never destroying stored data, on the shared
 * service. The size limit and the queue bound under uploads arriving together, on one service
 * of this file's own with a small limit and one worker. That an expired URL is refused is
 * test/api/expiry.test.ts's, on a service whose URLs live 1 s.
 */
import { zipSync, strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ancestryDna, catalogMarkers, chipMarkers, combine, twentyThreeAndMe } from '../support/genotypes.js';
import {
  clientWithToken,
  newProfile as newProfileOn,
  request,
  startServer,
  upload,
  waitProcessed,
  type TestServer,
} from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'upload tool'));
});

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
// The markers of two free traits: enough for results that must survive a bad upload, and for
// scores that differ between two uploads.
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
    await upload(server, token, id, twentyThreeAndMe(twoTraits(11)));
    await waitProcessed(server, token, id);
    const first = (await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body;
    expect(first.length).toBeGreaterThan(0);
    await upload(server, token, id, twentyThreeAndMe(twoTraits(12)));
    const meta = await waitProcessed(server, token, id);
    expect(meta.updated_at >= meta.created_at).toBe(true);
    const second = (await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body;
    expect(second.map((t: any) => t.trait.code)).toEqual(first.map((t: any) => t.trait.code));
    expect(second.map((t: any) => t.score)).not.toEqual(first.map((t: any) => t.score));
  });
});

/**
 * Limits, on a service of this file's own: uploads of at most 400 kB, one worker and one job
 * that may wait for it, and a job's processing queued only once its upload is complete
 * (TRAITSCOPE_PARSE_WHILE_RECEIVING=0), so uploads arriving together meet the queue bound's
 * check before any of them holds the worker.
 */
describe('limits', () => {
  const MAX = 400_000;
  let limited: TestServer;
  let limitedToken: string;
  beforeAll(async () => {
    limited = await startServer({
      env: {
        TRAITSCOPE_MAX_UPLOAD_BYTES: String(MAX),
        TRAITSCOPE_WORKERS: '1',
        TRAITSCOPE_MAX_QUEUED_JOBS: '1',
        TRAITSCOPE_PARSE_WHILE_RECEIVING: '0',
      },
    });
    ({ token: limitedToken } = await clientWithToken(limited, 'limited tool'));
  });
  afterAll(() => limited?.stop());
  const uploadUrlOn = async (id: string) =>
    (
      await request(`${limited.api}/profiles/${id}/genotype/upload/?content-type=text%2Fplain`, {
        token: limitedToken,
      })
    ).body.url as string;

  it('refuse bodies over the size limit with 413 and keep nothing', async () => {
    const id = await newProfileOn(limited, limitedToken);
    const r = await put(await uploadUrlOn(id), 'x'.repeat(MAX + 1));
    expect(r.status).toBe(413);
    expect((await request(`${limited.api}/profiles/${id}/genotype/`, { token: limitedToken })).body).toEqual({});
  });

  /**
   * The queue bound holds when uploads arrive together: each upload holds its place in the
   * queue from the check (before its body is read) until its job is queued, so uploads whose
   * headers all arrive before any body has cannot all pass the check.
   */
  it(
    'let uploads arriving together in only as far as the queue bound, the rest answered 503 with Retry-After',
    { timeout: 240_000 },
    async () => {
      // A body of 170 kB (as large as the featured traits' markers), which arrives after its
      // headers; chip-like markers of no trait, so the jobs let in are not followed by the
      // scoring of every featured trait.
      const file = twentyThreeAndMe(combine([chipMarkers(7_000, 7)]));
      const profiles: string[] = [];
      const urls: string[] = [];
      for (let i = 0; i < 8; i++) {
        const id = await newProfileOn(limited, limitedToken);
        profiles.push(id);
        urls.push(await uploadUrlOn(id));
      }
      // All at once: every request's headers reach the check before any body has arrived.
      const answers = await Promise.all(urls.map((url) => put(url, file)));
      const accepted = answers.filter((a) => a.status === 200).length;
      const refused = answers.filter((a) => a.status === 503);
      // One job may run on the worker and one wait (TRAITSCOPE_MAX_QUEUED_JOBS=1).
      expect(accepted).toBeGreaterThanOrEqual(1);
      expect(accepted).toBeLessThanOrEqual(2);
      expect(refused.length).toBe(8 - accepted);
      for (const r of refused) {
        expect(r.body).toMatchObject({ code: 'busy', detail: expect.stringMatching(/busy/) });
        expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      // The ones let in are processed; the refused ones changed nothing and may upload again.
      for (const [i, a] of answers.entries()) {
        if (a.status !== 200) continue;
        expect((await waitProcessed(limited, limitedToken, profiles[i], 120_000)).metadata.status).toBe('processed');
      }
      const retry = profiles[answers.findIndex((a) => a.status === 503)];
      expect((await request(`${limited.api}/profiles/${retry}/genotype/`, { token: limitedToken })).body).toEqual({});
    },
  );
});
