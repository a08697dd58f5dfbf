/**
 * A position-only genome-wide score (PGS000586-like: most variants are no marker Traitscope
 * knows) imported against the person's own file: matched by the positions the file stores,
 * with the alleles checked against the person's calls, in either build (lifted with the UCSC
 * chain when the builds differ). test/support/position-score.ts builds the score and the person.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseGenotypeBytes } from '../../src/service/genotype/parse/index.js';
import { liftoverOf } from '../../src/service/genotype/liftover.js';
import type { ParseSuccess } from '../../src/service/genotype/types.js';
import { importPgsScoringFile, type PgsImportOptions } from '../../src/service/science/pgs-import.js';
import { createScienceEngine } from '../../src/service/science/index.js';
import { positionIndex, sequencingVcf, twentyThreeAndMe } from '../support/genotypes.js';
import {
  effectCount,
  isPalindromic,
  LEFT_OUT,
  NO_CALLS,
  OTHER_LETTERS,
  personMarkers,
  positionScoreFile,
  positionScoreRows,
  REVERSED,
  type ScoreRow,
} from '../support/position-score.js';
import { contextOf } from './helpers.js';

const resourcesDir = path.join(import.meta.dirname, '..', '..', 'resources');
const lift = liftoverOf(resourcesDir);
const rows = positionScoreRows();
const variants = rows.length;
const indels = rows.filter((x) => !x.snv).length;
/** Rows the person's file has with the score's letters: every one is matched. */
const found = variants - indels - LEFT_OUT - NO_CALLS - OTHER_LETTERS;
const at38 = (x: ScoreRow) => lift('22', x.pos37, 37, 38);
/** A few GRCh37 positions fall in no block of the chain: they have no GRCh38 position. */
const unlifted = new Set(rows.filter((x) => at38(x) === null).map((x) => x.rsid));
/** A trait's markers as comparable rows, leaving out some rsIDs. */
const markerRows = (
  t: { markers: { rsid: number[]; effect: string; other: string; weight: number[] } },
  without = new Set<number>(),
) =>
  t.markers.rsid.flatMap((rs, i) =>
    without.has(rs) ? [] : [[rs, t.markers.effect[i], t.markers.other[i], t.markers.weight[i]]],
  );

async function parsed(text: string): Promise<ParseSuccess> {
  const r = await parseGenotypeBytes(new TextEncoder().encode(text), { positionIndex: positionIndex() });
  if (!r.ok) throw new Error(r.reason);
  return r;
}
function imported(file: string, person: ParseSuccess) {
  const build = person.summary.build as 37 | 38;
  const genotype: PgsImportOptions['genotype'] = {
    genotype: person.genotype,
    build,
    label: `the test person's GRCh${build} file`,
    lift,
  };
  const r = importPgsScoringFile(Buffer.from(file), { resourcesDir, code: 'custom_by_position', genotype });
  if (!r.ok) throw new Error(r.error);
  return r;
}

let chip: ParseSuccess;
beforeAll(async () => {
  chip = await parsed(twentyThreeAndMe(personMarkers(rows), 'full'));
  expect(chip.summary.build).toBe(37);
});

