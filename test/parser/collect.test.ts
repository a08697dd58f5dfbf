/**
 * The collector's sort and duplicate rule against a plain reference implementation, on
 * rsIDs across the whole 32-bit range (so every radix pass runs).
 *
 * The large inputs hold 300,000 records in `npm run test:all` and 100,000 in `npm test`
 * (test/support/science-scale.ts): both past the 65,536 records from which the sort first
 * splits by the top bits, with parts of about 50 (or 160) records spread over 31 bits, and
 * crowded ones below and above the 32 records that get an insertion sort.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GenotypeCollector } from '../../src/service/genotype/parse/collect.js';
import { parseGenotypeBytes } from '../../src/service/genotype/parse/index.js';
import { mergeSplitCalls, sameAlleles } from '../../src/service/genotype/parse/split-sites.js';
import { ParseCore } from '../../src/service/genotype/parse/wasm/core.js';
import { scienceSize } from '../support/science-scale.js';
import { enc } from './helpers.js';

interface Row {
  rsid: number;
  call: number;
  chrom: number;
  pos: number;
  /** A VCF SNV record's REF allele code (0: another line), for split multi-allelic sites. */
  ref: number;
}

/**
 * The rows in file order grouped by rsID (a numeric sort of rsID · 2¹⁹ + row, exact in a
 * double, far faster than a Map of 300,000 rsIDs), then per rsID its first row, or its first
 * called row when the first is a no-call; a later row at the kept row's position and SNV REF
 * whose call is another ALT of the site is read into its call (mergeSplitCalls, counted as
 * merged); every other further row is a duplicate, and rsIDs with a called row that differs
 * from the call kept (allele order aside) are conflicting.
 */
function reference(rows: Row[]) {
  if (rows.length > 2 ** 19) throw new Error('reference(): at most 2^19 rows');
  const order = Float64Array.from(rows, (r, i) => r.rsid * 2 ** 19 + i).sort();
  const sorted: Row[] = [];
  let duplicates = 0;
  let merged = 0;
  let conflicting = 0;
  for (let k = 0; k < order.length;) {
    const first = rows[order[k] % 2 ** 19];
    let chosen = { ...first };
    let conflict = false;
    let j = k + 1;
    for (; j < order.length && rows[order[j] % 2 ** 19].rsid === first.rsid; j++) {
      const r = rows[order[j] % 2 ** 19];
      if (r.call === 0 || sameAlleles(r.call, chosen.call)) duplicates++;
      else if (chosen.call === 0) {
        duplicates++;
        chosen = { ...r };
      } else {
        const site = r.ref === chosen.ref && r.pos === chosen.pos && r.chrom === chosen.chrom;
        const both = site ? mergeSplitCalls(chosen.call, r.call, r.ref) : 0;
        if (both !== 0) {
          merged++;
          chosen.call = both;
        } else {
          duplicates++;
          conflict = true;
        }
      }
    }
    if (conflict) conflicting++;
    sorted.push(chosen);
    k = j;
  }
  return { sorted, duplicates, merged, conflicting };
}

/** What finish() counts over the kept markers: no-calls and the sex evidence (sex.ts). */
function referenceCounts(kept: Row[]) {
  const counts = { noCalls: 0, xCalled: 0, xHet: 0, yMarkers: 0, yCalled: 0 };
  for (const r of kept) {
    if (r.call === 0) counts.noCalls++;
    if (r.chrom === 23 && r.call !== 0) {
      counts.xCalled++;
      if ((r.call & 0xf) !== 0 && (r.call & 0xf) !== r.call >> 4) counts.xHet++;
    } else if (r.chrom === 24) {
      counts.yMarkers++;
      if (r.call !== 0) counts.yCalled++;
    }
  }
  return counts;
}

/** The first index where two columns differ (lengths included), or null: one loop instead of a deep comparison of 300,000 items. */
function firstDifference(got: ArrayLike<number>, want: ArrayLike<number>) {
  for (let i = 0; i < Math.max(got.length, want.length); i++)
    if (got[i] !== want[i]) return { index: i, got: got[i], want: want[i], lengths: [got.length, want.length] };
  return null;
}

/** Rows of which some sit at their rsID's one site, with the REF A or G: split multi-allelic sites among duplicates. */
const rowArb = (maxRsid: number) =>
  fc
    .record({
      rsid: fc.integer({ min: 1, max: maxRsid }),
      call: fc.constantFrom(0, 0x11, 0x12, 0x21, 0x13, 0x31, 0x14, 0x33, 0x34, 0x44, 0x10, 0x30, 0x40, 0x56),
      chrom: fc.integer({ min: 0, max: 26 }),
      pos: fc.integer({ min: 0, max: 0xffffffff }),
      ref: fc.constantFrom(0, 1, 1, 3),
      atSite: fc.boolean(),
    })
    .map(({ atSite, ...r }): Row => (atSite ? { ...r, chrom: 1 + (r.rsid % 26), pos: r.rsid } : r));

