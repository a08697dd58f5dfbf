/**
 * Credentials and signed URLs are accepted only exactly as issued; everything else about
 * them gets the documented refusal, never a 500 and never a hint about other clients. On the
 * shared service, which answers wrong secrets after 10 ms steps (the delays themselves are
 * test/security/token-guessing.test.ts's); that upload URLs stop working when the service
 * restarts is test/api/restart.test.ts's, whose one restart serves two tests.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient as createDbClient } from '../../src/service/auth/clients.js';
import { createSignInCode, redeemSignInCode, SIGN_IN_LINK_TTL_SECONDS } from '../../src/service/auth/sign-in.js';
import { issueToken, verifyToken } from '../../src/service/auth/tokens.js';
import { openDatabase } from '../../src/service/db/database.js';
import { clientWithToken, request, tempDir, type Credentials, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
let creds: Credentials;
let token: string;
let profileId: string;
/**
 * What the upload URLs carry: a few lines of a raw-data file. The URLs are what is checked,
 * not the file (its processing fails for too few markers, in the background, after the 200):
 * a catalog-sized genome here cost its processing and the scoring of every trait.
 */
const genome = '# rsid\tchromosome\tposition\tgenotype\nrs4988235\t2\t136608646\tAG\nrs1801133\t1\t11856378\tCT\n';

beforeAll(async () => {
  server = sharedServer();
  ({ creds, token } = await clientWithToken(server, 'strict tool'));
  profileId = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
});

const tokenRequest = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  request(`${server.origin}/oauth/token`, {
    method: 'POST',
    json: { grant_type: 'client_credentials', audience: `${server.api}/profiles`, ...body },
    headers,
  });
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

describe('client credentials', () => {
  it('the exact credentials work, as JSON and as HTTP Basic', async () => {
    expect((await tokenRequest({ ...creds })).status).toBe(200);
    expect((await tokenRequest({}, { authorization: basic(creds.client_id, creds.client_secret) })).status).toBe(200);
  });

  it('refuse secrets and ids with NUL bytes, whitespace or changed case appended or inside', async () => {
    // Each variant would have verified before: scrypt's HMAC zero-pads a short key.
    const secrets = [
      `${creds.client_secret}\u0000`,
      `${creds.client_secret}${'\u0000'.repeat(21)}`,
      ` ${creds.client_secret}`,
      `${creds.client_secret} `,
      `${creds.client_secret}\n`,
    ];
    for (const client_secret of secrets) {
      const r = await tokenRequest({ client_id: creds.client_id, client_secret });
      expect(r.status, JSON.stringify(client_secret)).toBe(401);
      expect(r.body.error).toBe('invalid_client');
    }
    for (const client_id of [creds.client_id.toUpperCase(), ` ${creds.client_id}`, `${creds.client_id}\u0000`]) {
      expect(
        (await tokenRequest({ client_id, client_secret: creds.client_secret })).status,
        JSON.stringify(client_id),
      ).toBe(401);
    }
    expect(
      (await tokenRequest({}, { authorization: basic(creds.client_id, `${creds.client_secret}\u0000`) })).status,
    ).toBe(401);
  });

  it('answer malformed Basic credentials with 401 invalid_client, not an error', async () => {
    for (const authorization of [
      'Basic',
      'Basic !!!!',
      `Basic ${Buffer.from('no-colon').toString('base64')}`,
      `Basic ${Buffer.from('%E0%A4%A:x').toString('base64')}`,
      'Basic YQ',
    ]) {
      const r = await tokenRequest({}, { authorization });
      expect(r.status, authorization).toBe(401);
      expect(r.body.error).toBe('invalid_client');
    }
  });

  it('access tokens are compared exactly as issued', async () => {
    expect((await request(`${server.api}/profiles/`, { token })).status).toBe(200);
    for (const variant of [
      `${token}x`,
      token.slice(0, -1),
      `${token}=`,
      token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase(),
    ]) {
      expect((await request(`${server.api}/profiles/`, { token: variant })).status).toBe(401);
    }
  });
});

describe('upload URLs', () => {
  const uploadUrl = async () =>
    new URL((await request(`${server.api}/profiles/${profileId}/genotype/upload/`, { token })).body.url);
  const put = (url: URL | string) =>
    request(String(url), { method: 'PUT', body: genome, headers: { 'content-type': 'text/plain' } });

  it('work exactly as issued', async () => {
    expect((await put(await uploadUrl())).status).toBe(200);
  });

  it('refuse leading zeros, spaces, signs, repeated parameters and case changes', async () => {
    const url = await uploadUrl();
    const expires = url.searchParams.get('expires')!;
    const signature = url.searchParams.get('signature')!;
    const variants: Array<(u: URL) => void> = [
      (u) => u.searchParams.set('expires', `0${expires}`),
      (u) => u.searchParams.set('expires', ` ${expires}`),
      (u) => u.searchParams.set('expires', `${expires} `),
      (u) => u.searchParams.set('expires', `+${expires}`),
      (u) => u.searchParams.set('expires', `${expires}.0`),
      (u) => u.searchParams.set('signature', `${signature}=`),
      (u) => u.searchParams.set('signature', ` ${signature}`),
      (u) => u.searchParams.set('content_type', 'text/plain '),
      (u) => u.searchParams.set('content_type', 'TEXT/PLAIN'),
      (u) => u.searchParams.append('expires', expires),
      (u) => u.searchParams.append('signature', signature),
      (u) => (u.pathname = u.pathname.toUpperCase().replace('/STORAGE/GENOTYPES/', '/storage/genotypes/')),
    ];
    for (const change of variants) {
      const u = new URL(url);
      change(u);
      const r = await put(u);
      expect(r.status, u.search + u.pathname).toBe(403);
      expect(r.body.detail).toMatch(/upload URL/);
    }
  });

  it('answer every method but PUT with 405 and Allow: PUT; OPTIONS alike for any URL', async () => {
    const url = await uploadUrl();
    for (const method of ['GET', 'POST', 'DELETE', 'PATCH']) {
      const r = await request(String(url), { method });
      expect(r.status, method).toBe(405);
      expect(r.headers.get('allow')).toBe('PUT');
      expect(r.body.detail).toContain(method);
    }
    const bogus = new URL(url);
    bogus.pathname = '/storage/genotypes/00000000-0000-4000-8000-000000000000';
    const [real, fake] = await Promise.all([
      request(String(url), { method: 'OPTIONS' }),
      request(String(bogus), { method: 'OPTIONS' }),
    ]);
    expect([real.status, real.headers.get('allow')]).toEqual([fake.status, fake.headers.get('allow')]);
    expect(real.headers.get('allow')).toMatch(/PUT/);
  });
});

