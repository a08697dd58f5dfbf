/** The DNA card's warnings: what in a file's summary a person must see before trusting the results. */
import { describe, expect, it } from 'vitest';
import { fileWarnings } from '../../src/renderer/src/lib/file-warnings.js';

describe('warnings on the DNA card', () => {
  it('asks whether a chip file of few markers is the complete download', () => {
    expect(
      fileWarnings({ snp_count: 9_599, site_reading: 'as_listed', matched_by: { rsid: 9_599, position: 0 } }),
    ).toEqual([
      'Only 9,599 markers were read. Files from testing companies hold 500,000 or more: check that this is the complete raw-data download, not an excerpt.',
    ]);
  });

  it('does not for a whole-genome VCF read by position or as variants only: it keeps only the markers results use', () => {
    for (const m of [
      { snp_count: 28_000, site_reading: 'as_listed', matched_by: { rsid: 0, position: 28_000 } },
      { snp_count: 27_874, site_reading: 'variants_only', matched_by: { rsid: 9_000, position: 0 } },
      { snp_count: 27_874, site_reading: 'reference_blocks', matched_by: { rsid: 0, position: 9_000 } },
    ])
      expect(fileWarnings(m), m.site_reading).toEqual([]);
  });

  it('shows the notes that say the results rest on part of what was uploaded', () => {
    const others =
      'The zip archive holds another file that may be genotype data ("genome/chr22.vcf"); only "genome/chr1.vcf", the largest, was read, and the results rest on it alone.';
    const m = { snp_count: 600_000, notes: ['Read "genome/chr1.vcf" from the zip archive.', others] };
    expect(fileWarnings(m)).toEqual([others]);
    const samples =
      'The VCF file holds 3 samples ("child", "mother", "father"); the first sample, "child", was read, and the results are that person\'s.';
    expect(fileWarnings({ snp_count: 600_000, notes: [samples] })).toEqual([samples]);
    // Once the person chose the profile's sample, the note is no warning.
    const chosen = 'The VCF file holds 3 samples ("child", "mother", "father"); "mother" was read, as chosen.';
    expect(fileWarnings({ snp_count: 600_000, notes: [chosen] })).toEqual([]);
  });
});