describe('GenotypeCollector', () => {
  for (const [label, maxRsid] of [
    ['small rsIDs (many duplicates)', 300],
    ['rsIDs over the full 32-bit range', 0xffffffff],
  ] as const) {
    it(`sorts stably and applies the duplicate rule: ${label}`, () => {
      fc.assert(
        fc.property(fc.array(rowArb(maxRsid), { maxLength: 3000 }), (rows) => {
          const c = new GenotypeCollector();
          for (const r of rows) c.add(r.rsid, r.call, r.chrom, r.pos, r.ref);
          const { genotype: g, duplicates, merged, conflicting } = c.finish();
          const ref = reference(rows);
          expect({ duplicates, merged, conflicting }).toEqual({
            duplicates: ref.duplicates,
            merged: ref.merged,
            conflicting: ref.conflicting,
          });
          expect(Array.from(g.rsids)).toEqual(ref.sorted.map((r) => r.rsid));
          expect(Array.from(g.calls)).toEqual(ref.sorted.map((r) => r.call));
          expect(Array.from(g.chroms)).toEqual(ref.sorted.map((r) => r.chrom));
          expect(Array.from(g.positions)).toEqual(ref.sorted.map((r) => r.pos));
        }),
        { numRuns: 150 },
      );
    });
  }

  it('hands its core to the next parse when the file is refused, as when it is read', async () => {
    const idle = ParseCore.acquire();
    idle.release();
    const refused = await parseGenotypeBytes(enc('Dear diary,\nnothing here is a genotype.\n'));
    expect(refused.ok).toBe(false);
    const next = ParseCore.acquire();
    next.release();
    expect(next, 'the idle core after a refused parse').toBe(idle);
  });

  // Past 65,536 records the sort first splits by the top bits of the rsIDs' range (part sizes from a histogram of
  // the top 16 bits, or counted when the range is narrow), then sorts each part by the rest and keeps its markers;
  // a part larger than a sixth of the records (mostly small rsIDs) is sorted before any marker is kept.
  const LARGE = scienceSize(100_000, 300_000);
  for (const [label, rsidOf] of [
    ['rsIDs spread over 31 bits', (x: number) => (x % 2_000_000_000) + 1],
    [
      'rsIDs spread over 2,000,000,000-3,000,000,000 (a range far from 0)',
      (x: number) => 2_000_000_000 + (x % 1_000_000_000),
    ],
    ['rsIDs crowded into one top bucket, with many duplicates', (x: number) => 1_500_000_000 + (x % 150_000)],
    ['rsIDs below 2,048 (one part each)', (x: number) => (x % 2047) + 1],
    ['rsIDs that are mostly small, with a few large', (x: number) => (x & 15 ? (x % 5000) + 1 : x >>> 1)],
  ] as const) {
    it(`sorts a large input stably with the duplicate rule: ${label}`, () => {
      const c = new GenotypeCollector();
      let x = 987654321;
      const rows: Row[] = [];
      for (let i = 0; i < LARGE; i++) {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        const call = [0, 0x12, 0x21, 0x34, 0x11, 0x10, 0x33, 0x40][(x >>> 20) & 7];
        const rsid = rsidOf(x);
        // One row in four at its rsID's own site with REF A: split multi-allelic sites among the duplicates.
        const atSite = ((x >>> 24) & 3) === 0;
        const r = atSite
          ? { rsid, call, chrom: 1 + (rsid % 24), pos: rsid, ref: 1 }
          : { rsid, call, chrom: 1 + (i % 24), pos: i, ref: 0 };
        rows.push(r);
        c.add(r.rsid, r.call, r.chrom, r.pos, r.ref);
      }
      const { genotype: g, duplicates, conflicting, merged, noCalls, sex } = c.finish();
      const ref = reference(rows);
      expect({ duplicates, conflicting, merged }).toEqual({
        duplicates: ref.duplicates,
        conflicting: ref.conflicting,
        merged: ref.merged,
      });
      expect({ noCalls, ...sex }).toEqual(referenceCounts(ref.sorted));
      expect(
        firstDifference(
          g.rsids,
          ref.sorted.map((r) => r.rsid),
        ),
        'rsids',
      ).toBeNull();
      expect(
        firstDifference(
          g.positions,
          ref.sorted.map((r) => r.pos),
        ),
        'positions',
      ).toBeNull();
      expect(
        firstDifference(
          g.calls,
          ref.sorted.map((r) => r.call),
        ),
        'calls',
      ).toBeNull();
      expect(
        firstDifference(
          g.chroms,
          ref.sorted.map((r) => r.chrom),
        ),
        'chroms',
      ).toBeNull();
    });
  }

  // Past the 65,536 records of the bucketed sort too.
  const LARGE_UNSORTED = scienceSize(100_000, 200_000);
  it('handles a large unsorted input with reserve()', () => {
    const c = new GenotypeCollector();
    c.reserve(LARGE_UNSORTED);
    let x = 12345;
    const rows: Row[] = [];
    for (let i = 0; i < LARGE_UNSORTED; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      const r = { rsid: (x % 2_000_000_000) + 1, call: (x >>> 8) & 1 ? 0x12 : 0, chrom: 1 + (i % 22), pos: i, ref: 0 };
      rows.push(r);
      c.add(r.rsid, r.call, r.chrom, r.pos);
    }
    const { genotype: g } = c.finish();
    const ref = reference(rows);
    expect(g.rsids.length).toBe(ref.sorted.length);
    for (let i = 0; i < g.rsids.length; i += 997) {
      expect(g.rsids[i]).toBe(ref.sorted[i].rsid);
      expect(g.positions[i]).toBe(ref.sorted[i].pos);
    }
  });
});
