/** The chains the service lifts positions with (resources/catalog/liftover.bin) give what the UCSC chain files give. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decodeLiftover,
  encodeLiftover,
  LIFTOVER_FILE,
  liftoverOf,
  liftPosition,
} from '../../src/service/genotype/liftover.js';
import { readChain } from '../../scripts/catalog/liftover.js';
import { rng } from '../support/prng.js';

const resourcesDir = join(import.meta.dirname, '..', '..', 'resources');
const chains = join(import.meta.dirname, '..', '..', '..', 'shared', 'data', 'liftover');

describe('liftover chains shipped with the catalog', () => {
  const to38 = readChain(join(chains, 'hg19ToHg38.over.chain.gz'));
  const to37 = readChain(join(chains, 'hg38ToHg19.over.chain.gz'));
  const lift = liftoverOf(resourcesDir);

  it('lifts 2,000 random positions as the UCSC chain files do, both ways', () => {
    const rand = rng(37);
    const chroms = ['1', '2', '6', '11', '17', '22', 'X'];
    let lifted = 0;
    // Every position lifted otherwise than the chain file says, in one expect.
    const wrong: string[] = [];
    for (let k = 0; k < 2000; k++) {
      const chrom = chroms[k % chroms.length];
      const pos = 1 + Math.floor(rand() * 150_000_000);
      const a = liftPosition(to38, chrom, pos)?.pos ?? null;
      const b = liftPosition(to37, chrom, pos)?.pos ?? null;
      const [to38Lifted, to37Lifted] = [lift(chrom, pos, 37, 38), lift(chrom, pos, 38, 37)];
      if (to38Lifted !== a) wrong.push(`chr${chrom}:${pos} 37 → 38: ${to38Lifted}, the chain's ${a}`);
      if (to37Lifted !== b) wrong.push(`chr${chrom}:${pos} 38 → 37: ${to37Lifted}, the chain's ${b}`);
      if (a !== null) lifted++;
    }
    expect(wrong).toEqual([]);
    // Most of a chromosome's first 150 Mb is aligned: the comparison is not of nulls.
    expect(lifted).toBeGreaterThan(1000);
  });

  it('lifts a known marker: rs7412 (APOE) at chr19:45412079 in GRCh37 is chr19:44908822 in GRCh38', () => {
    // GRCh37: the 1000 Genomes extract; GRCh38: the GWAS Catalog e87 release (../shared/data/impute-me).
    expect(lift('19', 45412079, 37, 38)).toBe(44908822);
    expect(lift('19', 44908822, 38, 37)).toBe(45412079);
    expect(lift('19', 45412079, 37, 37)).toBe(45412079);
  });

  it('round-trips through its file format and refuses a damaged file with what to do', () => {
    const bytes = encodeLiftover(to38, to37);
    expect(Buffer.compare(Buffer.from(bytes), readFileSync(join(resourcesDir, LIFTOVER_FILE)))).toBe(0);
    const [a, b] = decodeLiftover(bytes);
    expect([...a.byChrom.keys()].sort()).toEqual([...to38.byChrom.keys()].sort());
    expect(b.byChrom.get('7')!.size).toEqual(to37.byChrom.get('7')!.size);
    expect(() => decodeLiftover(bytes.subarray(0, bytes.length - 3))).toThrow(/truncated: rebuild the catalog/);
    expect(() => decodeLiftover(new Uint8Array(16))).toThrow(/not a Traitscope liftover file/);
  });
});