describe('revoked clients', () => {
  it('lose their token and upload URLs at once; their data can be deleted later', async () => {
    const other = await clientWithToken(server, 'soon revoked');
    const id = (
      await request(`${server.api}/profiles/`, { method: 'POST', token: other.token, json: { first_name: 'Orphan' } })
    ).body.id;
    const url = (await request(`${server.api}/profiles/${id}/genotype/upload/`, { token: other.token })).body.url;
    const revoke = await request(`${server.api}/app/clients/${other.creds.client_id}/`, {
      method: 'DELETE',
      token: server.appToken,
    });
    expect(revoke.status).toBe(200);
    expect(revoke.body.deleted_profiles).toBe(0);
    const r = await request(url, { method: 'PUT', body: genome, headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(403);
    expect(r.body.detail).toMatch(/revoked/);
    expect((await request(`${server.api}/profiles/`, { token: other.token })).status).toBe(401);
    expect(
      (
        await request(`${server.api}/app/clients/${other.creds.client_id}/`, {
          method: 'DELETE',
          token: server.appToken,
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await request(`${server.api}/app/clients/${other.creds.client_id}/?delete_data=maybe`, {
          method: 'DELETE',
          token: server.appToken,
        })
      ).status,
    ).toBe(400);
    const later = await request(`${server.api}/app/clients/${other.creds.client_id}/?delete_data=true`, {
      method: 'DELETE',
      token: server.appToken,
    });
    expect(later.status).toBe(200);
    expect(later.body.deleted_profiles).toBe(1);
  });
});

describe('OPTIONS', () => {
  it("answers alike for one's own, another client's and an unknown profile: it reveals nothing", async () => {
    const other = await clientWithToken(server, 'prober');
    for (const sub of ['', 'genotype/', 'traits/', 'genotype/upload/']) {
      const answers = await Promise.all(
        [profileId, '00000000-0000-4000-8000-000000000000'].flatMap((id) =>
          [token, other.token].map((t) =>
            request(`${server.api}/profiles/${id}/${sub}`, { method: 'OPTIONS', token: t }),
          ),
        ),
      );
      const seen = new Set(answers.map((r) => `${r.status} ${r.headers.get('allow')} ${JSON.stringify(r.body ?? '')}`));
      expect(seen.size, sub).toBe(1);
    }
  });
});

describe('sign-in links', () => {
  it('expire in ten minutes and work once', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const db = openDatabase(path.join(tempDir(), 'traitscope.db'));
    try {
      const code = createSignInCode(db);
      const { expires_at } = db.prepare('SELECT expires_at FROM sign_in_codes').get() as { expires_at: number };
      expect(SIGN_IN_LINK_TTL_SECONDS).toBe(600);
      expect(expires_at - Date.now()).toBe(600_000);
      expect(redeemSignInCode(db, `${code}\u0000`)).toBe(false);
      expect(redeemSignInCode(db, code)).toBe(true);
      expect(redeemSignInCode(db, code)).toBe(false);
      // An unused one works until ten minutes have passed, and not after.
      const unused = createSignInCode(db);
      const late = createSignInCode(db);
      vi.advanceTimersByTime(600_000 - 1);
      expect(redeemSignInCode(db, unused)).toBe(true);
      vi.advanceTimersByTime(1);
      expect(redeemSignInCode(db, late)).toBe(false);
    } finally {
      db.close();
      vi.useRealTimers();
    }
  });
});

describe('access tokens', () => {
  it('are accepted until their lifetime has passed and refused from then on', async () => {
    const db = openDatabase(path.join(tempDir(), 'traitscope.db'));
    const { client } = await createDbClient(db, { name: 'clocked tool' });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { token, expiresIn } = issueToken(db, { clientId: client.id, scopes: ['read:profiles'] }, 60);
      expect(expiresIn).toBe(60);
      expect(verifyToken(db, token)).toEqual({
        clientId: client.id,
        scopes: ['read:profiles'],
        expiresAt: Date.now() + 60_000,
      });
      vi.advanceTimersByTime(60_000 - 1);
      expect(verifyToken(db, token)).toBeDefined();
      vi.advanceTimersByTime(1);
      expect(verifyToken(db, token)).toBeUndefined();
    } finally {
      db.close();
      vi.useRealTimers();
    }
  });
});
