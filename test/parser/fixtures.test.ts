import { describe, expect, it } from 'vitest';
import { parseGenotypeBytes } from '../../src/service/genotype/parse/index.js';
import { ACCEPTED, REJECTED } from '../fixtures/genotypes/expected.js';
import { plainFixture, wrappedFixture } from '../fixtures/genotypes/wrap.js';
import { markerRows, sortRows } from './helpers.js';
import { parseGenotypeFile } from '../../src/service/genotype/parse/index.js';
import { fixturePath } from './helpers.js';

describe('fixture corpus: accepted files', () => {
  for (const fx of ACCEPTED) {
    it(`${fx.file} → ${fx.format} (${fx.container})`, async () => {
      const r = fx.wrap
        ? await parseGenotypeBytes(await wrappedFixture(fx.wrap))
        : await parseGenotypeFile(fixturePath(fx.file));
      if (!r.ok) throw new Error(`rejected: ${r.reason}`);
      const s = r.summary;
      if (fx.markers) expect(markerRows(r.genotype)).toEqual(sortRows(fx.markers));
      if (fx.snpCount !== undefined) expect(s.snp_count).toBe(fx.snpCount);
      expect({ format: s.format, vendor: s.vendor, container: s.container, build: s.build }).toEqual({
        format: fx.format,
        vendor: fx.vendor,
        container: fx.container,
        build: fx.build,
      });
      if (fx.buildSource !== undefined) expect(s.build_source).toBe(fx.buildSource);
      if (fx.skipped) expect(s.skipped_by_reason).toEqual(fx.skipped);
      if (fx.duplicates !== undefined) expect(s.duplicates).toBe(fx.duplicates);
      if (fx.sex !== undefined) expect(s.inferred_sex).toBe(fx.sex);
      for (const note of fx.notes ?? []) expect(s.notes.join('\n')).toContain(note);
      // Summary arithmetic and Genotype invariants hold for every file.
      const g = r.genotype;
      expect(s.snp_count).toBe(g.rsids.length);
      expect([g.calls.length, g.chroms.length, g.positions.length]).toEqual([
        g.rsids.length,
        g.rsids.length,
        g.rsids.length,
      ]);
      for (let i = 1; i < g.rsids.length; i++) expect(g.rsids[i]).toBeGreaterThan(g.rsids[i - 1]);
      expect(s.no_calls).toBe(g.calls.filter((c) => c === 0).length);
      expect(s.call_rate).toBeCloseTo((s.snp_count - s.no_calls) / s.snp_count, 10);
      expect(s.skipped_lines).toBe(Object.values(s.skipped_by_reason).reduce((a, b) => a + b, 0));
      expect(s.parse_ms).toBeGreaterThanOrEqual(0);
    });
  }
});

describe('fixture corpus: rejected files', () => {
  for (const fx of REJECTED) {
    it(`${fx.file} is refused with a reason`, async () => {
      const bytes = fx.wrap ? await wrappedFixture(fx.wrap) : await plainFixture(fx.file);
      const r = await parseGenotypeBytes(bytes);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(fx.reason);
    });
  }
});

describe('a VCF of several people', () => {
  const file = 'vcf_phased_chr_multisample.vcf';

  it('reads the sample chosen for the profile, and says which of them it was', async () => {
    const bytes = await plainFixture(file);
    const mother = await parseGenotypeBytes(bytes, { vcfSample: 'mother' });
    if (!mother.ok) throw new Error(mother.reason);
    expect(sortRows(markerRows(mother.genotype))).toEqual(
      sortRows([
        'rs141175086 1 844777 CC',
        'rs6672356 1 942451 CC',
        'rs3748597 1 953279 TT',
        'rs12845396 X 6111492 AT',
      ]),
    );
    expect(mother.summary).toMatchObject({ vcf_samples: ['child', 'mother', 'father'], vcf_sample: 'mother' });
    expect(mother.summary.notes).toContain(
      'The VCF file holds 3 samples ("child", "mother", "father"); "mother" was read, as chosen.',
    );
    // The last column too, with a haploid call on X.
    const father = await parseGenotypeBytes(bytes, { vcfSample: 'father' });
    if (!father.ok) throw new Error(father.reason);
    expect(sortRows(markerRows(father.genotype))).toEqual(
      sortRows(['rs141175086 1 844777 TT', 'rs6672356 1 942451 TT', 'rs3748597 1 953279 TT', 'rs12845396 X 6111492 T']),
    );
    // Without a choice, the first sample, and the notes say how to choose another.
    const first = await parseGenotypeBytes(bytes);
    if (!first.ok) throw new Error(first.reason);
    expect(first.summary).toMatchObject({ vcf_samples: ['child', 'mother', 'father'], vcf_sample: 'child' });
    expect(first.summary.notes.join('\n')).toContain('If they are someone else’s, choose the profile’s sample');
  });

  it('refuses a sample the file does not have, naming the ones it has', async () => {
    const r = await parseGenotypeBytes(await plainFixture(file), { vcfSample: 'grandmother' });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.reason).toBe(
        'This VCF file has no sample named "grandmother": its 3 samples are "child", "mother", "father". Choose one of them.',
      );
    // A cohort's 60th sample: past the columns a line is split into, so the refusal says how to extract it.
    const names = Array.from({ length: 60 }, (_, i) => `S${i + 1}`);
    const cohort = [
      '##fileformat=VCFv4.2',
      `#CHROM\tPOS\tID\tREF\tALT\tQUAL\tFILTER\tINFO\tFORMAT\t${names.join('\t')}`,
      `1\t877831\trs6672356\tT\tC\t.\tPASS\t.\tGT\t${names.map(() => '0/1').join('\t')}`,
    ].join('\n');
    const far = await parseGenotypeBytes(new TextEncoder().encode(cohort + '\n'), { vcfSample: 'S60' });
    expect(far.ok).toBe(false);
    if (!far.ok)
      expect(far.reason).toBe(
        '"S60" is sample 60 of this VCF; Traitscope reads one of its first 55. ' +
          'Extract that sample (bcftools view -s "S60" your-file.vcf.gz -Oz -o one-sample.vcf.gz) and upload that.',
      );
    const last = await parseGenotypeBytes(new TextEncoder().encode(cohort + '\n'), { vcfSample: 'S55' });
    if (!last.ok) throw new Error(last.reason);
    expect(markerRows(last.genotype)).toEqual(['rs6672356 1 877831 TC']);
  });
});
