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
import { deflateRawSync } from 'node:zlib';
import { crc32 } from '@node-rs/crc32';
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

/**
 * A ZIP64 archive as zip tools write it for streamed input, whatever the size: every size
 * and offset 0xffffffff in the 32-bit fields, the real ones in 0x0001 extra fields, and the
 * ZIP64 end record with its locator before the classic one.
 */
function zip64(name: string, content: Uint8Array): Buffer {
  const data = deflateRawSync(content);
  const crc = crc32(content);
  const file = Buffer.from(name);
  const u64 = (v: number) => {
    const b = Buffer.alloc(8);
    b.writeBigUInt64LE(BigInt(v));
    return b;
  };
  const extra = (...values: number[]) => {
    const head = Buffer.alloc(4);
    head.writeUInt16LE(0x0001, 0);
    head.writeUInt16LE(values.length * 8, 2);
    return Buffer.concat([head, ...values.map(u64)]);
  };
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(45, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(0xffffffff, 18);
  local.writeUInt32LE(0xffffffff, 22);
  local.writeUInt16LE(file.length, 26);
  const localExtra = extra(content.length, data.length);
  local.writeUInt16LE(localExtra.length, 28);
  const member = Buffer.concat([local, file, localExtra, data]);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(45, 4);
  central.writeUInt16LE(45, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(0xffffffff, 20);
  central.writeUInt32LE(0xffffffff, 24);
  central.writeUInt16LE(file.length, 28);
  const centralExtra = extra(content.length, data.length, 0);
  central.writeUInt16LE(centralExtra.length, 30);
  central.writeUInt32LE(0xffffffff, 42);
  const directory = Buffer.concat([central, file, centralExtra]);
  const end64 = Buffer.alloc(56);
  end64.writeUInt32LE(0x06064b50, 0);
  end64.writeBigUInt64LE(44n, 4);
  end64.writeUInt16LE(45, 12);
  end64.writeUInt16LE(45, 14);
  end64.writeBigUInt64LE(1n, 24);
  end64.writeBigUInt64LE(1n, 32);
  end64.writeBigUInt64LE(BigInt(directory.length), 40);
  end64.writeBigUInt64LE(BigInt(member.length), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(member.length + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(0xffffffff, 12);
  end.writeUInt32LE(0xffffffff, 16);
  return Buffer.concat([member, directory, end64, locator, end]);
}

describe('ZIP64', () => {
  it('reads a ZIP64 archive instead of calling it truncated', async () => {
    const [fixture] = pick(ACCEPTED, ['23andme_v5.txt']);
    const bytes = zip64('genome_Ada_v5.txt', await plainFixture(fixture.file));
    const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id as string;
    expect((await upload(server, token, id, bytes, 'application/zip')).status).toBe(200);
    const meta = await waitProcessed(server, token, id);
    expect(meta.metadata).toMatchObject({ status: 'processed', container: 'zip', vendor: fixture.vendor });
    expect(meta.metadata.snp_count).toBe(fixture.markers!.length);
    // The same archive with its data cut short is damaged, and said to be.
    const cut = Buffer.concat([bytes.subarray(0, 40), bytes.subarray(bytes.length - 200)]);
    const broken = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id as string;
    await upload(server, token, broken, cut, 'application/zip');
    const failed = await waitProcessed(server, token, broken);
    expect(failed.metadata.status).toBe('failed');
    expect(failed.metadata.error).toMatch(/zip archive is damaged/);
  });
});
