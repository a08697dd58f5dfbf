/**
 * Fixtures of the hand-written corpus (test/fixtures/genotypes/expected.ts) through the real
 * API: upload → processed → genotype query, exactly as a third-party tool would see it.
 * Rejected files must fail with a readable reason and leave nothing behind.
 *
 * Every fixture is parsed, and checked against the same expectations, by
 * test/parser/fixtures.test.ts; the service hands every format to that parser and reports
 * its summary by one path. So the corpus runs once there, and here one file per container
 * (plain, gzip, zip, tar.gz, zip of a gzip), per upload Content-Type and per way of
 * failing: the API's part, without uploading 55 files (about 45 s) a second time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCEPTED, REJECTED, type AcceptedFixture } from '../fixtures/genotypes/expected.js';
import { plainFixture, wrappedFixture } from '../fixtures/genotypes/wrap.js';
import { clientWithToken, request, upload, waitProcessed, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'formats tool', { free_traits: 'none' }));
});

async function uploadFixture(fixture: { file: string; wrap?: AcceptedFixture['wrap'] }) {
  const bytes = fixture.wrap ? await wrappedFixture(fixture.wrap) : await plainFixture(fixture.file);
  const contentType = fixture.wrap?.kind === 'zip' ? 'application/zip' : 'text/plain';
  const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: { first_name: fixture.file } }))
    .body.id as string;
  const put = await upload(server, token, id, bytes, contentType);
  expect(put.status).toBe(200);
  return { id, meta: await waitProcessed(server, token, id) };
}

/** Plain 23andMe and VCF, a sex call, and each container; application/zip for the zips. */
const ACCEPTED_VIA_API = [
  '23andme_v5.txt',
  'vcf_single.vcf',
  'sex_male_23andme.txt',
  '23andme_v5.txt.gz',
  'ancestry_with_junk.zip',
  'genome.tar.gz',
  'vcf_in_zip.zip',
];
/** Refused at the door (empty), by content (an image), inside a zip, and a damaged gzip. */
const REJECTED_VIA_API = ['empty.txt', 'image.png', 'junk_only.zip', 'truncated.txt.gz'];

const pick = <T extends { file: string }>(all: T[], names: string[]): T[] =>
  names.map((name) => {
    const found = all.find((f) => f.file === name);
    if (!found) throw new Error(`${name} is not in test/fixtures/genotypes/expected.ts`);
    return found;
  });

describe('accepted formats through the API', () => {
  for (const fixture of pick(ACCEPTED, ACCEPTED_VIA_API)) {
    it(`${fixture.file}${fixture.wrap ? ` (${fixture.wrap.kind})` : ''}`, async () => {
      const { id, meta } = await uploadFixture(fixture);
      expect(meta.metadata).toMatchObject({
        status: 'processed',
        format: fixture.format,
        vendor: fixture.vendor,
        container: fixture.container,
        build: fixture.build,
      });
      if (fixture.markers) {
        expect(meta.metadata.snp_count).toBe(fixture.markers.length);
        const rsids = fixture.markers.map((m) => m.split(' ')[0]);
        const snps = (await request(`${server.api}/profiles/${id}/genotype/snps/?rsid=${rsids.join(',')}`, { token }))
          .body;
        const got = snps.map(
          (s: { rsid: string; chromosome: string | null; position: number | null; genotype: string }) =>
            `${s.rsid} ${s.chromosome ?? '0'} ${s.position ?? 0} ${s.genotype}`,
        );
        expect(got).toEqual(fixture.markers);
      } else if (fixture.snpCount !== undefined) {
        expect(meta.metadata.snp_count).toBe(fixture.snpCount);
      }
      if (fixture.sex !== undefined) expect(meta.metadata.inferred_sex).toBe(fixture.sex);
    });
  }
});

describe('rejected files through the API', () => {
  for (const fixture of pick(REJECTED, REJECTED_VIA_API)) {
    it(`${fixture.file}${fixture.wrap ? ` (${fixture.wrap.kind})` : ''}`, async () => {
      const bytes = fixture.wrap ? await wrappedFixture(fixture.wrap) : await plainFixture(fixture.file);
      const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id as string;
      const put = await upload(
        server,
        token,
        id,
        bytes,
        fixture.wrap?.kind === 'zip' ? 'application/zip' : 'text/plain',
      );
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
