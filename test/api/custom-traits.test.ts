/**
 * Bring your own score through the app: a PGS Catalog scoring file imported with the CLI
 * (while the service runs) or through the app route becomes a trait that profiles can
 * compute; bad files are refused with a reason; removal takes its assessments along.
 * The file starts a service of its own: an imported trait joins every client's trait list,
 * which the files on the shared service read. The CLI runs where the command itself is
 * tested (an import while the service runs, its refusals); the rest goes through the API.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { gzipSync } from 'node:zlib';
import { positionIndex, twentyThreeAndMe } from '../support/genotypes.js';
import { parseGenotypeBytes } from '../../src/service/genotype/parse/index.js';
import { liftoverOf } from '../../src/service/genotype/liftover.js';
import { importPgsScoringFile } from '../../src/service/science/pgs-import.js';
import {
  effectCount,
  LEFT_OUT,
  NO_CALLS,
  OTHER_LETTERS,
  personMarkers,
  positionScoreFile,
  positionScoreRows,
  positionScoreVcf,
  type ScoreRow,
} from '../support/position-score.js';
import {
  clientWithToken,
  newProfile,
  request,
  ROOT,
  runCli,
  startServer,
  tempDir,
  upload,
  waitProcessed,
  type TestServer,
} from '../support/server.js';

const FIXTURES = path.join(ROOT, 'test', 'science', 'fixtures');
let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  ({ token } = await clientWithToken(server, 'custom traits'));
});
afterAll(() => server?.stop());

/** `traitscope traits import` of a scoring file written for the purpose, on this file's service's data folder. */
function cliImport(name: string, text: string, args: string[]): ReturnType<typeof runCli> {
  const dir = tempDir();
  writeFileSync(path.join(dir, name), text);
  try {
    return runCli(['traits', 'import', path.join(dir, name), ...args, '--data-dir', server.dataDir]);
  } finally {
    rmSync(dir, { recursive: true });
  }
}

