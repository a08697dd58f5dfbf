/** When a parsed file may replace the genotype in use without asking (genotype/plausibility.ts). */
import { describe, expect, it } from 'vitest';
import { replacementConcern } from '../../src/service/genotype/plausibility.js';

const genome = { snp_count: 640_000, call_rate: 0.985, skipped_lines: 2_000, binary_tail_bytes: 0 };
const id = '6f1c2a9e-0000-4000-8000-000000000001';

describe('replacementConcern', () => {
  it('lets any file be the first one', () => {
    expect(
      replacementConcern(null, { snp_count: 3, call_rate: 0.3, skipped_lines: 90, binary_tail_bytes: 10 }, id),
    ).toBeNull();
  });

  it('lets a comparable file replace the genome (another chip, another vendor)', () => {
    expect(
      replacementConcern(genome, { snp_count: 700_000, call_rate: 0.99, skipped_lines: 0, binary_tail_bytes: 0 }, id),
    ).toBeNull();
    expect(
      replacementConcern(
        genome,
        { snp_count: 330_000, call_rate: 0.97, skipped_lines: 20_000, binary_tail_bytes: 0 },
        id,
      ),
    ).toBeNull();
    // Small genotypes replace each other freely (fewer than 1,000 markers lost).
    expect(
      replacementConcern(
        { ...genome, snp_count: 900, skipped_lines: 0 },
        { ...genome, snp_count: 3, skipped_lines: 0 },
        id,
      ),
    ).toBeNull();
  });

  it('asks before a much smaller file replaces it, saying why and how to confirm', () => {
    const concern = replacementConcern(
      genome,
      { snp_count: 3, call_rate: 1, skipped_lines: 0, binary_tail_bytes: 0 },
      id,
    );
    expect(concern).toMatch(/it has 3 markers, far fewer than the 640,000 of the genotype in use/);
    expect(concern).toMatch(/The genotype in use and its results were kept/);
    expect(concern).toContain(`POST /api/profiles/${id}/genotype/upload/?confirm_replace=true`);
  });

  it('lets a sequencing VCF read only at the markers Traitscope knows replace it: its count is not its size', () => {
    // A whole genome listing variants only, or without rsIDs, keeps only the index's markers
    // it can read: ~28,000 of a complete file. Its count says nothing of a cut-off download.
    const wholeGenome = { snp_count: 27_874, call_rate: 1, skipped_lines: 0, binary_tail_bytes: 0, build: 38 as const };
    for (const read of [
      { site_reading: 'variants_only' as const, matched_by: { rsid: 5_000, position: 9, read_as_reference: 21_944 } },
      {
        site_reading: 'reference_blocks' as const,
        matched_by: { rsid: 0, position: 6_000, read_as_reference: 21_000 },
      },
      { site_reading: 'as_listed' as const, matched_by: { rsid: 0, position: 14_763, read_as_reference: 0 } },
    ])
      expect(replacementConcern(genome, { ...wholeGenome, ...read }, id)).toBeNull();
    // A VCF read by its rsIDs, as listed, counts its lines: far fewer is still asked about.
    const cut = {
      ...wholeGenome,
      site_reading: 'as_listed' as const,
      matched_by: { rsid: 27_874, position: 0, read_as_reference: 0 },
    };
    expect(replacementConcern(genome, cut, id)).toMatch(/it has 27,874 markers, far fewer than the 640,000/);
  });

  it('asks before a stranger file replaces it: calls missing, lines unreadable, binary data', () => {
    expect(replacementConcern(genome, { ...genome, call_rate: 0.6 }, id)).toMatch(
      /only 60% of its markers have a call, against 99%/,
    );
    expect(replacementConcern(genome, { ...genome, skipped_lines: 300_000 }, id)).toMatch(
      /32% of its lines could not be read/,
    );
    expect(replacementConcern(genome, { ...genome, binary_tail_bytes: 1 << 20 }, id)).toMatch(/ends in binary data/);
    const all = replacementConcern(
      genome,
      { snp_count: 10, call_rate: 0.5, skipped_lines: 50, binary_tail_bytes: 9 },
      id,
    )!;
    expect(all.split('; and ')).toHaveLength(4);
  });
});
