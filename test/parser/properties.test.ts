/**
 * Property-based tests: whatever bytes arrive, the parser answers (never throws; a hang
 * fails the test at its timeout) and what it answers is self-consistent; and any file that
 * follows the spec's rules 1–8 reads back exactly the genotypes it was written from. The
 * time per parse and the memory over many parses are measured by `npm run bench`
 * (bench/hostile.bench.ts), not asserted here.
 *
 * `npm test` draws about a third of the cases (test/support/science-scale.ts): 100 random
 * or mutated inputs instead of 300, 35 of 1–64 KiB instead of 100, 80 and 15 model files
 * instead of 200 and 30, from the same generators; the long model files still pass the
 * 300-line detection sample. test:all draws them all.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callToString } from '../../src/service/genotype/encoding.js';
import type { ParseResult } from '../../src/service/genotype/types.js';
import { parseGenotypeBytes } from '../../src/service/genotype/parse/index.js';
import { ACCEPTED } from '../fixtures/genotypes/expected.js';
import { concat, plainFixture, wrappedFixture } from '../fixtures/genotypes/wrap.js';
import { scienceSize } from '../support/science-scale.js';
import { enc, markerRows } from './helpers.js';

function checkConsistent(r: ParseResult): void {
  if (!r.ok) {
    expect(typeof r.reason).toBe('string');
    expect(r.reason.length).toBeGreaterThan(20);
    expect(r.reason).toMatch(/[.?)]$/);
    return;
  }
  const g = r.genotype;
  const s = r.summary;
  const n = g.rsids.length;
  expect(n).toBeGreaterThan(0);
  expect([g.calls.length, g.chroms.length, g.positions.length]).toEqual([n, n, n]);
  for (let i = 1; i < n; i++) if (!(g.rsids[i] > g.rsids[i - 1])) throw new Error('rsids not strictly ascending');
  for (let i = 0; i < n; i++) {
    const c = g.calls[i];
    if (c !== 0 && (c >> 4 < 1 || c >> 4 > 6 || (c & 15) > 6)) throw new Error(`bad call byte ${c}`);
    if (g.chroms[i] > 26) throw new Error(`bad chromosome ${g.chroms[i]}`);
  }
  expect(s.snp_count).toBe(n);
  expect(s.no_calls).toBe(g.calls.filter((c) => c === 0).length);
  expect(s.skipped_lines).toBe(Object.values(s.skipped_by_reason).reduce((a, b) => a + b, 0));
  expect(s.call_rate).toBeGreaterThanOrEqual(0);
  expect(s.call_rate).toBeLessThanOrEqual(1);
}

describe('the parser answers whatever it is given', () => {
  it('random bytes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 4096 }), async (bytes) =>
        checkConsistent(await parseGenotypeBytes(bytes)),
      ),
      { numRuns: scienceSize(100, 300) },
    );
  });

  it('random text made of genotype-file characters', async () => {
    const alphabet = fc.constantFrom(...'rs0123456789ACGTDI-#\t ,;"\r\nXYMTchr/|.'.split(''));
    await fc.assert(
      fc.asyncProperty(fc.array(alphabet, { maxLength: 3000 }), async (chars) =>
        checkConsistent(await parseGenotypeBytes(enc(chars.join('')))),
      ),
      { numRuns: scienceSize(100, 300) },
    );
  });

  it('mutated fixtures, plain and compressed', async () => {
    const sources: Uint8Array[] = [];
    for (const fx of ACCEPTED) sources.push(fx.wrap ? await wrappedFixture(fx.wrap) : await plainFixture(fx.file));
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
      fc.record({
        kind: fc.constant('insert' as const),
        at: fc.nat(),
        bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }),
      }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 200 }) }),
      fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
      fc.record({
        kind: fc.constant('repeat' as const),
        at: fc.nat(),
        length: fc.integer({ min: 1, max: 300 }),
        times: fc.integer({ min: 2, max: 50 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: sources.length - 1 }),
        fc.array(mutation, { minLength: 1, maxLength: 6 }),
        async (which, mutations) => {
          let b = sources[which];
          for (const m of mutations) {
            const at = b.length === 0 ? 0 : m.at % b.length;
            if (m.kind === 'flip' && b.length > 0) {
              b = b.slice();
              b[at] = m.value;
            } else if (m.kind === 'insert') b = concat(b.subarray(0, at), m.bytes, b.subarray(at));
            else if (m.kind === 'delete') b = concat(b.subarray(0, at), b.subarray(at + m.length));
            else if (m.kind === 'truncate') b = b.subarray(0, at);
            else if (m.kind === 'repeat') {
              const seg = b.subarray(at, at + m.length);
              b = concat(b.subarray(0, at), ...Array.from({ length: m.times }, () => seg), b.subarray(at));
            }
          }
          checkConsistent(await parseGenotypeBytes(b));
        },
      ),
      { numRuns: scienceSize(100, 300) },
    );
  });

  it('random bytes of 1–64 KiB', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1024, maxLength: 65536 }), async (bytes) => {
        checkConsistent(await parseGenotypeBytes(bytes));
      }),
      { numRuns: scienceSize(35, 100) },
    );
  });
});

// ---- Model-based: files written by the spec's rules read back exactly ----

const ALLELES = ['A', 'C', 'G', 'T', '-'];
const CHROMS = [...Array.from({ length: 22 }, (_, i) => String(i + 1)), 'X', 'Y'];

interface Rec {
  rsid: number;
  chrom: string | null;
  pos: number | null;
  a1: string;
  a2: string;
  split: boolean;
  chrPrefix: boolean;
}

/**
 * Records with rsIDs up to `maxRsid`: a small range, so duplicates happen, but not so many
 * conflicting ones that the file reads as two people's (parse/nongenome.ts refuses that).
 */
