/**
 * A file is a genome only if its calls look like one person's: the hostile files that used
 * to be stored and scored as a person (a table of risk alleles with or without its header,
 * a file with every call homozygous, a file of no-calls) are refused as a first upload, and
 * wait for a confirmation as a replacement, with the reason in words; two people interleaved
 * in one file are refused, naming the conflict count. Real exports of every vendor, and a
 * whole-genome VCF of variant sites, pass.
 *
 * The simulated exports that must pass hold 60,000 markers in `npm run test:all` and 20,000 in
 * `npm test` (test/support/science-scale.ts): each vendor's format and a VCF still pass with
 * twenty times the 1,000 autosomal calls the rules need before they judge.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { genomeConcern } from '../../src/service/genotype/plausibility.js';
import { parseGenotypeBytes } from '../../src/service/genotype/parse/index.js';
import { ACCEPTED } from '../fixtures/genotypes/expected.js';
import { rng } from '../support/prng.js';
import { scienceSize } from '../support/science-scale.js';
import {
  ancestryDna,
  chipMarkers,
  combine,
  personFile,
  twentyThreeAndMe,
  vendorFile,
  type Marker,
} from '../support/genotypes.js';
import { clientWithToken, request, upload, waitProcessed, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

const enc = (s: string) => new TextEncoder().encode(s);

/** `count` rows of rsID, chromosome 1-22, position and one letter: a GWAS risk-allele table. */
function riskAlleleRows(count: number, seed: number): string[] {
  const random = rng(seed);
  const rows: string[] = [];
  for (let i = 0; i < count; i++)
    rows.push(
      `rs${1000 + i * 37},${1 + Math.floor(random() * 22)},${1 + Math.floor(random() * 2e8)},${'ACGT'[Math.floor(random() * 4)]}`,
    );
  return rows;
}

const homozygous = (markers: Marker[]) =>
  markers.map((m) => (m.genotype.length === 2 ? { ...m, genotype: m.genotype[0] + m.genotype[0] } : m));

/** A second person at the same markers: calls drawn again. */
function otherPerson(markers: Marker[], seed: number): Marker[] {
  const random = rng(seed);
  return markers.map((m) => {
    if (m.genotype.length !== 2 || m.genotype === '--') return m;
    const alleles = m.genotype.split('');
    return { ...m, genotype: alleles[Math.floor(random() * 2)] + alleles[Math.floor(random() * 2)] };
  });
}

/** `make`'s text, built when first asked for and then kept: tests that upload a file another test reads reuse it. */
function once(make: () => string): () => string {
  let text: string | undefined;
  return () => (text ??= make());
}

const HOSTILE = {
  riskTable: once(() => ['rsid,chromosome,position,risk_allele', ...riskAlleleRows(5000, 1)].join('\n') + '\n'),
  riskRows: once(() => riskAlleleRows(20_000, 2).join('\n') + '\n'),
  allHomozygous: once(() => twentyThreeAndMe(homozygous(chipMarkers(61_000, 3, { internalIds: false })))),
  noCalls: once(() =>
    twentyThreeAndMe(chipMarkers(20_000, 4, { internalIds: false }).map((m) => ({ ...m, genotype: '--' }))),
  ),
};

const interleaved = once(() => {
  const one = chipMarkers(30_000, 5, { internalIds: false });
  const two = otherPerson(one, 6);
  return twentyThreeAndMe(one.flatMap((m, i) => [m, two[i]]));
});

/** A whole-genome VCF of variant sites only: mostly heterozygous and homozygous-alternate calls. */
function variantsOnlyVcf(count: number, seed: number): string {
  const random = rng(seed);
  const lines = [
    '##fileformat=VCFv4.2',
    '##reference=GRCh37',
    '##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">',
    '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tSAMPLE',
  ];
  let pos = 10_000;
  for (let i = 0; i < count; i++) {
    pos += 1 + Math.floor(random() * 3000);
    const chrom = 1 + Math.floor((i / count) * 22);
    lines.push(`${chrom}\t${pos}\trs${10_000 + i * 13}\tA\tG\t50\tPASS\t.\tGT\t${random() < 0.65 ? '0/1' : '1/1'}`);
  }
  return lines.join('\n') + '\n';
}

async function concernOf(text: string) {
  const parsed = await parseGenotypeBytes(enc(text));
  if (!parsed.ok) return { refused: parsed.reason };
  return { concern: genomeConcern(parsed.genotype, parsed.summary) };
}

