/**
 * OAuth2 client credentials, scopes, revocation, client isolation and the host guard. Token
 * expiry is test/api/expiry.test.ts's, on a service with short lifetimes.
 */
import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientWithToken, getToken, newClient, request, runCli, tempDir, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
beforeAll(() => {
  server = sharedServer();
});

const tokenUrl = () => `${server.origin}/oauth/token`;
const audience = () => `${server.api}/profiles`;

describe('POST /oauth/token', () => {
  it('issues a bearer token for JSON credentials', async () => {
    const creds = await newClient(server, 'json tool');
    const r = await request(tokenUrl(), {
      method: 'POST',
      json: { ...creds, audience: audience(), grant_type: 'client_credentials' },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 86400,
      scope: 'read:profiles write:profiles',
    });
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('accepts form-encoded bodies, HTTP Basic credentials and the localhost audience', async () => {
    const creds = await newClient(server, 'form tool');
    const form = new URLSearchParams({ ...creds, audience: audience(), grant_type: 'client_credentials' });
    const r = await request(tokenUrl(), {
      method: 'POST',
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(r.status).toBe(200);
    const basic = Buffer.from(`${creds.client_id}:${creds.client_secret}`).toString('base64');
    const b = await request(tokenUrl(), {
      method: 'POST',
      headers: { authorization: `Basic ${basic}` },
      json: { audience: `http://localhost:${server.port}/api/profiles/`, grant_type: 'client_credentials' },
    });
    expect(b.status).toBe(200);
  });

  it('answers RFC 6749 errors', async () => {
    const creds = await newClient(server, 'error tool');
    const base = { ...creds, audience: audience(), grant_type: 'client_credentials' };
    const cases: Array<[object, number, string]> = [
      [{ ...base, client_secret: 'wrong' }, 401, 'invalid_client'],
      [{ ...base, client_id: 'nobody' }, 401, 'invalid_client'],
      [{ ...base, grant_type: 'password' }, 400, 'unsupported_grant_type'],
      [{ ...base, audience: undefined }, 400, 'invalid_target'],
      [{ ...base, audience: 'https://api.example.com/profiles' }, 400, 'invalid_target'],
      [{ ...base, scope: 'admin' }, 400, 'invalid_scope'],
      [{ ...base, grant_type: undefined }, 400, 'invalid_request'],
    ];
    for (const [body, status, error] of cases) {
      const r = await request(tokenUrl(), { method: 'POST', json: body });
      expect(r.status, error).toBe(status);
      expect(r.body).toEqual({ error, error_description: expect.any(String) });
    }
    const malformed = await request(tokenUrl(), {
      method: 'POST',
      body: '{"client_id": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      error: 'invalid_request',
      error_description: expect.stringMatching(/could not be read/),
    });
    const get = await request(tokenUrl());
    expect(get.status).toBe(405);
  });
});

describe('one-time sign-in links for the web UI', () => {
  it('serve prints one; sign-in-link makes more; each code works once', async () => {
    expect(server.output()).toMatch(new RegExp(`http://127\\.0\\.0\\.1:${server.port}/#signin=[A-Za-z0-9_-]{40,}`));
    const link = runCli(['sign-in-link', '--data-dir', server.dataDir]);
    expect(link.status, link.stderr).toBe(0);
    const url = new URL(link.stdout.trim());
    expect(url.origin).toBe(server.origin);
    const code = url.hash.replace('#signin=', '');
    const first = await request(`${server.origin}/oauth/sign-in`, { method: 'POST', json: { code } });
    expect(first.status).toBe(200);
    expect(first.body.scope.split(' ')).toContain('manage:app');
    expect((await request(`${server.api}/app/info`, { token: first.body.access_token })).status).toBe(200);
    const again = await request(`${server.origin}/oauth/sign-in`, { method: 'POST', json: { code } });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'invalid_grant', error_description: expect.stringMatching(/already used/) });
    for (const json of [{ code: 'made-up' }, {}, { code: 42 }]) {
      expect((await request(`${server.origin}/oauth/sign-in`, { method: 'POST', json })).status).toBe(400);
    }
  });

  it('sign-in-link explains when no service runs on the folder', () => {
    const r = runCli(['sign-in-link', '--data-dir', tempDir()]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/no Traitscope data|not running/);
  });
});

describe('bearer tokens on /api', () => {
  it('401 with WWW-Authenticate without a token or with a bad one', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-a-token' }, { authorization: 'Basic abc' }] as Array<
      Record<string, string>
    >) {
      const r = await request(`${server.api}/profiles/`, { headers });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(r.body.detail).toEqual(expect.any(String));
    }
  });

  it('every operation of the error table answers 401 without a token', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    const ops: Array<[string, string]> = [
      ['POST', '/profiles/'],
      ['GET', '/profiles/'],
      ['GET', `/profiles/${id}/`],
      ['PUT', `/profiles/${id}/`],
      ['PATCH', `/profiles/${id}/`],
      ['DELETE', `/profiles/${id}/`],
      ['GET', `/profiles/${id}/genotype/`],
      ['GET', `/profiles/${id}/traits/`],
      ['POST', `/profiles/${id}/traits/`],
      ['GET', `/profiles/${id}/traits/x/`],
      ['PUT', `/profiles/${id}/traits/x/`],
      ['GET', `/profiles/${id}/genotype/upload/`],
      ['POST', `/profiles/${id}/genotype/upload/`],
      ['GET', '/traits/'],
    ];
    for (const [method, path] of ops) {
      const r = await request(`${server.api}${path}`, { method });
      expect(r.status, `${method} ${path}`).toBe(401);
    }
  });

  it('read:profiles allows GET only; write:profiles allows changes only (403 otherwise)', async () => {
    const reader = await clientWithToken(server, 'reader', { scopes: ['read:profiles'] });
    expect((await request(`${server.api}/profiles/`, { token: reader.token })).status).toBe(200);
    const denied = await request(`${server.api}/profiles/`, { method: 'POST', token: reader.token, json: {} });
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toMatch(/write:profiles/);

    const writer = await clientWithToken(server, 'writer', { scopes: ['write:profiles'] });
    const created = await request(`${server.api}/profiles/`, { method: 'POST', token: writer.token, json: {} });
    expect(created.status).toBe(201);
    expect((await request(`${server.api}/profiles/${created.body.id}/`, { token: writer.token })).status).toBe(403);
    expect(
      (
        await request(`${server.api}/profiles/${created.body.id}/traits/`, {
          method: 'POST',
          token: writer.token,
          json: [],
        })
      ).status,
    ).toBe(200);
  });

  it('a token may ask for a subset of its scopes', async () => {
    const creds = await newClient(server, 'narrow');
    const token = await getToken(server, creds, 'read:profiles');
    expect((await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).status).toBe(403);
  });

  it('tokens stop working when their client is revoked', async () => {
    const { creds, token } = await clientWithToken(server, 'to revoke');
    expect((await request(`${server.api}/profiles/`, { token })).status).toBe(200);
    expect(runCli(['clients', 'revoke', creds.client_id, '--data-dir', server.dataDir]).status).toBe(0);
    expect((await request(`${server.api}/profiles/`, { token })).status).toBe(401);
    const again = await request(tokenUrl(), {
      method: 'POST',
      json: { ...creds, audience: audience(), grant_type: 'client_credentials' },
    });
    expect(again.status).toBe(401);
  });
});

