/**
 * The line loop (TableParser.lines, by WebAssembly) must decide every line exactly as the
 * general path (TableParser.line) does: same markers, same skip counts. Fed random
 * near-valid lines for each layout it serves: 250 files of up to 40 lines each (about 5,000
 * lines a layout, drawn from a few dozen cell values and separators, so every pairing
 * recurs many times; 800 files took a minute on the 2-core machine and found nothing more).
 * `npm test` draws 100 files a layout (test/support/science-scale.ts; about 2,000 lines, each
 * pairing still recurring), and feeds the loop 2 MiB instead of 3 MiB of each shape: still
 * three 1 MiB input windows.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GenotypeCollector } from '../../src/service/genotype/parse/collect.js';
import type { TableLayout } from '../../src/service/genotype/parse/layout.js';
import { SkipCounter } from '../../src/service/genotype/parse/stats.js';
import { eachLine, TableParser } from '../../src/service/genotype/parse/table.js';
import { SEP_ANY } from '../../src/service/genotype/parse/tokenize.js';
import { scienceSize } from '../support/science-scale.js';
import { enc } from './helpers.js';

const base = { sep: SEP_ANY, headerFirstCell: 'rsid', note: null };
const LAYOUTS: Record<string, TableLayout> = {
  combined: { rsid: 0, chrom: 1, pos: 2, gt: 3, a2: -1, flexible: false, ...base },
  split: { rsid: 0, chrom: 1, pos: 2, gt: 3, a2: 4, flexible: false, ...base },
  flexible: { rsid: 0, chrom: -1, pos: -1, gt: -1, a2: -1, flexible: true, ...base, headerFirstCell: null },
};

const cell = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom('rs1', 'rs42', 'rs4294967295', 'rs4294967296', 'rs0', 'RS7', 'i55', 'rsX', 'rsid'),
  },
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      '1',
      '9',
      '10',
      '22',
      '23',
      '26',
      '27',
      '0',
      '05',
      'X',
      'Y',
      'MT',
      'chr7',
      'XY',
      'PAR',
      'Z',
    ),
  },
  { weight: 6, arbitrary: fc.constantFrom('100', '0', '4294967295', '4294967296', '12345678901', '7a') },
  {
    weight: 8,
    arbitrary: fc.constantFrom('AA', 'AG', 'A', 'G', '-', '--', 'DI', 'I', '0', '00', 'A0', 'AX', 'A/G', 'ACG', 'N'),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
);
const sep = fc.constantFrom(' ', '\t', ',', '  ', '","', '\t\t', ';', '"');
const line = fc
  .tuple(
    fc.array(fc.tuple(cell, sep), { minLength: 1, maxLength: 7 }),
    fc.constantFrom('', '"', '\r', ' \r', '#'),
    fc.boolean(),
  )
  .map(([cells, tail, lead]) => {
    const text = cells.map(([c, s], i) => (i === 0 ? c : s + c)).join('') + (tail === '#' ? '' : tail);
    return tail === '#' ? '#' + text : (lead ? '"' : '') + text;
  });

function run(layout: TableLayout, text: string, bulk: boolean) {
  const out = new GenotypeCollector();
  const skips = new SkipCounter();
  const p = new TableParser(layout, out, skips);
  const buf = enc(text);
  if (bulk) p.lines(buf, 0, buf.length);
  else eachLine(p, buf, 0, buf.length);
  const rows: string[] = [];
  for (let i = 0; i < out.length; i++) rows.push(out.at(i).join(' '));
  // Hands the parse core to the next run, as a parse hands it to the next file (a new
  // WebAssembly instance and memory for each of the 1,500 runs was most of this file's time).
  out.core.release();
  return { rows, skipped: skips.byReason() };
}

describe('fast path agrees with the general path', () => {
  for (const [name, layout] of Object.entries(LAYOUTS)) {
    it(`${name} layout`, () => {
      fc.assert(
        fc.property(fc.array(line, { minLength: 1, maxLength: 40 }), (lines) => {
          const text = lines.join('\n') + '\n';
          expect(run(layout, text, true)).toEqual(run(layout, text, false));
        }),
        { numRuns: scienceSize(100, 250) },
      );
    });
  }
});

describe('the WebAssembly line loop', () => {
  it('takes the lines of the common shapes itself, across input windows', () => {
    // 3 MiB (2 MiB in npm test) of 23andMe-, AncestryDNA- and FTDNA-shaped lines: several 1 MiB windows.
    const textBytes = scienceSize(2, 3) << 20;
    const shapes: Array<[TableLayout, (i: number) => string]> = [
      [LAYOUTS.combined, (i) => `rs${i + 1}\t${(i % 22) + 1}\t${1000 + i}\t${'ACGT'[i % 4]}${'ACGT'[(i >> 2) % 4]}\n`],
      [LAYOUTS.split, (i) => `rs${i + 1}\t${(i % 26) + 1}\t${1000 + i}\t${'ACGT'[i % 4]}\t${'ACGT'[(i >> 2) % 4]}\r\n`],
      [
        LAYOUTS.combined,
        (i) =>
          `"rs${i + 1}","${['X', 'Y', 'MT', '7'][i % 4]}","${1000 + i}","${'ACGT'[i % 4]}${'ACGT'[(i >> 2) % 4]}"\n`,
      ],
    ];
    for (const [layout, make] of shapes) {
      const lines: string[] = [];
      for (let i = 0, bytes = 0; bytes < textBytes; i++) {
        lines.push(i % 50 === 7 ? `i${i}\t1\t5\tAA\n` : make(i));
        bytes += lines[lines.length - 1].length;
      }
      const out = new GenotypeCollector();
      const skips = new SkipCounter();
      const p = new TableParser(layout, out, skips);
      const buf = enc(lines.join(''));
      p.lines(buf, 0, buf.length);
      const internal = lines.filter((l) => l.startsWith('i')).length;
      expect(out.length).toBe(lines.length - internal);
      expect(p.loopMarkers).toBe(out.length);
      expect(skips.byReason()).toEqual({ non_rs_id: internal });
      expect(out.at(out.length - 1)[0]).toBe(lines.length);
    }
  });
});
