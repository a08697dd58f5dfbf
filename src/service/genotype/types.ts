/**
 * The compact, parsed form of one person's genotype: what the parser produces, what is
 * stored per profile, and what scoring reads. Columnar typed arrays, sorted by rsid, so a
 * marker is found by binary search and the whole thing stores as four blobs.
 */
import type { Population } from '../../shared/populations.js';
import type { FileLimits } from '../../shared/file-limits.js';
import type { SiteReading, SiteReadingFrom } from '../../shared/site-reading.js';

export interface Genotype {
  /** Numeric part of each rsID ("rs123" → 123), strictly ascending (duplicates resolved). */
  rsids: Uint32Array;
  /** One byte per marker: (allele1 << 4) | allele2, see encoding.ts. 0 = no call. */
  calls: Uint8Array;
  /** Chromosome code per marker (encoding.ts CHROM_*); 0 = not given in the file. */
  chroms: Uint8Array;
  /** Position per marker as given in the file (build in the summary); 0 = not given. */
  positions: Uint32Array;
}

/** What the user learns about a parsed file; stored as JSON in genotype metadata. */
export interface ParseSummary {
  /** Detected file format, e.g. "23andme", "ancestrydna", "ftdna", "myheritage", "vcf", "generic". */
  format: string;
  /** Human-readable vendor name, e.g. "23andMe"; "Unknown" for generic text. */
  vendor: string;
  /** Container the genotype text was found in: "plain", "gzip", "zip", "tar.gz". */
  container: string;
  /** Genome build: 36, 37, 38, or null when unknown. */
  build: 36 | 37 | 38 | null;
  /** How the build was determined: "header", "positions", or null. */
  build_source: 'header' | 'positions' | null;
  /** Markers stored (called or not), after skipping and deduplication. */
  snp_count: number;
  /** Markers with a no-call. */
  no_calls: number;
  /** called / snp_count, 0..1. */
  call_rate: number;
  /** Lines that could not be used, total and by reason (e.g. {"non_rs_id": 12, "bad_alleles": 3}). */
  skipped_lines: number;
  skipped_by_reason: Record<string, number>;
  /** Duplicate rsIDs found and how they were resolved. */
  duplicates: number;
  /** Bytes of binary data (from the first NUL byte on) at the end of the text; its lines were skipped. 0 for clean text. */
  binary_tail_bytes: number;
  /** "male", "female", or null when undecidable, from X heterozygosity and Y calls. */
  inferred_sex: 'male' | 'female' | null;
  /** Milliseconds spent parsing. */
  parse_ms: number;
  /**
   * How the file's sites were read (docs/file-formats.md): as_listed (only its lines),
   * variants_only (a VCF of non-reference sites; unlisted markers read as REF/REF), or
   * reference_blocks (a gVCF). Optional: summaries stored before it was recorded lack it.
   */
  site_reading?: SiteReading;
  /** What chose the reading: the file's contents, its header, the person, or the default. */
  site_reading_from?: SiteReadingFrom;
  /**
   * A VCF of several people: its sample names, and the one read (the first, unless another
   * was chosen for the profile). Absent for other files and single-sample VCFs.
   */
  vcf_samples?: string[];
  vcf_sample?: string;
  /** Markers read by rsID, by position, and read as REF/REF (unlisted in a variants-only VCF, or in a gVCF block). */
  matched_by?: { rsid: number; position: number; read_as_reference: number };
  /**
   * Calls a variants-only VCF or a gVCF lists but that were not kept, being one-sided (the
   * file lists them only where the person carries a variant): at markers whose REF is not
   * known in the file's build, and at rsIDs outside the position index.
   */
  set_aside?: { unknown_reference: number; outside_index: number };
  /** Anything else the parser wants to say (e.g. which VCF sample was used). */
  notes: string[];
}

export interface ParseSuccess {
  ok: true;
  genotype: Genotype;
  summary: ParseSummary;
}

export interface ParseFailure {
  ok: false;
  /** A sentence a person understands, saying what was wrong and how to fix it. */
  reason: string;
}

export type ParseResult = ParseSuccess | ParseFailure;

/** What an ancestry estimate from the genotype found (docs/ancestry.md). */
export interface AncestryInference {
  method: string;
  /** Most likely single super-population, null when no ancestry markers were found. */
  best: Population | null;
  posterior: Record<Population, number>;
  /** Supervised admixture proportions, summing to 1. */
  proportions: Record<Population, number>;
  proportions_se: Record<Population, number> | null;
  /** Markers of the file with reference frequencies and matching alleles. */
  markers_used: number;
  aisnps_used: number;
  /** 0..1; documented in docs/ancestry.md. */
  confidence: number;
  admixed: boolean;
  /** Enough evidence to use without asking the person. */
  sufficient: boolean;
  /** A sentence for the person when not sufficient (or admixed). */
  reason: string | null;
  /**
   * Standard error of a reference frequency built from the proportions (root mean square over
   * the markers used, docs/ancestry.md); null when not estimable. Absent in estimates stored
   * before it existed.
   */
  mixture_frequency_error?: number | null;
}

/** What the stored genotype says about the person. */
export interface GenotypeFacts {
  ancestry: AncestryInference | null;
  inferredSex: 'male' | 'female' | null;
  /** What keeps markers out of this file's reading (shared/file-limits.ts), so a result missing them can say why. */
  fileLimits?: FileLimits | null;
}
