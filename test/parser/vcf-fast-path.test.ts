/**
 * The VCF loop (VcfParser.lines, by WebAssembly) must decide every line exactly as the
 * general path (VcfParser.line) does: the same markers in the same order, the same skip
 * counts, and the same sites read by position (build, reading, matches, counts). Fed random
 * near-valid records around real marker positions, and the sequencing VCFs of every layout.
 *
 * Each random file read with a position index costs two parser set-ups over the whole index
 * (most of this file's time), so `npm test` draws 50 files per index build instead of 120
 * (test/support/science-scale.ts): the same kinds of record, with the loop still taking its
 * share of them, only fewer rare combinations a run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GenotypeCollector } from '../../src/service/genotype/parse/collect.js';
import { SiteMatcher } from '../../src/service/genotype/parse/sites.js';
import { SkipCounter } from '../../src/service/genotype/parse/stats.js';
import { VcfParser } from '../../src/service/genotype/parse/vcf.js';
import { eachLine } from '../../src/service/genotype/parse/table.js';
import { INPUT_BYTES } from '../../src/service/genotype/parse/wasm/core.js';
import { rowOfRsid } from '../../src/service/genotype/positions.js';
import {
  catalogMarkers,
  combine,
  FINDING_CALLS,
  markersOf,
  positionIndex,
  sequencingVcf,
  wholeGenomeVcf,
  withRelativeSample,
  type SequencingVcfOptions,
} from '../support/genotypes.js';
import { scienceSize } from '../support/science-scale.js';
import { enc } from './helpers.js';

type HeaderBuild = 37 | 38 | null;

/**
 * Records one per line, and the genotype's columns each as one string of numbers (a few
 * strings compare far faster than tens of thousands of rows, variants-only reading adds a
 * REF/REF row for every unlisted marker).
 */
interface Decided {
  records: string;
  skipped: Record<string, number>;
  sitesRead: number;
  outcome: unknown;
  genotype: Record<'rsids' | 'chroms' | 'positions' | 'calls' | 'counts', string>;
}

/** Parses the data lines of `text`, in bulk (the loop) or one line at a time (the reference). */
function decide(
  text: string,
  headerBuild: HeaderBuild,
  gvcf: boolean,
  bulk: boolean,
  sampleColumn: number,
): Decided & { loopLines: number } {
  const out = new GenotypeCollector();
  const skips = new SkipCounter();
  const sites = new SiteMatcher(positionIndex(), headerBuild, gvcf);
  const p = new VcfParser(out, skips, sites, sampleColumn);
  const buf = enc(text);
  if (bulk) p.lines(buf, 0, buf.length);
  else eachLine(p, buf, 0, buf.length);
  const records: string[] = [];
  for (let i = 0; i < out.length; i++) records.push(out.at(i).join(' '));
  const sitesRead = sites.sitesRead;
  const outcome = sites.finish(out, undefined);
  // finish() sorts the records, applies the duplicate rule and hands the core back.
  const { genotype, duplicates, conflicting, noCalls } = out.finish();
  return {
    records: records.join('\n'),
    skipped: skips.byReason(),
    sitesRead,
    outcome,
    genotype: {
      rsids: genotype.rsids.join(' '),
      chroms: genotype.chroms.join(' '),
      positions: genotype.positions.join(' '),
      calls: genotype.calls.join(' '),
      counts: `duplicates ${duplicates} conflicting ${conflicting} no-calls ${noCalls}`,
    },
    loopLines: p.loopLines,
  };
}

/** `sampleColumn`: the sample read (0: the first), as chosen for a VCF of several people. */
function agree(text: string, headerBuild: HeaderBuild, gvcf = false, sampleColumn = 0): number {
  const { loopLines, ...bulk } = decide(text, headerBuild, gvcf, true, sampleColumn);
  const { loopLines: none, ...reference } = decide(text, headerBuild, gvcf, false, sampleColumn);
  expect(none).toBe(0);
  expect(bulk).toEqual(reference);
  return loopLines;
}

/** Without a position index: rsIDs only, as before sites were read. */
function agreeWithoutIndex(text: string): number {
  const run = (bulk: boolean) => {
    const out = new GenotypeCollector();
    const skips = new SkipCounter();
    const p = new VcfParser(out, skips, null);
    const buf = enc(text);
    if (bulk) p.lines(buf, 0, buf.length);
    else eachLine(p, buf, 0, buf.length);
    const records: string[] = [];
    for (let i = 0; i < out.length; i++) records.push(out.at(i).join(' '));
    out.handBack();
    return { records, skipped: skips.byReason(), loopLines: p.loopLines };
  };
  const { loopLines, ...bulk } = run(true);
  const { loopLines: none, ...reference } = run(false);
  expect(none).toBe(0);
  expect(bulk).toEqual(reference);
  return loopLines;
}

