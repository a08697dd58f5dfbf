/**
 * The hand-written fixture corpus (one file per format and quirk, see
 * test/fixtures/genotypes/expected.ts) through the real API: upload → processed →
 * genotype query, exactly as a third-party tool would see it. Rejected files must fail
 * with a readable reason and leave nothing behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCEPTED, REJECTED, type AcceptedFixture } from '../fixtures/genotypes/expected.js';
import { plainFixture, wrappedFixture } from '../fixtures/genotypes/wrap.js';
import { clientWithToken, request, startServer, upload, waitProcessed, type TestServer } from '../support/server.js';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  ({ token } = await clientWithToken(server, 'formats tool', ['--free-traits', 'none']));
});
afterAll(() => server?.stop());

async function uploadFixture(fixture: { file: string; wrap?: AcceptedFixture['wrap'] }) {
  const bytes = fixture.wrap ? await wrappedFixture(fixture.wrap) : await plainFixture(fixture.file);
  const contentType = fixture.wrap?.kind === 'zip' ? 'application/zip' : 'text/plain';
  const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: { first_name: fixture.file } })).body.id as string;
  const put = await upload(server, token, id, bytes, contentType);
  expect(put.status).toBe(200);
  return { id, meta: await waitProcessed(server, token, id) };
}

describe('accepted formats through the API', () => {
  for (const fixture of ACCEPTED) {
    it(`${fixture.file}${fixture.wrap ? ` (${fixture.wrap.kind})` : ''}`, async () => {
      const { id, meta } = await uploadFixture(fixture);
      expect(meta.metadata).toMatchObject({ status: 'processed', format: fixture.format, vendor: fixture.vendor, container: fixture.container, build: fixture.build });
      if (fixture.markers) {
        expect(meta.metadata.snp_count).toBe(fixture.markers.length);
        const rsids = fixture.markers.map((m) => m.split(' ')[0]);
        const snps = (await request(`${server.api}/profiles/${id}/genotype/snps/?rsid=${rsids.join(',')}`, { token })).body;
        const got = snps.map((s: { rsid: string; chromosome: string | null; position: number | null; genotype: string }) => `${s.rsid} ${s.chromosome ?? '0'} ${s.position ?? 0} ${s.genotype}`);
        expect(got).toEqual(fixture.markers);
      } else if (fixture.snpCount !== undefined) {
        expect(meta.metadata.snp_count).toBe(fixture.snpCount);
      }
      if (fixture.sex !== undefined) expect(meta.metadata.inferred_sex).toBe(fixture.sex);
    });
  }
});

describe('rejected files through the API', () => {
  for (const fixture of REJECTED) {
    it(`${fixture.file}${fixture.wrap ? ` (${fixture.wrap.kind})` : ''}`, async () => {
      const bytes = fixture.wrap ? await wrappedFixture(fixture.wrap) : await plainFixture(fixture.file);
      const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id as string;
      const put = await upload(server, token, id, bytes, fixture.wrap?.kind === 'zip' ? 'application/zip' : 'text/plain');
      if (bytes.length === 0) {
        expect(put.status).toBe(400); // an empty body is refused at the door
        return;
      }
      const meta = await waitProcessed(server, token, id);
      expect(meta.metadata.status).toBe('failed');
      expect(meta.metadata.error).toMatch(fixture.reason);
      expect(meta.metadata.snp_count).toBeUndefined();
      expect((await request(`${server.api}/profiles/${id}/traits/`, { token })).body).toEqual([]);
    });
  }
});
