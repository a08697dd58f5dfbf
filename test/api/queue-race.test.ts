/**
 * The queue bound holds when uploads arrive together: each upload holds its place in the
 * queue from the check (before its body is read) until its job is queued, so uploads whose
 * headers all arrive before any body has cannot all pass the check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chipMarkers, combine, twentyThreeAndMe } from '../support/genotypes.js';
import {
  clientWithToken,
  newProfile,
  request,
  startServer,
  waitProcessed,
  type TestServer,
} from '../support/server.js';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer({
    env: { TRAITSCOPE_WORKERS: '1', TRAITSCOPE_MAX_QUEUED_JOBS: '1', TRAITSCOPE_PARSE_WHILE_RECEIVING: '0' },
  });
  ({ token } = await clientWithToken(server, 'many uploads at once'));
});
afterAll(() => server?.stop());

describe('uploads arriving together', () => {
  it(
    'are let in only as far as the queue bound, the rest answered 503 with Retry-After',
    { timeout: 240_000 },
    async () => {
      // A body of 170 kB (as large as the featured traits' markers), which arrives after its
      // headers; chip-like markers of no trait, so the jobs let in are not followed by the
      // scoring of every featured trait.
      const file = twentyThreeAndMe(combine([chipMarkers(7_000, 7)]));
      const profiles: string[] = [];
      const urls: string[] = [];
      for (let i = 0; i < 8; i++) {
        const id = await newProfile(server, token);
        profiles.push(id);
        urls.push(
          (await request(`${server.api}/profiles/${id}/genotype/upload/?content-type=text%2Fplain`, { token })).body
            .url,
        );
      }
      // All at once: every request's headers reach the check before any body has arrived.
      const answers = await Promise.all(
        urls.map((url) => request(url, { method: 'PUT', body: file, headers: { 'content-type': 'text/plain' } })),
      );
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
        expect((await waitProcessed(server, token, profiles[i], 120_000)).metadata.status).toBe('processed');
      }
      const retry = profiles[answers.findIndex((a) => a.status === 503)];
      expect((await request(`${server.api}/profiles/${retry}/genotype/`, { token })).body).toEqual({});
    },
  );
});
