/**
 * A position-only genome-wide score (PGS000586-like) imported for a person whose file is a
 * GRCh38 whole-genome VCF without rsIDs: the parsed genotype keeps only the markers
 * Traitscope knows, so the score's positions are read from the stored file itself
 * (pgs-import/file-sites.ts). The VCF is built from the same genotypes as the 23andMe-style
 * chip file of pgs-import-by-position.test.ts (test/support/position-score.ts), in the
 * layouts sequencing services deliver: all sites, or variants only; plain and gzipped.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseGenotypeBytes, parseGenotypeFile } from '../../src/service/genotype/parse/index.js';
import { liftoverOf } from '../../src/service/genotype/liftover.js';
import { rowOfRsid } from '../../src/service/genotype/positions.js';
import type { Genotype, ParseSuccess } from '../../src/service/genotype/types.js';
import {
  importPgsScoringFile,
  importPgsScoringFileWithPersonFile,
  type PgsImportOptions,
} from '../../src/service/science/pgs-import.js';
import { matchAtFileSite, readFileSites } from '../../src/service/science/pgs-import/file-sites.js';
import { FILE_SITE_ID_BASE } from '../../src/shared/marker-ids.js';
import { siteKey } from '../../src/service/science/pgs-import/genotype-sites.js';
import { createScienceEngine } from '../../src/service/science/index.js';
import { positionIndex, twentyThreeAndMe } from '../support/genotypes.js';
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
import { nativeZip } from '../fixtures/genotypes/wrap.js';
import { contextOf } from './helpers.js';

const resourcesDir = path.join(import.meta.dirname, '..', '..', 'resources');
const lift = liftoverOf(resourcesDir);
const rows = positionScoreRows();
const variants = rows.length;
const at38 = (x: ScoreRow) => lift('22', x.pos37, 37, 38);
const scoreFile = Buffer.from(positionScoreFile(rows));
const engine = createScienceEngine({ resourcesDir });
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pgs-file-sites-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The VCF written to disk (gzipped when asked) and parsed as the service parses a stored file. */
async function storedVcf(text: string, name: string, gzip = false): Promise<{ file: string; parsed: ParseSuccess }> {
  const file = path.join(dir, name);
  writeFileSync(file, gzip ? gzipSync(text) : text);
  const parsed = await parseGenotypeFile(file, { positionIndex: positionIndex() });
  if (!parsed.ok) throw new Error(parsed.reason);
  return { file, parsed };
}

function personOf(parsed: ParseSuccess): NonNullable<PgsImportOptions['genotype']> {
  const build = parsed.summary.build as 37 | 38;
  return { genotype: parsed.genotype, build, label: `the test person's GRCh${build} VCF`, lift };
}