const recArbUpTo = (maxRsid: number): fc.Arbitrary<Rec> =>
  fc.record({
    rsid: fc.integer({ min: 1, max: maxRsid }),
    chrom: fc.option(fc.constantFrom(...CHROMS), { nil: null }),
    pos: fc.option(fc.integer({ min: 100, max: 250_000_000 }), { nil: null }),
    a1: fc.constantFrom(...ALLELES),
    a2: fc.constantFrom(...ALLELES),
    split: fc.boolean(),
    chrPrefix: fc.boolean(),
  });

const sepArb = fc.array(fc.constantFrom(' ', '\t', ','), { minLength: 1, maxLength: 3 }).map((s) => s.join(''));

function render(r: Rec, sep: string): string {
  const cells = [`rs${r.rsid}`];
  if (r.chrom !== null) cells.push((r.chrPrefix ? 'chr' : '') + r.chrom);
  if (r.pos !== null) cells.push(String(r.pos));
  if (r.split) cells.push(r.a1, r.a2);
  else cells.push(r.a1 + r.a2);
  return cells.join(sep);
}

/** What the parser must store for a record, in markerRows form. */
function modelCall(r: Rec): number {
  const code = (a: string) => (' ACGT-'.indexOf(a) === 5 ? 5 : ' ACGT'.indexOf(a));
  if (r.a1 === '-' && r.a2 === '-') return 0; // "--" is a no-call by every vendor's convention
  return (code(r.a1) << 4) | code(r.a2);
}

function modelRows(recs: Rec[]): string[] {
  const chosen = new Map<number, Rec>();
  for (const r of recs) {
    const prev = chosen.get(r.rsid);
    if (!prev || (modelCall(prev) === 0 && modelCall(r) !== 0)) chosen.set(r.rsid, r);
  }
  return [...chosen.values()]
    .sort((a, b) => a.rsid - b.rsid)
    .map((r) => {
      const chrom = r.chrom === null ? '0' : r.chrom;
      return `rs${r.rsid} ${chrom} ${r.pos ?? 0} ${callToString(modelCall(r))}`;
    });
}

describe('files following the spec rules read back exactly (model-based)', () => {
  // Short files are parsed line by line during format detection; files past the
  // 300-line detection sample also go through the one-pass fast path.
  for (const [label, minLength, maxLength, numRuns, maxRsid] of [
    ['short files', 1, 120, scienceSize(80, 200), 200],
    ['files longer than the detection sample', 320, 700, scienceSize(15, 30), 5000],
  ] as const)
    it(`any separators, optional CHR/POS, chr prefix, combined or split alleles, # headers, duplicates: ${label}`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(recArbUpTo(maxRsid), sepArb), { minLength, maxLength }),
          fc.array(fc.constantFrom('# exported genotype data', '#', '# generated for a test', '## note'), {
            maxLength: 4,
          }),
          fc.constantFrom('\n', '\r\n'),
          async (rows, header, eol) => {
            const text = [...header, ...rows.map(([r, sep]) => render(r, sep))].join(eol) + eol;
            const r = await parseGenotypeBytes(enc(text));
            if (!r.ok) throw new Error(`${r.reason}\n${text}`);
            expect(markerRows(r.genotype)).toEqual(modelRows(rows.map(([rec]) => rec)));
            expect(r.summary.skipped_lines).toBe(0);
            expect(r.summary.duplicates).toBe(rows.length - r.genotype.rsids.length);
          },
        ),
        { numRuns },
      );
    });
});
