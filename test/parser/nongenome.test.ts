/**
 * What is not one person's genotype is refused, and what is one is not: properties over
 * generated genomes and generated variant tables, plus the headers of real-world
 * statistics and score formats and the genotype exports that must not be mistaken for them.
 * `npm test` draws 80 generated files a property instead of 200, and 1,000 call lists
 * instead of 3,000 (test/support/science-scale.ts), from the same generators.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseGenotypeBytes } from '../../src/service/genotype/parse/index.js';
import { heterozygousNearlyEverywhere } from '../../src/service/genotype/parse/nongenome.js';
import { scienceSize } from '../support/science-scale.js';
import { enc } from './helpers.js';

const BUDGET = { interruptAfterTimeLimit: 5000, numRuns: scienceSize(80, 200) } as const;
const BASES = ['A', 'C', 'G', 'T'];

/** Markers with distinct rsIDs and two distinct alleles each. */
const variants = fc.uniqueArray(fc.integer({ min: 1, max: 2 ** 31 }), { minLength: 60, maxLength: 400 }).chain((ids) =>
  fc.tuple(
    fc.constant(ids),
    fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 3 })), {
      minLength: ids.length,
      maxLength: ids.length,
    }),
  ),
);

describe('variant tables are refused, genomes are not', () => {
  it('any headerless list naming two different alleles per marker (PLINK .bim, and the like)', async () => {
    await fc.assert(
      fc.asyncProperty(variants, fc.constantFrom('bim', 'spec'), async ([ids, alleles], shape) => {
        const lines = ids.map((id, i) => {
          const a = BASES[alleles[i][0]];
          const b = BASES[(alleles[i][0] + alleles[i][1]) % 4];
          return shape === 'bim'
            ? `${(i % 22) + 1}\trs${id}\t0\t${1000 + i}\t${a}\t${b}`
            : `rs${id}\t${(i % 22) + 1}\t${1000 + i}\t${a}\t${b}`;
        });
        const r = await parseGenotypeBytes(enc(lines.join('\n') + '\n'));
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.reason).toMatch(/two different alleles/);
      }),
      BUDGET,
    );
  });

  it("any genome whose heterozygous share is a person's (up to 90%)", async () => {
    await fc.assert(
      fc.asyncProperty(variants, fc.double({ min: 0, max: 0.9, noNaN: true }), async ([ids, alleles], hetShare) => {
        const hetCount = Math.floor(ids.length * hetShare);
        const lines = ids.map((id, i) => {
          const a = BASES[alleles[i][0]];
          const b = i < hetCount ? BASES[(alleles[i][0] + alleles[i][1]) % 4] : a;
          return `rs${id}\t${(i % 22) + 1}\t${1000 + i}\t${a}${b}`;
        });
        const r = await parseGenotypeBytes(enc(lines.join('\n') + '\n'));
        expect(r.ok, r.ok ? '' : r.reason).toBe(true);
      }),
      BUDGET,
    );
  });
});

describe('the heterozygous-share rule, which stops counting early', () => {
  /** The rule counted over every call, as written: at least 50 two-allele calls, at least 95 % heterozygous. */
  function countedInFull(calls: Uint8Array) {
    let diploidCalls = 0;
    let heterozygous = 0;
    for (const c of calls) {
      if ((c & 15) === 0) continue;
      diploidCalls++;
      if (c >> 4 !== (c & 15)) heterozygous++;
    }
    return diploidCalls >= 50 && heterozygous >= diploidCalls * 0.95 ? { diploidCalls, heterozygous } : null;
  }
  const het = fc.constantFrom(0x12, 0x21, 0x34, 0x13);
  const hom = fc.constantFrom(0x11, 0x22, 0x33, 0x44);
  const single = fc.constantFrom(0x00, 0x10, 0x40); // no call, or one allele (haploid)
  // Mostly heterozygous, so many arrays sit near the 95 % line.
  const nearTheLine = fc.array(
    fc.oneof({ weight: 38, arbitrary: het }, { weight: 2, arbitrary: hom }, { weight: 1, arbitrary: single }),
    { maxLength: 300 },
  );
  // A person's share (about a third heterozygous), where the scan stops early.
  const genomeLike = fc.array(
    fc.oneof({ weight: 10, arbitrary: het }, { weight: 20, arbitrary: hom }, { weight: 1, arbitrary: single }),
    { maxLength: 300 },
  );
  const anyBytes = fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 300 });

  it('decides every call list as counting every call would, with the same counts', () => {
    fc.assert(
      fc.property(fc.oneof(nearTheLine, genomeLike, anyBytes), (list) => {
        const calls = Uint8Array.from(list);
        expect(heterozygousNearlyEverywhere(calls)).toEqual(countedInFull(calls));
      }),
      { numRuns: scienceSize(1000, 3000) },
    );
  });

  it('decides at the exact 95 % line as counting in full does', () => {
    for (const [h, o] of [
      [95, 5],
      [94, 5],
      [190, 10],
      [189, 10],
      [1900, 100],
      [1899, 100],
    ]) {
      for (const homFirst of [true, false]) {
        const calls = new Uint8Array(h + o);
        calls.fill(homFirst ? 0x11 : 0x12, 0, homFirst ? o : h);
        calls.fill(homFirst ? 0x12 : 0x11, homFirst ? o : h);
        expect(heterozygousNearlyEverywhere(calls), `${h} heterozygous, ${o} homozygous`).toEqual(countedInFull(calls));
      }
    }
  });
});