/** The person's genotype with the calls read from the file (their ids are above every rsID, so they sort last). */
function withFileCalls(g: Genotype, extra: Genotype | undefined): Genotype {
  if (!extra) return g;
  const cat = <T extends Uint8Array | Uint32Array>(a: T, b: T, Kind: { new (n: number): T }) => {
    const out = new Kind(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  };
  return {
    rsids: cat(g.rsids, extra.rsids, Uint32Array),
    calls: cat(g.calls, extra.calls, Uint8Array),
    chroms: cat(g.chroms, extra.chroms, Uint8Array),
    positions: cat(g.positions, extra.positions, Uint32Array),
  };
}

/** A trait's markers as [GRCh37 position, effect, other, weight] rows, by where the person's genotype places each. */
function markersByPosition(
  trait: { markers: { rsid: number[]; effect: string; other: string; weight: number[] } },
  positionOf: (rsid: number) => number | undefined,
) {
  return trait.markers.rsid
    .map((rs, i) => [positionOf(rs), trait.markers.effect[i], trait.markers.other[i], trait.markers.weight[i]] as const)
    .sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
}

let chip: ParseSuccess;
let chipImport: ReturnType<typeof importPgsScoringFile> & { ok: true };
const pos37ByRsid = new Map(rows.map((x) => [x.rsid, x.pos37]));
beforeAll(async () => {
  const r = await parseGenotypeBytes(new TextEncoder().encode(twentyThreeAndMe(personMarkers(rows), 'full')), {
    positionIndex: positionIndex(),
  });
  if (!r.ok) throw new Error(r.reason);
  chip = r;
  const imported = importPgsScoringFile(scoreFile, { resourcesDir, code: 'custom_chip', genotype: personOf(chip) });
  if (!imported.ok) throw new Error(imported.error);
  chipImport = imported;
});

describe('a position-only score against a GRCh38 whole-genome VCF without rsIDs', () => {
  it('matches almost nothing from the parsed genotype alone: the parser keeps only the markers Traitscope knows', async () => {
    const { parsed } = await storedVcf(positionScoreVcf(rows, { position: at38, sites: 'all' }), 'plain.vcf');
    const r = importPgsScoringFile(scoreFile, { resourcesDir, genotype: personOf(parsed) });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(new RegExp(`^Only \\d+ of ${variants} variants could be matched`));
  });

  for (const [build, gzip] of [
    [38, false],
    [38, true],
    [37, true],
  ] as const)
    it(`all sites, GRCh${build}${gzip ? ', gzipped' : ''}: reads the score's sites from the file, ≥ 75 % matched, the chip file's markers and score`, async () => {
      // The file's positions in its build, and back to the score's GRCh37 ones.
      const at = build === 38 ? at38 : (x: ScoreRow) => x.pos37;
      const { file, parsed } = await storedVcf(
        positionScoreVcf(rows, { build, position: at, sites: 'all' }),
        `all${build}${gzip ? '.vcf.gz' : '.vcf'}`,
        gzip,
      );
      expect(parsed.summary.build).toBe(build);
      expect(parsed.summary.site_reading ?? 'as_listed').toBe('as_listed');
      const r = await importPgsScoringFileWithPersonFile(
        scoreFile,
        { resourcesDir, code: 'custom_vcf', genotype: personOf(parsed) },
        { path: file, reading: 'as_listed' },
      );
      if (!r.ok) throw new Error(r.error);
      const { report, trait } = r;
      expect(report.match_rate).toBeGreaterThanOrEqual(0.75);
      // Most matches come from the file's own lines; the rest are markers Traitscope knows.
      expect(report.matched_by.position_file).toBeGreaterThan(0.75 * variants - rows.filter((x) => x.known).length);
      expect(report.matched_by.position_lifted).toBe(
        build === 38 ? report.matched_by.position_file + report.matched_by.position_genotype : 0,
      );
      expect(report.dropped).toMatchObject({
        position_not_in_genotype: expect.any(Number),
        position_not_called_in_genotype: NO_CALLS,
        alleles_differ_from_genotype: OTHER_LETTERS,
      });
      expect(report.dropped.position_not_in_genotype).toBeGreaterThanOrEqual(LEFT_OUT);
      expect(report.notes.join(' ')).toMatch(/read from the file's own lines without rsIDs/);
      expect(report.notes.join(' ')).toMatch(/as it lists them/);

      // The same markers as from the chip file, but for the few GRCh37 positions that do not lift.
      const fileIds = r.fileGenotype!;
      expect(fileIds.rsids.every((id) => id >= FILE_SITE_ID_BASE)).toBe(true);
      const toPos37 = new Map(rows.flatMap((x) => (at(x) === null ? [] : [[at(x)!, x.pos37] as const])));
      const fileRow = new Map([...fileIds.rsids].map((id, i) => [id, toPos37.get(fileIds.positions[i])]));
      const vcfPositionOf = (rs: number) => fileRow.get(rs) ?? pos37ByRsid.get(rs);
      const unlifted = new Set(rows.filter((x) => at(x) === null).map((x) => x.pos37));
      expect(unlifted.size).toBe(build === 38 ? 4 : 0);
      const fromChip = markersByPosition(chipImport.trait, (rs) => pos37ByRsid.get(rs)).filter(
        (m) => !unlifted.has(m[0]!),
      );
      const fromVcf = markersByPosition(trait, vcfPositionOf);
      expect(fromVcf).toEqual(fromChip);

      // The same raw score for those sites: the sum of weight × effect alleles of the person.
      const a = engine.assessCustom(trait, withFileCalls(parsed.genotype, fileIds), contextOf(1))!;
      const kept = new Set(fromVcf.map((m) => m[0]));
      const expected = rows.filter((x) => kept.has(x.pos37)).reduce((s, x) => s + x.weight * effectCount(x), 0);
      expect(a.score).toBeCloseTo(expected, 10);
      expect(a.coverage).toBe(1);
    });

  it('variants only: reads the listed sites, and says why the unlisted ones cannot be scored', async () => {
    const { file, parsed } = await storedVcf(
      positionScoreVcf(rows, { position: at38, sites: 'variants_only' }),
      'variants.vcf.gz',
      true,
    );
    expect(parsed.summary.site_reading).toBe('variants_only');
    const r = await importPgsScoringFileWithPersonFile(
      scoreFile,
      { resourcesDir, code: 'custom_vcf_variants', genotype: personOf(parsed) },
      { path: file, reading: 'variants_only' },
    );
    // The person is REF/REF at a quarter of the score's sites (calls drawn from the row's two
    // letters), and the file leaves out some: no marker Traitscope knows sits at those, so no
    // source says which letter is the reference, and too few variants are left.
    const unlisted = rows.filter(
      (x) => x.snv && !x.known && at38(x) !== null && (x.call === null || x.call === x.other + x.other),
    ).length;
    expect(unlisted).toBeGreaterThan(0.2 * variants);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toMatch(
        new RegExp(`^Only \\d+ of ${variants} variants could be matched \\(.*${unlisted} unlisted reference unknown`),
      );
      expect(r.error).toMatch(
        new RegExp(
          `${unlisted} of the positions are not listed in the test person's GRCh38 VCF, which is read as listing only the sites where the person differs`,
        ),
      );
      // The listed ones alone would be one-sided: left out as well, saying why.
      expect(r.error).toMatch(
        /listed reference unknown.*The \d+ positions it lists there are left out too: they are listed only where the person carries a variant/,
      );
      expect(r.error).toMatch(
        /A VCF that lists every called site, reference calls included, names the reference there/,
      );
    }
    // Read as listed instead (the person's other answer), the same file leaves those sites out as not in it.
    const asListed = await importPgsScoringFileWithPersonFile(
      scoreFile,
      { resourcesDir, code: 'custom_vcf_as_listed', genotype: personOf(parsed), minUsableShare: 0.5 },
      { path: file, reading: 'as_listed' },
    );
    if (!asListed.ok) throw new Error(asListed.error);
    expect(asListed.report.dropped.unlisted_reference_unknown).toBeUndefined();
    expect(asListed.report.notes.join(' ')).toMatch(/as it lists them: a position it does not list is not in it/);
    // The listed sites score as the chip file's do.
    const { report, fileGenotype } = asListed;
    expect(report.matched_by.position_file).toBeGreaterThan(0);
    const a = engine.assessCustom(asListed.trait, withFileCalls(parsed.genotype, fileGenotype), contextOf(1))!;
    const pos38to37 = new Map(rows.flatMap((x) => (at38(x) === null ? [] : [[at38(x)!, x.pos37] as const])));
    const readAt = new Map([...fileGenotype!.rsids].map((id, i) => [id, pos38to37.get(fileGenotype!.positions[i])]));
    const kept = new Set(asListed.trait.markers.rsid.map((rs) => readAt.get(rs) ?? pos37ByRsid.get(rs)));
    const expected = rows.filter((x) => kept.has(x.pos37)).reduce((s, x) => s + x.weight * effectCount(x), 0);
    expect(a.score).toBeCloseTo(expected, 10);
    expect(a.coverage).toBe(1);
  });
});

describe('a score whose positions of unknown reference a variants-only VCF all lists', () => {
  it('says the listed positions are left out, without counting unlisted ones that are not there', async () => {
    const { file, parsed } = await storedVcf(
      positionScoreVcf(rows, { position: at38, sites: 'variants_only' }),
      'variants-listed.vcf',
    );
    // Only the score's positions where the person carries a variant (the file lists them) and no marker tells the REF.
    const listed = rows.filter(
      (x) => x.snv && !x.known && at38(x) !== null && x.call !== null && x.call !== x.other + x.other,
    );
    expect(listed.length).toBeGreaterThan(100);
    const r = await importPgsScoringFileWithPersonFile(
      Buffer.from(positionScoreFile(listed)),
      { resourcesDir, code: 'custom_vcf_listed', genotype: personOf(parsed) },
      { path: file, reading: 'variants_only' },
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatch(new RegExp(`${listed.length} listed reference unknown`));
    expect(r.error).not.toMatch(/unlisted reference unknown|of the positions (is|are) not listed/);
    expect(r.error).toContain(
      `The ${listed.length} positions of the score that the test person's GRCh38 VCF lists are left out: ` +
        'which of the score’s two letters is the reference is not known there, and they are listed only where the person carries a variant',
    );
  });
});

describe('a score by rsID against a variants-only GRCh38 VCF with rsIDs', () => {
  it('is read only where Traitscope knows the reference allele: the others are listed only where the person carries a variant', async () => {
    const { parsed } = await storedVcf(
      positionScoreVcf(rows, { position: at38, ids: 'rsid', sites: 'variants_only' }),
      'variants-rsid.vcf',
    );
    expect(parsed.summary.site_reading).toBe('variants_only');
    const byRsid = [
      '#genome_build=GRCh37',
      'rsID\teffect_allele\tother_allele\teffect_weight',
      ...rows.filter((x) => x.snv).map((x) => `rs${x.rsid}\t${x.effect}\t${x.other}\t${x.weight}`),
    ].join('\n');
    const imported = importPgsScoringFile(Buffer.from(byRsid + '\n'), {
      resourcesDir,
      code: 'custom_rsid_variants',
      minUsableShare: 0,
    });
    if (!imported.ok) throw new Error(imported.error);
    const index = positionIndex();
    const refKnown = (rsid: number) => {
      const row = rowOfRsid(index, rsid);
      return row >= 0 && index.pos38[row] > 0 && index.ref[row] !== 0;
    };
    const markers = imported.trait.markers.rsid;
    // The person's calls at rsIDs of unknown REF: the file lists those that are variants.
    const unknownRef = rows.filter((x) => x.snv && !refKnown(x.rsid) && x.call !== null && /[^-]/.test(x.call));
    const heterozygous = unknownRef.filter((x) => x.call![0] !== x.call![1]);
    expect(heterozygous.length).toBeGreaterThan(50);
    // None is kept, and the summary says so.
    const stored = new Set(parsed.genotype.rsids);
    expect(unknownRef.filter((x) => stored.has(x.rsid))).toEqual([]);
    expect(parsed.summary.notes.join('\n')).toMatch(/calls at sites no built-in result uses were not kept/);
    // So the score counts only the markers read both ways: the ones of known reference allele.
    const coverage = engine.withCustomTraits([imported.trait]).coverage('custom_rsid_variants', parsed.genotype)!;
    expect(coverage.observed).toBe(markers.filter((rs) => refKnown(rs) && stored.has(rs)).length);
    expect(coverage.observed).toBeLessThan(0.75 * markers.length);
  });
});

describe('reading the wanted sites from a stored VCF', () => {
  const vcf = [
    '##fileformat=VCFv4.2',
    '##reference=GRCh38',
    '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS1',
    'chr22\t100\t.\tT\tC,G\t50\tPASS\t.\tGT:DP\t1/2:30',
    'chr22\t200\trs42\tC\tCT\t50\tPASS\t.\tGT\t0/1',
    'chr22\t300\t.\tA\t.\t50\tPASS\t.\tDP:GT\t30:0/0',
    'chr22\t400\t.\tG\tA\t50\tPASS\t.\tGT\t./.',
    'chr22\t500\t.\tG\tA\t50\tPASS\t.\tGT\t1',
    'chr22\t600\t.\tG\tA\t50\tPASS\t.\tGT\t0|1',
  ].join('\n');
  const wanted = new Set([100, 200, 300, 400, 500].map((p) => siteKey(22, p)));

  const containers = {
    plain: (text: string) => Buffer.from(text),
    gzip: (text: string) => gzipSync(text),
    zip: (text: string) => nativeZip('genome.vcf', Buffer.from(text)),
  };
  for (const [container, wrap] of Object.entries(containers))
    it(`splits multi-allelic calls, leaves indels uncalled, reads only the wanted sites (${container})`, async () => {
      const file = path.join(dir, `small-${container}`);
      writeFileSync(file, wrap(vcf));
      const sites = await readFileSites(file, 38, wanted);
      expect(sites.lines).toBe(6);
      expect([...sites.positions]).toEqual([100, 200, 300, 400, 500]);
      expect([...sites.rsids]).toEqual([
        FILE_SITE_ID_BASE,
        42,
        FILE_SITE_ID_BASE + 2,
        FILE_SITE_ID_BASE + 3,
        FILE_SITE_ID_BASE + 4,
      ]);
      // C/G (from T>C,G 1/2), an indel (no SNP call), A/A, a no-call, haploid A.
      expect([...sites.calls]).toEqual([0x23, 0, 0x11, 0, 0x10]);
      expect([...sites.chromosomes]).toEqual([22]);
    });

  it('finds the wanted sites inside gVCF reference blocks, reads a block’s first base as REF/REF as listed, and leaves listed sites out of a gVCF reading', async () => {
    const gvcf = [
      '##fileformat=VCFv4.2',
      '##ALT=<ID=NON_REF,Description="Represents any possible alternative allele">',
      '#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\tS1',
      'chr22\t1000\t.\tC\t<NON_REF>\t.\t.\tEND=2000\tGT:DP\t0/0:30',
      'chr22\t2001\t.\tT\tG,<NON_REF>\t50\tPASS\t.\tGT:DP\t0/1:30',
      'chr22\t3000\t.\tA\t<*>\t.\t.\tDP=3;END=3500\tGT\t0/0',
    ].join('\n');
    const file = path.join(dir, 'small.g.vcf');
    writeFileSync(file, gvcf);
    const at = [1000, 1500, 2000, 2001, 2500, 3200, 3600];
    const sites = await readFileSites(file, 38, new Set(at.map((p) => siteKey(22, p))), FILE_SITE_ID_BASE, true);
    expect([...sites.positions]).toEqual([1000, 2001]);
    expect([...sites.inReferenceBlock].map((k) => k - siteKey(22, 0)).sort((a, b) => a - b)).toEqual([
      1500, 2000, 3200,
    ]);
    const reason = (pos: number, reading: 'reference_blocks' | 'as_listed' | 'variants_only') => {
      const m = matchAtFileSite(sites, reading, 22, pos, 'C', 'G');
      return m.found ? `${m.effect}${m.other}` : m.reason;
    };
    expect(reason(1000, 'as_listed')).toBe('CG'); // the block's first base: C/C
    // Read as a gVCF, a listed site is one-sided: listed where a variant (or a block) begins.
    expect(reason(1000, 'reference_blocks')).toBe('listed_reference_unknown');
    expect(reason(2001, 'variants_only')).toBe('listed_reference_unknown');
    expect(reason(1500, 'reference_blocks')).toBe('unlisted_reference_unknown');
    expect(reason(2500, 'reference_blocks')).toBe('position_not_in_genotype');
    expect(reason(1500, 'as_listed')).toBe('position_not_in_genotype');
    expect(reason(2500, 'variants_only')).toBe('unlisted_reference_unknown');
    expect(reason(2001, 'as_listed')).toBe('alleles_differ_from_genotype'); // T/G is not C/G
  });

  it('refuses a file that is not a VCF, saying so', async () => {
    const file = path.join(dir, 'chip.txt');
    writeFileSync(file, '# rsid\tchromosome\tposition\tgenotype\nrs1\t22\t100\tAA\n');
    await expect(readFileSites(file, 37, wanted)).rejects.toThrow(/no #CHROM line: it is not a VCF/);
  });

  it('says so when the stored file is gone', async () => {
    await expect(readFileSites(path.join(dir, 'missing.vcf'), 38, wanted)).rejects.toThrow(/could not be opened again/);
  });
});
