import { gzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseGenotypeBytes } from '../../src/service/genotype/parse/index.js';
import { ACCEPTED } from '../fixtures/genotypes/expected.js';
import { enc, fixtureBytes, markerRows, sortRows } from './helpers.js';

const v5 = ACCEPTED.find((f) => f.file === '23andme_v5.txt')!;

describe('compressed containers', () => {
  it('reads a .gz of a 23andMe file', async () => {
    const r = await parseGenotypeBytes(gzipSync(await fixtureBytes('23andme_v5.txt')));
    if (!r.ok) throw new Error(r.reason);
    expect(r.summary.container).toBe('gzip');
    expect(markerRows(r.genotype)).toEqual(sortRows(v5.markers));
  });

  it('reads the genotype member of a .zip, ignoring __MACOSX and a README', async () => {
    const zip = zipSync({
      '__MACOSX/._genome.txt': enc('\u0000\u0005\u0016\u0007junk'),
      'README.pdf': enc('%PDF-1.4'),
      'genome_Full_20190305.txt': await fixtureBytes('23andme_v5.txt'),
    });
    const r = await parseGenotypeBytes(zip);
    if (!r.ok) throw new Error(r.reason);
    expect(r.summary.container).toBe('zip');
    expect(markerRows(r.genotype)).toEqual(sortRows(v5.markers));
  });

  it('refuses a truncated gzip with a reason', async () => {
    const gz = gzipSync(await fixtureBytes('23andme_v5.txt'));
    const r = await parseGenotypeBytes(gz.subarray(0, gz.length - 30));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/truncated/);
  });

  it('refuses a zip without a genotype member, naming what it holds', async () => {
    const r = await parseGenotypeBytes(zipSync({ 'photo.jpg': new Uint8Array([0xff, 0xd8, 0xff, 1]), '__MACOSX/._photo.jpg': enc('x') }));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/no genotype file.*photo\.jpg/);
  });
});
