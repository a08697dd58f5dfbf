/** Every genotype-reading route answers the same 409 before a file is processed, and 404 for a profile the caller does not have. */
import { beforeAll, describe, expect, it } from 'vitest';
import { NO_GENOTYPE_YET } from '../../src/service/http/genotype-required.js';
import { clientWithToken, request, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'genotype reader', { scopes: ['read:profiles', 'write:profiles'] }));
});

const reads = (id: string) => [
  { what: 'findings', url: `${server.api}/profiles/${id}/findings/`, init: {} },
  { what: 'drug–gene results', url: `${server.api}/profiles/${id}/pharmacogenes/`, init: {} },
  { what: 'marker lookup', url: `${server.api}/profiles/${id}/genotype/snps/?rsid=rs4988235`, init: {} },
  {
    what: 'marker lookup in the body',
    url: `${server.api}/profiles/${id}/genotype/snps/`,
    init: { method: 'POST', json: ['rs4988235'] },
  },
];

describe('reads that need a processed genotype', () => {
  it('answer 409 with one message saying what to do while the profile has none', async () => {
    const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
    for (const { what, url, init } of reads(id)) {
      const r = await request(url, { token, ...init });
      expect({ what, status: r.status, detail: r.body.detail }).toEqual({ what, status: 409, detail: NO_GENOTYPE_YET });
    }
    expect(NO_GENOTYPE_YET).toMatch(/Upload a file and wait for processing to finish/);
  });

  it('answer 404, not 409, for a profile the caller does not have', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const { what, url, init } of reads(id)) {
      const r = await request(url, { token, ...init });
      expect({ what, status: r.status }).toEqual({ what, status: 404 });
    }
  });
});