describe('a position-only score matched against the person’s own file', () => {
  it('is refused without the person’s file: few of its positions are markers Traitscope knows', () => {
    const r = importPgsScoringFile(Buffer.from(positionScoreFile(rows)), { resourcesDir });
    expect(r.ok).toBe(false);
    const known = rows.filter((x) => x.known).length;
    expect(known).toBeLessThan(0.1 * variants);
    if (!r.ok) expect(r.error).toMatch(new RegExp(`^Only \\d+ of ${variants} variants could be matched`));
  });

  it('imports at least 75 % with the GRCh37 chip file that covers it, counting matches by rsID and by position', () => {
    const { report, trait } = imported(positionScoreFile(rows), chip);
    expect(report.variants).toBe(variants);
    // Every row the person's file has with the score's letters is matched, each by position.
    expect(report.matched_by).toMatchObject({ rsid: 0, hm_rsid: 0, position: found, position_grch37: found });
    expect(report.matched_by.position_genotype).toBeGreaterThanOrEqual(found - rows.filter((x) => x.known).length);
    expect(report.matched_by.position_lifted).toBe(0);
    expect(report.dropped).toMatchObject({
      not_a_single_nucleotide_variant: indels,
      position_not_in_genotype: LEFT_OUT,
      position_not_called_in_genotype: NO_CALLS,
      alleles_differ_from_genotype: OTHER_LETTERS,
    });
    expect(report.strand_flipped_to_forward).toBe(REVERSED);
    expect(report.match_rate).toBeGreaterThanOrEqual(0.75);
    expect(report.usable).toBe(trait.markers.rsid.length);
    expect(report.notes.join(' ')).toMatch(/variants were found by position in the test person's GRCh37 file/);

    // Each marker is the person's rsID at that position, with the score's letters on the forward strand.
    const byRsid = new Map(rows.map((x) => [x.rsid, x]));
    trait.markers.rsid.forEach((rsid, i) => {
      const row = byRsid.get(rsid)!;
      expect(row.call, `rs${rsid}`).not.toBeNull();
      expect(trait.markers.effect[i] + trait.markers.other[i], `rs${rsid}`).toBe(row.effect + row.other);
      expect(trait.markers.weight[i]).toBe(row.weight);
    });
    // Every matched row whose strand its letters tell is a marker (palindromes need a frequency).
    const kept = new Set(trait.markers.rsid);
    const plainFound = rows.filter((x) => x.call !== null && x.call !== '--' && !isPalindromic(x) && !otherLetters(x));
    expect(plainFound.length).toBeGreaterThan(0.75 * variants);
    expect(plainFound.filter((x) => !kept.has(x.rsid))).toEqual([]);
  });

  it('scores the person as the sum of weight × effect alleles, and says why there is no percentile', () => {
    const { report, trait } = imported(positionScoreFile(rows), chip);
    // Most rows are not in the 1000 Genomes table and the file gives no frequencies.
    expect(report.percentile).toBe(false);
    expect(report.percentile_note).toMatch(/found by position in a person’s own file.*no reference distribution/);
    expect(trait.raw_score_only?.reason).toBe(report.percentile_note);
    const engine = createScienceEngine({ resourcesDir });
    const a = engine.assessCustom(trait, chip.genotype, contextOf(1))!;
    const kept = new Set(trait.markers.rsid);
    const expected = rows.filter((x) => kept.has(x.rsid)).reduce((s, x) => s + x.weight * effectCount(x), 0);
    expect(a.score).toBeCloseTo(expected, 10);
    expect(a.percentile).toBeNull();
    expect(a.coverage).toBe(1);
  });

  it('lifts a GRCh38 score file to the GRCh37 chip file, and gives the same markers', () => {
    expect(unlifted.size).toBeLessThan(0.01 * variants);
    // Every GRCh38 position lifts back to its GRCh37 one, so every row is found again.
    expect(rows.filter((x) => !unlifted.has(x.rsid) && lift('22', at38(x)!, 38, 37) !== x.pos37)).toEqual([]);
    const b37 = imported(positionScoreFile(rows), chip);
    const b38 = imported(positionScoreFile(rows, 38, at38), chip);
    expect(markerRows(b38.trait)).toEqual(markerRows(b37.trait, unlifted));
    const foundLifted =
      found - rows.filter((x) => unlifted.has(x.rsid) && x.call !== null && x.call !== '--' && !otherLetters(x)).length;
    expect(b38.report.matched_by).toMatchObject({
      position: foundLifted,
      position_grch37: 0,
      position_grch38: foundLifted,
    });
    expect(b38.report.matched_by.position_lifted).toBe(b38.report.matched_by.position_genotype);
    expect(b38.report.notes.join(' ')).toMatch(/after lifting the scoring file's positions/);
  });

  it('lifts a GRCh37 score file to a GRCh38 sequencing VCF with rsIDs, and gives the same markers', async () => {
    const vcf = await parsed(sequencingVcf(personMarkers(rows, at38), { build: 38 }));
    expect(vcf.summary.build).toBe(38);
    const b37 = imported(positionScoreFile(rows), chip);
    const fromVcf = imported(positionScoreFile(rows), vcf);
    expect(markerRows(fromVcf.trait)).toEqual(markerRows(b37.trait, unlifted));
    expect(fromVcf.report.dropped.position_not_lifted).toBe(
      unlifted.size - rows.filter((x) => unlifted.has(x.rsid) && !x.snv).length,
    );
    expect(fromVcf.report.matched_by.position_lifted).toBe(fromVcf.report.matched_by.position_genotype);
    expect(fromVcf.report.match_rate).toBeGreaterThanOrEqual(0.75);
  });
});

/** A row the person's file calls with other letters than the score's (OTHER_LETTERS). */
function otherLetters(x: ScoreRow): boolean {
  return x.call !== null && x.call !== '--' && ![...x.call].every((l) => l === x.effect || l === x.other);
}
