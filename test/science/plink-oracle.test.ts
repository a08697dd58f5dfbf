/**
 * External oracle: PLINK 1.9 computes the raw score of catalog traits on the same
 * 23andMe-format file, and ours must equal it.
 *
 * The file is fully genotyped for the traits' markers, so mean imputation never enters
 * (PLINK 1.9 refuses `sum` together with `no-mean-imputation`; with nothing missing, `sum`
 * alone is the plain Σ weight × allele count, and our coverage is 1). PLINK matches the
 * score allele by letter, as we do for forward-strand data; a person homozygous for the
 * other allele gives PLINK an "allele mismatch" for that variant, which contributes 0 in
 * both. PLINK prints six significant digits, hence the relative tolerance.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseGenotypeFile } from '../../src/service/genotype/parse/index.js';
import { createScienceEngine } from '../../src/service/science/index.js';
import type { CatalogTrait } from '../../src/service/science/format.js';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import { contextOf } from './helpers.js';
import { shippedCatalog } from '../support/shipped-catalog.js';

const PLINK = 'plink1.9';
const hasPlink = spawnSync(PLINK, ['--version'], { encoding: 'utf8' }).status === 0;
const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');
const TRAITS = ['ldl_cholesterol', 'type_2_diabetes', 'height', 'coronary_artery_disease'];

const dir = mkdtempSync(join(tmpdir(), 'traitscope-plink-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A 23andMe-style file with every marker of the given traits called, drawn under HWE with EUR frequencies. */
function writeGenotypeFile(traits: CatalogTrait[], seed: number): string {
  const codes = new Set(traits.map((t) => t.code));
  // Positions are synthetic (the catalog has none): PLINK only needs distinct, sorted ones, on one chromosome.
  const markers = catalogMarkers(seed, { traits: (t) => codes.has(t.code) }).map((m, i) => ({
    ...m,
    chrom: 1,
    pos: 1000 + i * 10,
  }));
  const path = join(dir, `genome_${seed}.txt`);
  writeFileSync(path, twentyThreeAndMe(markers));
  return path;
}

function plinkScore(genotypePath: string, t: CatalogTrait): { sum: number; count: number } {
  const scorePath = join(dir, `${t.code}.score`);
  const m = t.markers;
  writeFileSync(scorePath, m.rsid.map((rs, i) => `rs${rs} ${m.effect[i]} ${m.weight[i]}`).join('\n') + '\n');
  const out = join(dir, `${t.code}_${Math.random().toString(36).slice(2)}`);
  execFileSync(
    PLINK,
    ['--23file', genotypePath, 'FAM', 'IND', '--score', scorePath, '1', '2', '3', 'sum', '--out', out, '--silent'],
    { stdio: 'pipe' },
  );
  const profile = readFileSync(`${out}.profile`, 'utf8').trim().split('\n');
  const header = profile[0].trim().split(/\s+/);
  const row = profile[1].trim().split(/\s+/);
  return { sum: Number(row[header.indexOf('SCORESUM')]), count: Number(row[header.indexOf('CNT')]) };
}

describe.skipIf(!hasPlink)('PLINK 1.9 oracle', () => {
  const engine = createScienceEngine({ resourcesDir });
  const all = shippedCatalog().traits;
  const traits = TRAITS.map((code) => all.find((t) => t.code === code)!);

  it.each([1, 2])('our raw score equals PLINK --score sum on a fully genotyped file (seed %d)', async (seed) => {
    const path = writeGenotypeFile(traits, seed);
    const parsed = await parseGenotypeFile(path);
    if (!parsed.ok) throw new Error(parsed.reason);
    for (const t of traits) {
      const ours = engine.assess(t.code, parsed.genotype, contextOf(1))!;
      expect(ours, t.code).not.toBeNull();
      expect(ours.coverage).toBe(1);
      const plink = plinkScore(path, t);
      const tolerance = 1e-5 * Math.max(1, Math.abs(plink.sum));
      expect(Math.abs(ours.score - plink.sum), `${t.code}: ours ${ours.score}, PLINK ${plink.sum}`).toBeLessThanOrEqual(
        tolerance,
      );
      expect(plink.sum, `${t.code}: a zero PLINK score would make the comparison vacuous`).not.toBe(0);
    }
  });
});