// Two APOE markers at their GRCh37 and GRCh38 positions, with positions beside them.
const index = positionIndex();
const apoe = [7412, 429358].map((rs) => rowOfRsid(index, rs));
const markerPositions = apoe.flatMap((row) => [index.pos37[row], index.pos38[row]]).map(String);

/** Mostly a value the loop takes, sometimes one it must leave to the general path. */
const cell = (good: string[], bad: string[]) =>
  fc.oneof({ weight: 20, arbitrary: fc.constantFrom(...good) }, { weight: 1, arbitrary: fc.constantFrom(...bad) });

const chrom = cell(['19', 'chr19', '1', 'chrX', 'X', 'MT', '23'], ['chrUn_gl1', 'PAR', '"19"', '19 ', '']);
const pos = cell(
  [...markerPositions, ...markerPositions, '100', '44908823', '45411940', '07', '0', '4294967295'],
  ['4294967296', '12345678901', '7a', ''],
);
const id = cell(
  ['.', '.', 'rs7412', 'rs429358', 'rs1', 'RS5', 'rs4294967295'],
  ['rs0', 'rs1;rs2', 'x', '', 'rs4294967296'],
);
const ref = cell(['A', 'C', 'T', 'G', 'c', 'AT', 'CT'], ['N', '.', 'A ', '']);
const alt = cell(['C', 'T', 'G', 'A', '.', 'CAT', 'TG', 'g'], ['A,G', '<NON_REF>', 'T,<NON_REF>', '*', 'CC', 'N', '']);
const qual = cell(['50', '.'], ['', ' ']);
// QUAL, FILTER and INFO are skipped with one 16-byte load when their three tabs fall in it:
// after "50\tPASS\t", an INFO of 7 bytes ends on the load's last byte, one of 8 just past it.
const info = cell(['.', 'DP=3', 'DP=3;AF', 'DP=30;AF', 'END=45411950', 'END=44908830;DP=2'], ['A\rB', '', 'DP=3;\rF']);
// FORMAT fields of 3, 8, 9 and 16 bytes with their tab (the loop keeps the last one as two
// masked words and compares the next record's with them), and one longer than that.
const format = cell(
  ['GT', 'GT:DP', 'GT:ADXY', 'GT:AD:DP', 'GT:AD:DP:GQ:PLX', 'GT:AD:DP:GQ:PL:PS'],
  ['DP:GT', 'GTX', 'GT ', 'GT:AD:DP:GQ:PL\r', ''],
);
const sample = cell(
  ['0/1', '1/1', '0/0', '0|1', '1|0', '0', '1', './.', '.', './1', '0/1:30', '0/0:7'],
  ['1/2', '2/2', '10/1', '0/1/1', '0/', '0/1 ', '"0/1"', ''],
);
const record = fc
  .tuple(
    fc.tuple(chrom, pos, id, ref, alt, qual, cell(['PASS', '.'], ['']), info, format, sample),
    cell(['\t'], ['\t\t', ' ']),
    cell(['', '\r', '\t0/1', ':5'], [':5\r', ' ']),
    cell(['10'], ['7', '9']),
  )
  .map(([fields, sep, tail, count]) => fields.slice(0, Number(count)).join(sep) + tail);
const line = fc.oneof(
  { weight: 12, arbitrary: record },
  { weight: 1, arbitrary: fc.constantFrom('', '#comment', '\r', 'chr19\t44908822') },
);
/** A record of a VCF of several people: other samples' cells before the one read (sometimes too few of them). */
const severalSamples = (before: number) =>
  fc
    .tuple(
      fc.tuple(chrom, pos, id, ref, alt, qual, cell(['PASS', '.'], ['']), info, format),
      fc.array(sample, { minLength: before, maxLength: before }),
      sample,
      cell(['', '\r', '\t0/1', ':5'], [':5\r', ' ']),
      cell(['all'], ['short']),
    )
    .map(
      ([fields, others, own, tail, count]) =>
        [...fields, ...(count === 'all' ? others : others.slice(1)), own].join('\t') + tail,
    );

/** Random files read with a position index, a run; the loop must take more than 1.25 records a file. */
const RUNS_WITH_INDEX = scienceSize(50, 120);

describe('the VCF loop agrees with the general path', () => {
  for (const headerBuild of [38, 37, null] as const)
    it(`on random records near marker positions, index build ${headerBuild ?? 'unknown'}`, () => {
      let taken = 0;
      fc.assert(
        fc.property(fc.array(line, { minLength: 1, maxLength: 40 }), fc.boolean(), (lines, gvcf) => {
          taken += agree(lines.join('\n') + '\n', headerBuild, gvcf);
        }),
        { numRuns: RUNS_WITH_INDEX },
      );
      // The loop must have taken a fair share itself, or the comparison proves little
      // (150 records in 120 files).
      expect(taken).toBeGreaterThan(RUNS_WITH_INDEX * 1.25);
    });

  for (const sampleColumn of [1, 3])
    it(`on random records of several people, reading sample ${sampleColumn + 1}`, () => {
      let taken = 0;
      fc.assert(
        fc.property(
          fc.array(severalSamples(sampleColumn), { minLength: 1, maxLength: 40 }),
          fc.boolean(),
          (lines, gvcf) => {
            taken += agree(lines.join('\n') + '\n', 38, gvcf, sampleColumn);
          },
        ),
        { numRuns: RUNS_WITH_INDEX },
      );
      expect(taken).toBeGreaterThan(RUNS_WITH_INDEX * 1.25);
    });

  it('on random records without a position index', () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 40 }), (lines) => {
        taken += agreeWithoutIndex(lines.join('\n') + '\n');
      }),
      { numRuns: 120 },
    );
    expect(taken).toBeGreaterThan(150);
  });
});

