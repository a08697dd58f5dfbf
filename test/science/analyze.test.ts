/** The analyze command on a real file: exit codes, the table and the JSON document. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/cli/args.js';
import { analyzeCommand } from '../../src/cli/analyze.js';
import { catalogMarkers, sequencingVcf, twentyThreeAndMe } from '../support/genotypes.js';
import { shippedCatalog } from '../support/shipped-catalog.js';

const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');
const dir = mkdtempSync(join(tmpdir(), 'traitscope-analyze-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** A file of the given text, written once, on first use. */
function genotypeFile(name: string, text: () => string): () => string {
  let path: string | undefined;
  return () => {
    if (path === undefined) {
      path = join(dir, name);
      writeFileSync(path, text());
    }
    return path;
  };
}
/** Every marker of the featured traits, drawn under HWE (EUR). */
const genome = genotypeFile('genome.txt', () => twentyThreeAndMe(catalogMarkers(5)));
/**
 * Only type 2 diabetes' markers: the table's layout and rows need one computable trait, not
 * a second analysis of every featured one (the JSON test's claim).
 */
const diabetesMarkers = () => catalogMarkers(5, { traits: (t) => t.code === 'type_2_diabetes' });
const diabetesOnly = genotypeFile('type-2-diabetes.txt', () => twentyThreeAndMe(diabetesMarkers()));

/** The same markers as a GRCh38 VCF without rsIDs that lists only the sites differing from the reference. */
const variantsOnlyVcf = genotypeFile('variants-only.vcf', () =>
  sequencingVcf(diabetesMarkers(), { build: 38, ids: 'none', sites: 'variants_only' }),
);

function capture() {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void (out += a.join(' ') + '\n'));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void (err += a.join(' ') + '\n'));
  return { out: () => out, err: () => err };
}

describe('analyze FILE', () => {
  it('prints every computable trait as JSON', async () => {
    const io = capture();
    expect(await analyzeCommand([genome(), '--ethnicity', '3', '--json', '--resources', resourcesDir])).toBe(0);
    const doc = JSON.parse(io.out());
    expect(doc.population).toBe('AFR');
    expect(doc.population_source).toBe('ethnicity');
    const featured = doc.traits.filter((t: { featured: boolean }) => t.featured);
    expect(featured.length).toBe(shippedCatalog().traits.filter((t) => t.featured).length);
    // Every trait's level and coverage, in one expect.
    const wrong = (doc.traits as Array<{ code: string; assessment_level: number; coverage: number }>)
      .filter((t) => !(t.assessment_level >= 1 && t.assessment_level <= 5 && t.coverage >= 0.5))
      .map((t) => `${t.code}: level ${t.assessment_level}, coverage ${t.coverage}`);
    expect(wrong).toEqual([]);
  });

  it('prints a table', async () => {
    const io = capture();
    expect(await analyzeCommand([diabetesOnly(), '--resources', resourcesDir])).toBe(0);
    expect(io.out()).toMatch(/^\d+ of \d+ traits computable/m);
    expect(io.out()).not.toMatch(/Why not more/); // a chip file is read at every marker it holds
    expect(io.out()).toMatch(/^Level\tPctl\tCover\tEvidence\tTrait\tCode$/m);
    expect(io.out()).toMatch(/^[1-5] [^\t]+\t(\d+\.\d|—)\t\d+%\t[^\t]+\tType 2 diabetes\ttype_2_diabetes$/m);
  });

  it("says how a VCF's sites were read, and reads them as --variants-only says", async () => {
    const io = capture();
    expect(await analyzeCommand([variantsOnlyVcf(), '--resources', resourcesDir])).toBe(0);
    expect(io.out()).toMatch(
      /^Sites: Variants only: .* every site it does not list is read as matching the reference \(decided from the file’s contents\)\. If the file lists every site it called, run again with --variants-only no\.$/m,
    );
    // The parse's notes, as the app shows them under the file.
    expect(io.out()).toMatch(/^Note: This VCF lists only the sites where you differ from the reference genome/m);
    // And why fewer traits are computable than from a chip file.
    expect(io.out()).toMatch(
      /^\d+ of \d+ traits computable \(\d+ ms\)\.\nWhy not more: Your file has no rsIDs, .* Your file lists only the sites where you differ .* A VCF with rsIDs \(bcftools annotate with dbSNP\) that lists every called site is read at all of them\.$/m,
    );
    const asRead = Number(/^\S+: \S+ \(vcf\), ([\d,]+) markers/m.exec(io.out())![1].replace(/,/g, ''));
    expect(await analyzeCommand([variantsOnlyVcf(), '--variants-only', 'no', '--resources', resourcesDir])).toBe(0);
    const second = io.out().split(/^(?=\S+: \S+ \(vcf\))/m)[1];
    expect(second).toMatch(
      /^Sites: Only the sites the file lists \(as you chose\)\. If it lists only the sites where you differ from the reference, run again with --variants-only yes\.$/m,
    );
    // Read as listed, the file has only its own lines: far fewer markers than with every unlisted marker read as REF/REF.
    const asListed = Number(/^\S+: \S+ \(vcf\), ([\d,]+) markers/m.exec(second)![1].replace(/,/g, ''));
    expect(asListed).toBeLessThan(asRead / 10);
    expect(second).toMatch(
      /^Why not more: Your file has no rsIDs, .* The same file with rsIDs .* is read at all of them\.$/m,
    );
    await expect(analyzeCommand([variantsOnlyVcf(), '--variants-only', 'maybe'])).rejects.toThrow(
      /--variants-only must be yes or no \(got "maybe"\)/,
    );
  });

  it('refuses bad arguments with a usage error (exit 2 in the CLI) and returns 1 for an unreadable file', async () => {
    const io = capture();
    await expect(analyzeCommand([])).rejects.toThrow(UsageError);
    await expect(analyzeCommand([])).rejects.toThrow(/Give exactly one genotype file \(got 0\)/);
    await expect(analyzeCommand(['genome.txt', '--ethnicity', '9'])).rejects.toThrow(
      /--ethnicity must be a whole number from 0 to 5/,
    );
    expect(await analyzeCommand([join(dir, 'missing.txt')])).toBe(1);
    expect(io.err()).toMatch(/Could not read/);
  });
});
