/**
 * The collector's sort and duplicate rule against a plain reference implementation, on
 * rsIDs across the whole 32-bit range (so every radix pass runs).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GenotypeCollector } from '../../src/service/genotype/parse/collect.js';
import { parseGenotypeBytes } from '../../src/service/genotype/parse/index.js';
import { ParseCore } from '../../src/service/genotype/parse/wasm/core.js';
import { enc } from './helpers.js';

interface Row {
  rsid: number;
  call: number;
  chrom: number;
  pos: number;
}

function reference(rows: Row[]) {
  const chosen = new Map<number, Row>();
  let duplicates = 0;
  for (const r of rows) {
    const prev = chosen.get(r.rsid);
    if (!prev) chosen.set(r.rsid, r);
    else {
      duplicates++;
      if (prev.call === 0 && r.call !== 0) chosen.set(r.rsid, r);
    }
  }
  const sorted = [...chosen.values()].sort((a, b) => a.rsid - b.rsid);
  return { sorted, duplicates };
}

const rowArb = (maxRsid: number) =>
  fc.record({
    rsid: fc.integer({ min: 1, max: maxRsid }),
    call: fc.constantFrom(0, 0x11, 0x12, 0x21, 0x34, 0x40, 0x56),
    chrom: fc.integer({ min: 0, max: 26 }),
    pos: fc.integer({ min: 0, max: 0xffffffff }),
  });

describe('GenotypeCollector', () => {
  for (const [label, maxRsid] of [
    ['small rsIDs (many duplicates)', 300],
    ['rsIDs over the full 32-bit range', 0xffffffff],
  ] as const) {
    it(`sorts stably and applies the duplicate rule: ${label}`, () => {
      fc.assert(
        fc.property(fc.array(rowArb(maxRsid), { maxLength: 3000 }), (rows) => {
          const c = new GenotypeCollector();
          for (const r of rows) c.add(r.rsid, r.call, r.chrom, r.pos);
          const { genotype: g, duplicates } = c.finish();
          const ref = reference(rows);
          expect(duplicates).toBe(ref.duplicates);
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

  // Past 65,536 records the sort first splits by the top bits of the rsIDs' range, then sorts each part by the rest.
  for (const [label, rsidOf] of [
    ['rsIDs spread over 31 bits', (x: number) => (x % 2_000_000_000) + 1],
    ['rsIDs crowded into one top bucket, with many duplicates', (x: number) => 1_500_000_000 + (x % 150_000)],
    ['rsIDs below 2,048 (one part each)', (x: number) => (x % 2047) + 1],
    ['rsIDs that are mostly small, with a few large', (x: number) => (x & 15 ? (x % 5000) + 1 : x >>> 1)],
  ] as const) {
    it(`sorts a large input stably with the duplicate rule: ${label}`, () => {
      const c = new GenotypeCollector();
      let x = 987654321;
      const rows: Row[] = [];
      for (let i = 0; i < 300_000; i++) {
        x = (Math.imul(x, 1103515245) + 12345) >>> 0;
        const r = { rsid: rsidOf(x), call: [0, 0x12, 0x21, 0x34][(x >>> 20) & 3], chrom: 1 + (i % 22), pos: i };
        rows.push(r);
        c.add(r.rsid, r.call, r.chrom, r.pos);
      }
      const { genotype: g, duplicates } = c.finish();
      const ref = reference(rows);
      expect(duplicates).toBe(ref.duplicates);
      expect(Array.from(g.rsids)).toEqual(ref.sorted.map((r) => r.rsid));
      expect(Array.from(g.positions)).toEqual(ref.sorted.map((r) => r.pos));
      expect(Array.from(g.calls)).toEqual(ref.sorted.map((r) => r.call));
      expect(Array.from(g.chroms)).toEqual(ref.sorted.map((r) => r.chrom));
    });
  }

  it('handles a large unsorted input with reserve()', () => {
    const c = new GenotypeCollector();
    c.reserve(200_000);
    let x = 12345;
    const rows: Row[] = [];
    for (let i = 0; i < 200_000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      const r = { rsid: (x % 2_000_000_000) + 1, call: (x >>> 8) & 1 ? 0x12 : 0, chrom: 1 + (i % 22), pos: i };
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