describe('column headers', () => {
  const rows = (n: number) =>
    Array.from({ length: n }, (_, i) => `rs${1000 + i}\t${(i % 22) + 1}\t${5000 + i}\tA\tG\t0.1\t0.01\t0.5`).join('\n');
  const refused: Array<[string, RegExp]> = [
    ['MarkerName\tAllele1\tAllele2\tFreq1\tEffect\tStdErr\tP-value', /summary statistics/],
    ['SNP\tCHR\tBP\tA1\tA2\tOR\tSE\tP', /summary statistics/],
    [
      'variant_id\tchromosome\tbase_pair_location\teffect_allele\tother_allele\tbeta\tstandard_error\tp_value',
      /summary statistics/,
    ],
    ['rsid,chr,pos,effect_allele,other_allele,effect_weight', /score file/],
    ['# rsid\tchromosome\tposition\tref\talt', /list of variants/],
  ];
  for (const [header, reason] of refused) {
    it(`refuses "${header.slice(0, 40)}…"`, async () => {
      const r = await parseGenotypeBytes(enc(`${header}\n${rows(100)}\n`));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(reason);
    });
  }

  it('reads an Illumina report, whose columns include "B Allele Freq" and "GC Score"', async () => {
    const header = 'SNP Name\tSample ID\tAllele1 - Plus\tAllele2 - Plus\tGC Score\tX\tY\tB Allele Freq\tLog R Ratio';
    const data = Array.from(
      { length: 200 },
      (_, i) => `rs${1000 + i}\t1\tA\t${i % 3 ? 'A' : 'G'}\t0.8\t0.5\t0.5\t0.02\t0.01`,
    ).join('\n');
    const r = await parseGenotypeBytes(enc(`[Header]\nGSGT Version\t2.0\n[Data]\n${header}\n${data}\n`));
    expect(r.ok, r.ok ? '' : r.reason).toBe(true);
    if (r.ok) expect(r.summary.snp_count).toBe(200);
  });

  it('reads a genome whose comments use words like "or" and "effect"', async () => {
    const genome = Array.from(
      { length: 200 },
      (_, i) => `rs${1000 + i}\t${(i % 22) + 1}\t${5000 + i}\t${i % 3 ? 'AA' : 'AG'}`,
    ).join('\n');
    const prose =
      '# This data is for research or educational use: it has no effect on medical care, P values or OR figures.\n# rsid\tchromosome\tposition\tgenotype\n';
    const r = await parseGenotypeBytes(enc(prose + genome + '\n'));
    expect(r.ok, r.ok ? '' : r.reason).toBe(true);
  });
});

describe('lines that are not genotype lines', () => {
  it('refuses text where most lines are not genotype lines, and says how many were read', async () => {
    const code = Array.from({ length: 60 }, (_, i) =>
      i % 10 === 0 ? `rs${100 + i}\t1\t${i + 1}\tAG` : `const value${'x'.repeat(i % 7)} = compute();`,
    ).join('\n');
    const r = await parseGenotypeBytes(enc(code + '\n'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/Only 6 of 60 lines of this file read as genotypes; 54 are not genotype lines/);
  });

  it('reads a genome whose markers partly lack rsIDs (i-numbers, chr:pos ids), however many', async () => {
    const lines = Array.from({ length: 300 }, (_, i) =>
      i % 4
        ? `${i % 8 ? `i${700000 + i}` : `1:${10000 + i}`}\t1\t${10000 + i}\tAA`
        : `rs${500 + i}\t1\t${10000 + i}\t${i % 8 ? 'AA' : 'AG'}`,
    );
    const r = await parseGenotypeBytes(enc(`# rsid\tchromosome\tposition\tgenotype\n${lines.join('\n')}\n`));
    expect(r.ok, r.ok ? '' : r.reason).toBe(true);
    if (r.ok) expect(r.summary.snp_count).toBe(75);
  });
});

describe('binary data after the text', () => {
  const genome =
    Array.from({ length: 2000 }, (_, i) => `rs${1000 + i}\t${(i % 22) + 1}\t${5000 + i}\t${i % 3 ? 'AA' : 'AG'}`).join(
      '\n',
    ) + '\n';
  const noise = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 7919 + 13) & 0xff);
  const join = (a: Uint8Array, b: Uint8Array) => {
    const out = new Uint8Array(a.length + b.length);
    out.set(a);
    out.set(b, a.length);
    return out;
  };

  it('is noted, with its size, when it is the smaller part', async () => {
    const r = await parseGenotypeBytes(join(enc(genome), noise(8192)));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.summary.binary_tail_bytes).toBeGreaterThan(8000);
    expect(r.summary.notes.join('\n')).toMatch(/binary data, not text/);
    expect(r.summary.snp_count).toBe(2000);
  });

  it('refuses the file when it is most of it', async () => {
    const r = await parseGenotypeBytes(join(enc(genome), noise(200_000)));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/Most of this file .* is binary data/);
  });

  it('is 0 for clean text', async () => {
    const r = await parseGenotypeBytes(enc(genome));
    expect(r.ok && r.summary.binary_tail_bytes).toBe(0);
  });
});