describe('the VCF loop on sequencing VCFs', () => {
  const markers = combine([markersOf(FINDING_CALLS), catalogMarkers(5, { fillerTraits: 100 })]);
  const layouts: Array<SequencingVcfOptions & { gvcf?: boolean }> = [
    { build: 38, ids: 'none', sites: 'all' },
    { build: 38, ids: 'none', sites: 'variants_only' },
    { build: 37, ids: 'rsid', sites: 'variants_only' },
    { build: 37, ids: 'rsid', sites: 'all' },
    { build: 38, ids: 'none', sites: 'gvcf', gvcf: true },
  ];
  for (const { gvcf, ...options } of layouts)
    it(`reads the ${options.sites} GRCh${options.build} layout with ${options.ids === 'none' ? 'no rsIDs' : 'rsIDs'} as the general path does`, () => {
      const text = sequencingVcf(markers, options);
      const body = text
        .split('\n')
        .filter((l) => !l.startsWith('#'))
        .join('\n');
      const taken = agree(body, options.build!, gvcf ?? false);
      agree(body, null, gvcf ?? false);
      // The loop reads every SNV record itself, at a marker's position too (as a site entry).
      const snvs = body.split('\n').filter((l) => /^[^\t]+\t\d+\t[^\t]+\t[ACGT]\t([ACGT]|\.)\t/.test(l)).length;
      if (!gvcf) expect(taken).toBe(snvs);
    });

  it("reads a relative's sample, or the person's after it, as the general path does", () => {
    const text = withRelativeSample(sequencingVcf(markers, { build: 38, ids: 'rsid' }), 'rs429358');
    const body = text
      .split('\n')
      .filter((l) => !l.startsWith('#'))
      .join('\n');
    for (const sampleColumn of [0, 1]) expect(agree(body, 38, false, sampleColumn)).toBeGreaterThan(5000);
  });

  it('takes the filler records of a whole-genome VCF itself, across input windows, with and without rsIDs, variants only or all sites', () => {
    for (const [ids, sites] of [
      ['none', 'variants_only'],
      ['rsid', 'variants_only'],
      ['none', 'all'],
    ] as const) {
      const text = [...wholeGenomeVcf(markers.slice(0, 3000), 30_000, 11, { build: 38, ids, sites })].join('');
      const body = text
        .split('\n')
        .filter((l) => !l.startsWith('#'))
        .join('\n');
      expect(body.length).toBeGreaterThan(INPUT_BYTES);
      const lines = body.split('\n').filter((l) => l.length > 0).length;
      const taken = agree(body, 38);
      // All but the indel records at marker positions (at most the 3,000 markers' lines).
      expect(taken).toBeGreaterThan(lines - 3000);
      expect(taken).toBeLessThan(lines);
    }
  });
});

describe('the VCF loop at the marker limit', () => {
  it('stops writing at the limit and the file is refused as the general path refuses it', () => {
    const lines = Array.from(
      { length: 5000 },
      (_, i) => `chr2\t${1000 + i * 7}\trs${900_000 + i}\tA\tG\t50\tPASS\t.\tGT\t0/1\n`,
    ).join('');
    const refusal = (bulk: boolean) => {
      const out = new GenotypeCollector(1000);
      const p = new VcfParser(out, new SkipCounter(), new SiteMatcher(positionIndex(), 38, false));
      const buf = enc(lines);
      try {
        if (bulk) p.lines(buf, 0, buf.length);
        else
          for (let s = 0; s < buf.length;) {
            const nl = buf.indexOf(10, s);
            p.line(buf, s, nl);
            s = nl + 1;
          }
        return { refused: null, loopLines: p.loopLines };
      } catch (e) {
        return { refused: (e as Error).message, loopLines: p.loopLines, length: out.length };
      } finally {
        out.handBack();
      }
    };
    const bulk = refusal(true);
    const reference = refusal(false);
    expect(bulk.refused).toMatch(/more than 1,000 genotype markers/);
    expect(bulk.refused).toBe(reference.refused);
    // The loop wrote up to the limit itself (one record past maxMarkers, as add() does).
    expect(bulk.loopLines).toBe(1001);
    expect(bulk.length).toBe(1001);
    expect(reference.length).toBe(1001);
  });
});
