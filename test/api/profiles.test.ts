/** Profile CRUD: defaults, validation (405 naming the field), PUT vs PATCH, ordering, 404s, trailing slashes. */
import { beforeAll, describe, expect, it } from 'vitest';
import { Profile } from '../../src/shared/api.js';
import { clientWithToken, request, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'profiles tool'));
});

const create = (json: unknown) => request(`${server.api}/profiles/`, { method: 'POST', token, json });

describe('profiles', () => {
  it('ignores id, email and unknown properties; returns the seven keys of the spec and the reference_mixture extension', async () => {
    const r = await create({ id: 'mine', email: 'x@example.com', favourite_colour: 'blue', gender: 2, ethnicity: 4 });
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual([
      'age',
      'email',
      'ethnicity',
      'first_name',
      'gender',
      'id',
      'last_name',
      'reference_mixture',
    ]);
    expect(r.body).toMatchObject({ email: '', gender: 2, ethnicity: 4, age: null, first_name: '', last_name: '' });
    expect(r.body.id).not.toBe('mine');
    Profile.parse(r.body);
  });

  it('rejects invalid input with 405 naming the field, and stores nothing', async () => {
    const before = (await request(`${server.api}/profiles/`, { token })).body.length;
    const cases: Array<[unknown, RegExp]> = [
      [{ age: 151 }, /age/],
      [{ age: -1 }, /age/],
      [{ age: 3.5 }, /age/],
      [{ age: '30' }, /age/],
      [{ gender: 3 }, /gender/],
      [{ ethnicity: 6 }, /ethnicity/],
      [{ first_name: 'x'.repeat(101) }, /first_name/],
      [{ last_name: 42 }, /last_name/],
      [[1, 2], /JSON object/],
      ['just text', /JSON object/],
    ];
    for (const [json, pattern] of cases) {
      const r = await create(json);
      expect(r.status, JSON.stringify(json)).toBe(405);
      expect(r.body.detail).toMatch(pattern);
    }
    expect((await request(`${server.api}/profiles/`, { token })).body.length).toBe(before);
  });

  it('malformed JSON is a 400', async () => {
    const r = await request(`${server.api}/profiles/`, {
      method: 'POST',
      token,
      body: '{"first_name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/JSON/);
  });

  it('PUT resets omitted properties to defaults; PATCH changes only what is given', async () => {
    const { body: p } = await create({ first_name: 'Grace', last_name: 'Hopper', gender: 2, age: 85, ethnicity: 1 });
    const patched = await request(`${server.api}/profiles/${p.id}/`, { method: 'PATCH', token, json: { age: 86 } });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...p, age: 86 });
    const put = await request(`${server.api}/profiles/${p.id}/`, { method: 'PUT', token, json: { first_name: 'G.' } });
    expect(put.body).toEqual({
      id: p.id,
      email: '',
      first_name: 'G.',
      last_name: '',
      gender: 0,
      age: null,
      ethnicity: 0,
      reference_mixture: null,
    });
    const bad = await request(`${server.api}/profiles/${p.id}/`, {
      method: 'PATCH',
      token,
      json: { gender: 'female' },
    });
    expect(bad.status).toBe(405);
    expect((await request(`${server.api}/profiles/${p.id}/`, { token })).body).toEqual(put.body);
    const nullAge = await request(`${server.api}/profiles/${p.id}/`, { method: 'PATCH', token, json: { age: null } });
    expect(nullAge.body.age).toBeNull();
  });

  it('lists profiles oldest first, with and without the trailing slash', async () => {
    const a = (await create({ first_name: 'first' })).body;
    const b = (await create({ first_name: 'second' })).body;
    for (const url of [`${server.api}/profiles/`, `${server.api}/profiles`]) {
      const ids = (await request(url, { token })).body.map((p: { id: string }) => p.id);
      expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
    }
    expect((await request(`${server.api}/profiles/${a.id}`, { token })).body.id).toBe(a.id);
  });

  it('404 for unknown and malformed profile ids on every profile route', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      for (const [method, path] of [
        ['GET', ''],
        ['PUT', ''],
        ['PATCH', ''],
        ['DELETE', ''],
        ['GET', 'genotype/'],
        ['GET', 'genotype/upload/'],
        ['POST', 'genotype/upload/'],
      ]) {
        const r = await request(`${server.api}/profiles/${id}/${path}`, {
          method,
          token,
          json: method === 'GET' || method === 'DELETE' ? undefined : {},
        });
        expect(r.status, `${method} ${id}/${path}`).toBe(404);
        expect(r.body.detail).toMatch(/profile/i);
      }
    }
  });

  it('unknown API routes are 404 with a detail', async () => {
    const r = await request(`${server.api}/nothing-here`, { token });
    expect(r.status).toBe(404);
    expect(r.body.detail).toEqual(expect.any(String));
  });
});
