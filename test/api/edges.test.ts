/**
 * The API's edges as a third-party developer meets them: every error body carries a
 * machine-readable `code` beside `detail`; 401 says how to authenticate (WWW-Authenticate),
 * 405 which methods a path takes (Allow), 201 where the new resource is (Location); the
 * events stream needs a token that may read results.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { clientWithToken, request, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'edges tool'));
});

describe('error bodies', () => {
  it('carry a code beside the detail, per status', async () => {
    const cases: Array<[Promise<{ status: number; body: any; headers: Headers }>, number, string]> = [
      [request(`${server.api}/profiles/`), 401, 'unauthenticated'],
      [request(`${server.api}/profiles/00000000-0000-4000-8000-000000000000/`, { token }), 404, 'not_found'],
      [request(`${server.api}/profiles/`, { method: 'PATCH', token, json: {} }), 405, 'method_not_allowed'],
      // The spec answers invalid profile input with 405.
      [request(`${server.api}/profiles/`, { method: 'POST', token, json: { age: 'old' } }), 405, 'invalid_input'],
      [
        request(`${server.api}/profiles/`, {
          method: 'POST',
          token,
          body: '{"first_name": ',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'invalid_json',
      ],
      [request(`${server.api}/nothing-here`, { token }), 404, 'not_found'],
    ];
    for (const [pending, status, code] of cases) {
      const r = await pending;
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      expect(r.body).toEqual({ detail: expect.any(String), code });
    }
  });

  it('401 names the scheme, 405 the methods the path takes', async () => {
    const unauthenticated = await request(`${server.api}/profiles/`);
    expect(unauthenticated.headers.get('www-authenticate')).toMatch(/^Bearer realm="traitscope"/);
    const wrongMethod = await request(`${server.api}/profiles/`, { method: 'PATCH', token, json: {} });
    expect(wrongMethod.headers.get('allow')).toMatch(/GET/);
    expect(wrongMethod.headers.get('allow')).toMatch(/POST/);
  });
});

it('names every bad field of an input, not only the first', async () => {
  const r = await request(`${server.api}/profiles/`, {
    method: 'POST',
    token,
    json: { age: 'old', gender: 7, first_name: 3 },
  });
  expect(r.body.code).toBe('invalid_input');
  for (const field of ['age', 'gender', 'first_name']) expect(r.body.detail).toContain(field);
});

it('201 says where the new profile is', async () => {
  const created = await request(`${server.api}/profiles/`, { method: 'POST', token, json: { first_name: 'Located' } });
  expect(created.status).toBe(201);
  expect(created.headers.get('location')).toBe(`/api/profiles/${created.body.id}/`);
  expect((await request(`${server.origin}${created.headers.get('location')}`, { token })).body.first_name).toBe(
    'Located',
  );
});

it('the events stream and its URL need read:profiles: a write-only token is refused, naming the scope', async () => {
  const writer = await clientWithToken(server, 'write-only tool', { scopes: ['write:profiles'] });
  for (const path of ['/events', '/events/url']) {
    const r = await request(`${server.api}${path}`, { token: writer.token });
    expect(r.status, path).toBe(403);
    expect(r.body.detail, path).toContain('"read:profiles"');
    expect(r.body.code, path).toBe('forbidden');
  }
});