describe('whose calls a genome has (genomeConcern)', () => {
  it('names what no person has in each hostile file that parses', async () => {
    expect((await concernOf(HOSTILE.riskTable())).concern).toMatch(
      /5,000 of its 5,000 calls on chromosomes 1-22 name a single allele/,
    );
    expect((await concernOf(HOSTILE.riskRows())).concern).toMatch(/20,000 of its 20,000 calls .* single allele/);
    expect((await concernOf(HOSTILE.allHomozygous())).concern).toMatch(
      /only 0 of its [\d,]+ calls .* \(0 %\) are heterozygous/,
    );
    expect((await concernOf(HOSTILE.noCalls())).concern).toMatch(/none of its [\d,]+ markers has a call/);
  });

  it('refuses two people interleaved in one file, naming the conflict count', async () => {
    const { refused } = await concernOf(interleaved());
    expect(refused).toMatch(
      /^[\d,]+ of this file's 30,000 markers appear more than once with different genotypes: it looks like two people's/,
    );
    const conflicts = Number(refused!.split(' ')[0].replace(/,/g, ''));
    expect(conflicts).toBeGreaterThan(3000);
  });

  it('passes every accepted fixture, simulated exports of each vendor and a variants-only VCF', async () => {
    for (const fixture of ACCEPTED.filter((f) => !f.wrap)) {
      const parsed = await parseGenotypeBytes(
        readFileSync(new URL(`../fixtures/genotypes/${fixture.file}`, import.meta.url)),
      );
      expect(parsed.ok, fixture.file).toBe(true);
      if (parsed.ok) expect(genomeConcern(parsed.genotype, parsed.summary), fixture.file).toBeNull();
    }
    const size = scienceSize(20_000, 60_000);
    const chip = chipMarkers(size, 8);
    for (const text of [
      twentyThreeAndMe(chip, 'full'),
      ancestryDna(chip, 'full'),
      vendorFile('ftdna', chip, 'full'),
      personFile({ seed: 9 }),
      twentyThreeAndMe(combine([chipMarkers(size / 2, 10), chipMarkers(size / 2, 11)])),
      variantsOnlyVcf(Math.round((size * 2) / 3), 12),
    ]) {
      const { concern, refused } = await concernOf(text);
      expect(refused).toBeUndefined();
      expect(concern).toBeNull();
    }
  });
});

describe('through the API', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = sharedServer();
    ({ token } = await clientWithToken(server, 'plausibility tool'));
  });
  const newProfile = async () =>
    (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id as string;

  it('refuses each hostile file as a first upload, with the reason, and stores no genotype', async () => {
    for (const [name, make] of [...Object.entries(HOSTILE), ['interleaved', interleaved] as const]) {
      const id = await newProfile();
      expect((await upload(server, token, id, make())).status, name).toBe(200);
      const meta = await waitProcessed(server, token, id);
      expect(meta.metadata.status, name).toBe('failed');
      expect(meta.metadata.error, name).toMatch(/does not look like one person's genotype|two people's raw data/);
      expect(meta.metadata.snp_count, name).toBeUndefined();
      const traits = await request(`${server.api}/profiles/${id}/traits/?score`, { token });
      expect(traits.body, name).toEqual([]);
    }
  }, 120_000);

  it('holds back an all-homozygous file over a real genome until confirm_replace=true', async () => {
    const id = await newProfile();
    await upload(server, token, id, twentyThreeAndMe(chipMarkers(61_000, 13, { internalIds: false })));
    const before = await waitProcessed(server, token, id);
    expect(before.metadata.status).toBe('processed');

    await upload(server, token, id, HOSTILE.allHomozygous());
    const sync = await request(`${server.api}/profiles/${id}/genotype/upload/`, { method: 'POST', token });
    expect(sync.status).toBe(422);
    expect(sync.body.detail).toMatch(/does not look like one person's genotype: only 0 of its [\d,]+ calls/);
    expect(sync.body.detail).toContain(`/api/profiles/${id}/genotype/upload/?confirm_replace=true`);
    const waiting = (await request(`${server.api}/profiles/${id}/genotype/`, { token })).body;
    expect(waiting.metadata).toMatchObject({ status: 'failed', needs_confirmation: true });
    expect(waiting.metadata.snp_count).toBe(before.metadata.snp_count);

    const confirmed = await request(`${server.api}/profiles/${id}/genotype/upload/?confirm_replace=true`, {
      method: 'POST',
      token,
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const after = (await request(`${server.api}/profiles/${id}/genotype/`, { token })).body;
    expect(after.metadata.status).toBe('processed');
    expect(after.md5_hash).not.toBe(before.md5_hash);
  }, 120_000);
});