describe('client isolation', () => {
  it("a client never sees another client's profile: 404 on every profile-scoped route", async () => {
    const a = await clientWithToken(server, 'client A');
    const b = await clientWithToken(server, 'client B');
    const { body: profile } = await request(`${server.api}/profiles/`, {
      method: 'POST',
      token: a.token,
      json: { first_name: 'Private' },
    });
    expect((await request(`${server.api}/profiles/`, { token: b.token })).body).toEqual([]);
    const routes: Array<[string, string, unknown?]> = [
      ['GET', ''],
      ['PUT', '', {}],
      ['PATCH', '', {}],
      ['DELETE', ''],
      ['GET', 'genotype/'],
      ['GET', 'genotype/upload/'],
      ['POST', 'genotype/upload/'],
      ['GET', 'traits/'],
      ['POST', 'traits/', []],
      ['GET', 'traits/x/'],
      ['PUT', 'traits/x/'],
      ['GET', 'genotype/snps/?rsid=rs1'],
    ];
    for (const [method, path, json] of routes) {
      const r = await request(`${server.api}/profiles/${profile.id}/${path}`, { method, token: b.token, json });
      expect(r.status, `${method} ${path}`).toBe(404);
    }
    expect((await request(`${server.api}/profiles/${profile.id}/`, { token: a.token })).body.first_name).toBe(
      'Private',
    );
  });
});

describe('host guard', () => {
  it('refuses requests addressed to another host name (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/api/profiles/',
          headers: { host: `evil.example:${server.port}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
    const ok = await request(`http://localhost:${server.port}/api/openapi.json`);
    expect(ok.status).toBe(200);
  });

  it('serves the web UI with a strict CSP that forbids framing', async () => {
    const r = await request(`${server.origin}/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(r.headers.get('x-frame-options')).toBe('DENY');
  });

  it('sends no CORS headers', async () => {
    const r = await request(`${server.api}/openapi.json`, { headers: { origin: 'https://evil.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });
});