describe('custom traits', () => {
  it(
    'the CLI imports a scoring file while the service runs and the API offers the trait',
    { timeout: 180_000 },
    async () => {
      const r = runCli(['traits', 'import', path.join(FIXTURES, 'PGS000001.txt.gz'), '--data-dir', server.dataDir]);
      expect(r.status, r.stderr).toBe(0);
      const code = /as trait (\S+):/.exec(r.stdout)![1];
      const traits = (await request(`${server.api}/traits/?q=${code}`, { token })).body;
      expect(traits.map((t: any) => t.trait.code)).toEqual([code]);

      const list = (await request(`${server.api}/app/traits/`, { token: server.appToken })).body;
      expect(list.map((t: any) => t.trait.code)).toContain(code);

      // A genotype carrying the score's markers (homozygous for the other allele) makes it computable.
      const db = new Database(path.join(server.dataDir, 'traitscope.db'), { readonly: true });
      const def = JSON.parse(
        (db.prepare('SELECT definition FROM custom_traits WHERE code = ?').get(code) as { definition: string })
          .definition,
      );
      db.close();
      const markers = def.markers.rsid.map((rsid: number, i: number) => ({
        rsid,
        chrom: 1,
        pos: 1000 + i,
        genotype: def.markers.other[i] + def.markers.other[i],
      }));
      const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: { ethnicity: 1 } })).body.id;
      await upload(server, token, id, twentyThreeAndMe(markers));
      await waitProcessed(server, token, id);
      expect((await request(`${server.api}/profiles/${id}/traits/${code}/`, { token })).body.status).toBe('available');
      const computed = (await request(`${server.api}/profiles/${id}/traits/${code}/`, { method: 'PUT', token })).body;
      expect(computed).toMatchObject({ status: 'computed', coverage: 1, score: 0 });
      expect(computed.snps.length).toBe(markers.length);

      const again = runCli(['traits', 'import', path.join(FIXTURES, 'PGS000001.txt.gz'), '--data-dir', server.dataDir]);
      expect(again.status).toBe(1);
      expect(again.stderr).toMatch(/already exists/);
    },
  );

  it('a code already taken is refused as soon as the header names it, before the rows are read, through the app and the CLI', async () => {
    // One row no marker matches: a file read and matched to the end is refused for that instead.
    const unusable = '#pgs_id=PGS999999\nrsID\teffect_allele\teffect_weight\nrs1\tA\t0.1\n';
    const taken = 'type_2_diabetes'; // a built-in trait
    const listed = async () => (await request(`${server.api}/app/traits/`, { token: server.appToken })).body;
    const importAs = (code: string) =>
      request(`${server.api}/app/traits/?file_name=unusable.txt&code=${code}`, {
        method: 'POST',
        token: server.appToken,
        body: unusable,
        headers: { 'content-type': 'application/octet-stream' },
      });
    const before = await listed();

    const refused = await importAs(taken);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toBe(
      `A trait with code "${taken}" already exists. Remove the earlier import first, or choose another code.`,
    );
    const free = await importAs('custom_unused_code');
    expect(free.status).toBe(422);
    expect(free.body.detail).toMatch(/^Only 0 of 1 variants could be matched/);

    const cli = cliImport('unusable.txt', unusable, ['--code', taken]);
    expect(cli.status).toBe(1);
    expect(cli.stderr.trim()).toBe(refused.body.detail);
    expect(await listed()).toEqual(before);
  });

  it('the app route imports, refuses bad files with a reason, and removes', async () => {
    const bytes = readFileSync(path.join(FIXTURES, 'PGS000802_hmPOS_GRCh37.txt'));
    const created = await request(`${server.api}/app/traits/?file_name=PGS000802.txt`, {
      method: 'POST',
      token: server.appToken,
      body: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.report.usable).toBeGreaterThan(0);
    const code = created.body.trait.code;

    const bad = await request(`${server.api}/app/traits/`, {
      method: 'POST',
      token: server.appToken,
      body: 'this is not a scoring file\n',
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.detail.length).toBeGreaterThan(20);

    const notApp = await request(`${server.api}/app/traits/`, { token });
    expect(notApp.status).toBe(403);

    expect(
      (await request(`${server.api}/app/traits/${code}/`, { method: 'DELETE', token: server.appToken })).status,
    ).toBe(200);
    expect((await request(`${server.api}/traits/?q=${code}`, { token })).body).toEqual([]);
    expect(
      (await request(`${server.api}/app/traits/${code}/`, { method: 'DELETE', token: server.appToken })).status,
    ).toBe(404);
  });

  it('the whole trait list and its ETag follow an import, a removal and each client’s free traits', async () => {
    // GET /api/traits/ without a filter is kept as bytes per engine and client configuration.
    const whole = async (t: string, query = '') => {
      const r = await fetch(`${server.api}/traits/${query}`, { headers: { authorization: `Bearer ${t}` } });
      const text = await r.text();
      return {
        tag: r.headers.get('etag')!,
        text,
        list: JSON.parse(text) as Array<{ trait: { code: string }; type: string }>,
      };
    };
    // Lists of some 2,000 traits are compared as the text sent: a deep comparison of the parsed
    // lists cost more CPU than any other check here.
    const expectSameList = (now: Awaited<ReturnType<typeof whole>>, then: typeof now, what: string) => {
      expect(now.tag, what).toBe(then.tag);
      expect(now.text === then.text, `${what}: the same text`).toBe(true);
    };
    const codes = (l: Array<{ trait: { code: string } }>) => l.map((e) => e.trait.code);
    const before = await whole(token);
    const compactBefore = await whole(token, '?view=compact');
    const unchanged = await fetch(`${server.api}/traits/`, {
      headers: { authorization: `Bearer ${token}`, 'if-none-match': before.tag },
    });
    expect(unchanged.status).toBe(304);

    const created = await request(`${server.api}/app/traits/?file_name=PGS000802.txt`, {
      method: 'POST',
      token: server.appToken,
      body: readFileSync(path.join(FIXTURES, 'PGS000802_hmPOS_GRCh37.txt')),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const code: string = created.body.trait.code;
    const withImport = await whole(token);
    expect(codes(withImport.list)).toEqual([...codes(before.list), code]);
    expect(withImport.tag).not.toBe(before.tag);
    expect(codes((await whole(token, '?view=compact')).list)).toContain(code);

    // Another client's configuration gets its own list from the same engine.
    const { token: noneFree } = await clientWithToken(server, 'nothing free', { free_traits: 'none' });
    const basic = await whole(noneFree);
    expect(codes(basic.list)).toEqual(codes(withImport.list));
    expect(new Set(basic.list.map((e) => e.type))).toEqual(new Set(['basic']));
    expect(withImport.list.some((e) => e.type === 'free')).toBe(true);

    expect(
      (await request(`${server.api}/app/traits/${code}/`, { method: 'DELETE', token: server.appToken })).status,
    ).toBe(200);
    expectSameList(await whole(token), before, 'the list after the removal is the one before the import');
    expectSameList(await whole(token, '?view=compact'), compactBefore, 'so is the compact list');
  });

  it(
    'a position-only score is matched against a profile’s own file when imported for that profile',
    { timeout: 180_000 },
    async () => {
      const rows = positionScoreRows();
      const id = await newProfile(server, token, { ethnicity: 1 });
      const importFor = (profile: string) =>
        request(`${server.api}/app/traits/?file_name=by-position.txt&code=custom_by_position&profile_id=${profile}`, {
          method: 'POST',
          token: server.appToken,
          body: positionScoreFile(rows),
          headers: { 'content-type': 'application/octet-stream' },
        });
      // Before the profile has a genotype: refused, saying what to do.
      const early = await importFor(id);
      expect(early.status).toBe(422);
      expect(early.body.detail).toMatch(/has no genotype file.*Upload the person's raw data file first/);
      expect((await importFor('no-such-profile')).body.detail).toMatch(/There is no profile "no-such-profile"/);
      // The command line says the same.
      const cli = cliImport('by-position.txt', positionScoreFile(rows), ['--profile', id]);
      expect(cli.status).toBe(1);
      expect(cli.stderr).toMatch(/has no genotype file to match the scoring file's positions against/);

      await upload(server, token, id, twentyThreeAndMe(personMarkers(rows), 'full'));
      await waitProcessed(server, token, id);
      const created = await importFor(id);
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const report = created.body.report;
      const matched = rows.filter((x) => x.snv).length - LEFT_OUT - NO_CALLS - OTHER_LETTERS;
      expect(report.matched_by).toMatchObject({ rsid: 0, hm_rsid: 0, position: matched, position_lifted: 0 });
      expect(report.matched_by.position_genotype).toBeGreaterThan(0.75 * rows.length);
      expect(report.match_rate).toBeGreaterThanOrEqual(0.75);
      expect(report.percentile).toBe(false);

      const code = created.body.trait.code;
      const computed = (await request(`${server.api}/profiles/${id}/traits/${code}/`, { method: 'PUT', token })).body;
      expect(computed).toMatchObject({ status: 'computed', coverage: 1, percentile: null });
      // The stored definition's markers (the API's trait carries no marker list).
      const db = new Database(path.join(server.dataDir, 'traitscope.db'), { readonly: true });
      const row = db.prepare('SELECT definition FROM custom_traits WHERE code = ?').get(code) as { definition: string };
      db.close();
      const kept = new Set<number>(JSON.parse(row.definition).markers.rsid);
      expect(kept.size).toBe(report.usable);
      const expected = rows.filter((x) => kept.has(x.rsid)).reduce((sum, x) => sum + x.weight * effectCount(x), 0);
      expect(computed.score).toBeCloseTo(expected, 8);

      expect(
        (await request(`${server.api}/app/traits/${code}/`, { method: 'DELETE', token: server.appToken })).status,
      ).toBe(200);
    },
  );
  it(
    'a position-only score is read from a profile’s GRCh38 VCF without rsIDs, and scores that person as the chip file does',
    { timeout: 180_000 },
    async () => {
      const rows = positionScoreRows();
      const lift = liftoverOf(path.join(ROOT, 'resources'));
      const at38 = (x: ScoreRow) => lift('22', x.pos37, 37, 38);
      const id = await newProfile(server, token, { ethnicity: 1 });
      const importAs = (code: string) =>
        request(`${server.api}/app/traits/?file_name=by-position.txt&code=${code}&profile_id=${id}`, {
          method: 'POST',
          token: server.appToken,
          body: positionScoreFile(rows),
          headers: { 'content-type': 'application/octet-stream' },
        });
      const vcf = gzipSync(positionScoreVcf(rows, { position: at38, sites: 'all' }));
      await upload(server, token, id, vcf);
      await waitProcessed(server, token, id);
      const created = await importAs('custom_from_vcf');
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const report = created.body.report;
      expect(report.match_rate).toBeGreaterThanOrEqual(0.75);
      expect(report.matched_by.position_file).toBeGreaterThan(0.75 * rows.length - rows.filter((x) => x.known).length);

      // The chip file's markers, but for the positions that do not lift to GRCh38: the same score.
      const chip = await parseGenotypeBytes(Buffer.from(twentyThreeAndMe(personMarkers(rows), 'full')), {
        positionIndex: positionIndex(),
      });
      if (!chip.ok) throw new Error(chip.reason);
      const fromChip = importPgsScoringFile(Buffer.from(positionScoreFile(rows)), {
        resourcesDir: path.join(ROOT, 'resources'),
        genotype: { genotype: chip.genotype, build: 37, label: 'the chip file', lift },
      });
      if (!fromChip.ok) throw new Error(fromChip.error);
      const kept = new Set(fromChip.trait.markers.rsid);
      const shared = rows.filter((x) => kept.has(x.rsid) && at38(x) !== null);
      expect(report.usable).toBe(shared.length);
      const computed = (await request(`${server.api}/profiles/${id}/traits/custom_from_vcf/`, { method: 'PUT', token }))
        .body;
      expect(computed).toMatchObject({ status: 'computed', coverage: 1, percentile: null });
      expect(computed.score).toBeCloseTo(
        shared.reduce((sum, x) => sum + x.weight * effectCount(x), 0),
        8,
      );

      // The calls of the markers read joined the profile's genotype: a second import finds them
      // there (the palindromes left out for want of a frequency are read from the file again).
      const again = await importAs('custom_from_vcf_again');
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      const first = report.matched_by;
      const second = again.body.report.matched_by;
      expect(second.position).toBe(first.position);
      expect(second.position_genotype).toBeGreaterThan(first.position_genotype + 0.75 * first.position_file);
      expect(second.position_genotype + second.position_file).toBe(first.position_genotype + first.position_file);
      const db = new Database(path.join(server.dataDir, 'traitscope.db'), { readonly: true });
      const markers = (code: string) =>
        JSON.parse(
          (db.prepare('SELECT definition FROM custom_traits WHERE code = ?').get(code) as { definition: string })
            .definition,
        ).markers.rsid;
      expect(markers('custom_from_vcf_again')).toEqual(markers('custom_from_vcf'));
      db.close();
      for (const code of ['custom_from_vcf', 'custom_from_vcf_again'])
        expect(
          (await request(`${server.api}/app/traits/${code}/`, { method: 'DELETE', token: server.appToken })).status,
        ).toBe(200);
    },
  );
});
