/**
 * The conformance check every API test runs through (support/conformance-setup.ts) must
 * catch what a strict client would reject, or the suite would prove nothing.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { conformance } from './support/conformance.js';
import { violations } from './support/violations.js';

const profile = {
  id: '3f1c2a4e-8d2b-4c7e-9a51-0b6f4d2e7c10',
  email: '',
  first_name: 'Ada',
  last_name: '',
  gender: 2,
  age: null,
  ethnicity: 1,
  reference_mixture: null,
};
const base = 'http://127.0.0.1:4780';
const exchange = (method: string, path: string, status: number, body: unknown, extra: object = {}) =>
  conformance().problems({
    method,
    url: new URL(base + path),
    status,
    responseType: 'application/json; charset=utf-8',
    responseText: JSON.stringify(body),
    ...extra,
  });

describe('the conformance check', () => {
  it('accepts documented responses, with or without the trailing slash', () => {
    expect(exchange('GET', `/api/profiles/${profile.id}/`, 200, profile)).toEqual([]);
    expect(exchange('GET', `/api/profiles/${profile.id}`, 200, profile)).toEqual([]);
    expect(exchange('GET', '/api/profiles/', 404 + 27, { detail: 'too long' })).toEqual([]);
  });

  it('rejects undocumented fields, wrong types, statuses and content types', () => {
    expect(exchange('GET', `/api/profiles/${profile.id}/`, 200, { ...profile, extra: 1 }).join()).toMatch(/additional/);
    expect(exchange('GET', `/api/profiles/${profile.id}/`, 200, { ...profile, gender: 7 }).join()).toMatch(/gender/);
    expect(exchange('GET', `/api/profiles/${profile.id}/`, 409, { detail: 'x' }).join()).toMatch(/not documented/);
    expect(
      exchange('GET', `/api/profiles/${profile.id}/`, 200, profile, { responseType: 'text/plain' }).join(),
    ).toMatch(/Content-Type/);
    expect(exchange('GET', '/api/nothing-here', 200, {}).join()).toMatch(/undocumented operation/);
    expect(exchange('GET', '/api/nothing-here', 404, { error: 'x' }).join()).toMatch(/detail/);
  });

  it('rejects an accepted request body that the document would refuse, and allows unknown keys', () => {
    const created = (body: unknown) =>
      exchange('POST', '/api/profiles/', 201, profile, {
        requestType: 'application/json',
        requestBody: JSON.stringify(body),
      });
    expect(created({ first_name: 'Ada', id: 'x', unknown: true })).toEqual([]);
    expect(created({ age: 'old' }).join()).toMatch(/age/);
  });

  it('judges a body text seen before as it judged it then, and any other text afresh', () => {
    const url = `/api/profiles/${profile.id}/`;
    expect(exchange('GET', url, 200, profile)).toEqual([]);
    expect(exchange('GET', url, 200, profile)).toEqual([]);
    // The same body is checked against each operation's own schema: a Detail is no profile.
    expect(exchange('GET', url, 200, { detail: 'x' }).join()).toMatch(/does not match/);
    expect(exchange('GET', url, 200, { ...profile, gender: 7 }).join()).toMatch(/gender/);
    expect(exchange('GET', url, 200, { ...profile, gender: 7 }).join()).toMatch(/gender/);
    expect(exchange('GET', '/api/profiles/', 200, profile).join()).toMatch(/must be array/);
  });

  it('checks documented headers', () => {
    const headers = new Headers({ 'content-type': 'application/json' });
    expect(exchange('GET', '/api/profiles/', 401, { detail: 'x' }, { responseHeaders: headers }).join()).toMatch(
      /WWW-Authenticate/,
    );
  });

  it('is wired into fetch: a non-conforming answer from a local service fails the call', async () => {
    // A stand-in answering a documented route with an undocumented field, in place of the service.
    const fake = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(JSON.stringify([{ ...profile, secret: 'leaked' }]));
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = fake.address() as AddressInfo;
      await expect(fetch(`http://127.0.0.1:${port}/api/profiles/`)).rejects.toThrow(/does not conform.*additional/s);
    } finally {
      fake.close();
      // The setup also fails the test after a violation; this one was expected.
      violations.splice(0);
    }
  });
});
