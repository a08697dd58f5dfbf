/**
 * Bearer tokens and upload URLs expire after the lifetimes a user can set
 * (TRAITSCOPE_TOKEN_TTL_SECONDS, TRAITSCOPE_UPLOAD_URL_TTL_SECONDS): one service of this
 * file's own with short ones (tokens 2 s, URLs 1 s), so no other file's tokens or URLs can
 * expire on a busy machine. That a token works until then is checked with a fake clock in
 * test/security/credentials.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getToken,
  newClient,
  newProfile,
  pollUntil,
  request,
  startServer,
  type Credentials,
  type TestServer,
} from '../support/server.js';

const TOKEN_TTL_SECONDS = 2;
let server: TestServer;
let tokenTool: Credentials;
let uploadTool: Credentials;
beforeAll(async () => {
  server = await startServer({
    env: { TRAITSCOPE_TOKEN_TTL_SECONDS: String(TOKEN_TTL_SECONDS), TRAITSCOPE_UPLOAD_URL_TTL_SECONDS: '1' },
  });
  // While the app's own token (of the same lifetime) is fresh; each test then takes new tokens.
  tokenTool = await newClient(server, 'short-lived');
  uploadTool = await newClient(server, 'expiry tool');
});
afterAll(() => server?.stop());

describe('lifetimes', () => {
  it('tokens are issued for TRAITSCOPE_TOKEN_TTL_SECONDS and refused as expired once it has passed', async () => {
    const issued = await request(`${server.origin}/oauth/token`, {
      method: 'POST',
      json: { ...tokenTool, audience: `${server.api}/profiles`, grant_type: 'client_credentials' },
    });
    expect(issued.body.expires_in).toBe(TOKEN_TTL_SECONDS);
    const later = await pollUntil('the token being refused', async () => {
      const r = await request(`${server.api}/profiles/`, { token: issued.body.access_token });
      return r.status === 401 ? r : undefined;
    });
    expect(later.body.detail).toMatch(/expired/);
  });

  it('an expired upload URL is refused with 403 and nothing is kept', async () => {
    const fresh = () => getToken(server, uploadTool);
    const id = await newProfile(server, await fresh());
    const url = (await request(`${server.api}/profiles/${id}/genotype/upload/`, { token: await fresh() })).body
      .url as string;
    const put = (body: string, type: string) =>
      request(url, { method: 'PUT', body, headers: { 'content-type': type } });
    // Until the URL expires, a wrong Content-Type is refused for that; once it has, for the
    // expiry, which is checked first. Polled so, no upload happens meanwhile.
    await pollUntil('the upload URL expiring', async () => {
      const r = await put('x', 'application/zip');
      return /expired/.test(r.body.detail) ? r : undefined;
    });
    const expired = await put('rs1\t1\t1000\tAA\n', 'text/plain');
    expect(expired.status).toBe(403);
    expect(expired.body.detail).toMatch(/expired/);
    expect((await request(`${server.api}/profiles/${id}/genotype/`, { token: await fresh() })).body).toEqual({});
  });
});
