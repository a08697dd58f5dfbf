/** Genotype files: metadata, upload URLs, the storage receipt and marker look-ups. */
import { z } from 'zod';
import { ext, Rsid } from './common.js';
import { Population, ReferencePopulation } from './traits.js';
import { SITE_READING_FROM, SITE_READINGS } from '../site-reading.js';

export const UPLOAD_CONTENT_TYPES = ['text/plain', 'application/zip'] as const;
export const UploadContentType = z
  .enum(UPLOAD_CONTENT_TYPES)
  .meta({ id: 'UploadContentType', description: 'Content type of an upload.' });

export const ProcessingStatus = z.enum(['uploaded', 'processing', 'processed', 'failed']).meta({
  id: 'ProcessingStatus',
  description: 'uploaded = waiting for a worker; processing; processed; failed (see `error`).',
});

export const AncestryEstimate = z
  .object({
    method: z.string(),
    best: Population.nullable().describe(
      'Most likely single super-population; null when no ancestry markers were found.',
    ),
    posterior: z.record(z.string(), z.number().min(0).max(1)),
    proportions: z
      .record(z.string(), z.number().min(0).max(1))
      .describe('Supervised admixture proportions per super-population (EUR, AMR, AFR, EAS, SAS), summing to 1.'),
    proportions_se: z
      .record(z.string(), z.number().nullable())
      .nullable()
      .describe('Standard error of each proportion; null where it cannot be estimated (a share at 0 or 1).'),
    markers_used: z.int().min(0),
    aisnps_used: z.int().min(0),
    confidence: z.number().min(0).max(1).describe('docs/ancestry.md'),
    admixed: z.boolean(),
    sufficient: z.boolean().describe('Enough evidence to use without asking the person.'),
    reason: z.string().nullable().describe('A sentence for the person when not sufficient (or admixed).'),
    mixture_frequency_error: z
      .number()
      .nullable()
      .optional()
      .describe(
        'Standard error of a reference frequency mixed in these proportions (root mean square over the markers used, docs/ancestry.md); null when not estimable.',
      ),
    notes: z
      .array(z.string())
      .optional()
      .describe('Markers left out and why (allele mismatches, likely genotyping errors).'),
  })
  .meta({ id: 'AncestryEstimate', description: 'Ancestry inferred from the genotype (docs/ancestry.md).' });

export const SexFacts = z
  .object({
    value: z
      .enum(['male', 'female'])
      .nullable()
      .describe('The sex results use (sex-specific traits, X-chromosome dosage); null when unknown.'),
    source: z
      .enum(['profile', 'dna'])
      .nullable()
      .describe('profile: the gender the person gave; dna: inferred from the file.'),
    dna: z
      .enum(['male', 'female'])
      .nullable()
      .describe('What the DNA file says (X heterozygosity and Y calls), or null.'),
    mismatch: z.boolean().describe('The profile and the DNA disagree.'),
  })
  .meta({ id: 'SexFacts', description: 'The sex results are computed for, and where it comes from.' });

/**
 * Processing state and the parse summary of the genotype in use. The summary fields are
 * absent until a file was read once; after a failed upload they describe the previous file.
 */
export const GenotypeProcessing = z
  .object({
    status: ProcessingStatus,
    error: z.string().nullable().optional().describe('Why the latest file could not be read (status failed).'),
    results_updating: z
      .literal(true)
      .optional()
      .describe(
        "The profile's reference population or sex changed and its stored results are being scored again; trait reads wait for them.",
      ),
    needs_confirmation: z
      .literal(true)
      .optional()
      .describe(
        'The latest file was read but is much smaller or stranger than the genotype in use: it replaces it only after POST …/genotype/upload/?confirm_replace=true.',
      ),
    format: z.string().optional().describe('Detected format: 23andme, ancestrydna, ftdna, myheritage, vcf, generic, …'),
    vendor: z.string().optional().describe('Vendor name, e.g. "23andMe"; "Unknown" for generic text.'),
    container: z.string().optional().describe('plain, gzip, zip or tar.gz.'),
    build: z.literal([36, 37, 38]).nullable().optional().describe('Genome build, or null when unknown.'),
    build_source: z.enum(['header', 'positions']).nullable().optional(),
    snp_count: z.int().min(0).optional().describe('Markers stored (called or not).'),
    no_calls: z.int().min(0).optional(),
    call_rate: z.number().min(0).max(1).optional(),
    skipped_lines: z.int().min(0).optional(),
    skipped_by_reason: z
      .record(z.string(), z.int().min(0))
      .optional()
      .describe('Lines that could not be used, by reason.'),
    duplicates: z
      .int()
      .min(0)
      .optional()
      .describe(
        'Extra lines of an rsID already read; the first with a call is kept. The lines of a multi-allelic site written one alternate allele a line (bcftools norm -m-) are read together into one call and not counted.',
      ),
    binary_tail_bytes: z
      .int()
      .min(0)
      .optional()
      .describe('Bytes of binary data at the end of the text (a damaged or appended-to file); 0 for clean text.'),
    inferred_sex: z
      .enum(['male', 'female'])
      .nullable()
      .optional()
      .describe('From X heterozygosity and Y calls; null when undecidable.'),
    parse_ms: z.number().min(0).optional(),
    site_reading: z
      .enum(SITE_READINGS)
      .optional()
      .describe(
        "How the file's sites were read: only its lines (as_listed), a VCF of non-reference sites whose unlisted markers are read as REF/REF (variants_only), or a gVCF's reference blocks read as REF/REF (reference_blocks). The person can change it with variants_only= on processing.",
      ),
    site_reading_from: z
      .enum(SITE_READING_FROM)
      .optional()
      .describe('What chose site_reading: the file contents, its header, the person, or the default.'),
    vcf_samples: z
      .array(z.string())
      .optional()
      .describe('A VCF of several people: the names of its samples. Absent for other files and VCFs of one sample.'),
    vcf_sample: z
      .string()
      .optional()
      .describe(
        'The sample of vcf_samples that was read: the first, unless another was chosen with sample= on processing.',
      ),
    matched_by: z
      .object({
        rsid: z.int().min(0),
        position: z.int().min(0),
        read_as_reference: z.int().min(0),
      })
      .optional()
      .describe('Markers read by rsID, by position (GRCh37 or GRCh38), and read as REF/REF.'),
    set_aside: z
      .object({
        unknown_reference: z.int().min(0),
        outside_index: z.int().min(0),
      })
      .optional()
      .describe(
        "Calls a variants-only VCF or gVCF lists but that were not kept, being one-sided (listed only where the person carries a variant): at markers whose reference allele is not known in the file's build, and at sites no built-in result uses.",
      ),
    notes: z.array(z.string()).optional(),
    ancestry: AncestryEstimate.nullable().optional(),
    reference: ReferencePopulation.optional().describe(
      'The reference population results of this profile are compared with, and how it was chosen (ethnicity, inferred, or assumed with the reason).',
    ),
    sex: SexFacts.optional(),
  })
  .meta({
    id: 'GenotypeProcessing',
    description: 'Processing state and parse summary of the genotype in use.',
    [`x-traitscope-extension`]: true,
  });

export const GenotypeFile = z
  .object({
    content_type: UploadContentType,
    size: z.string().regex(/^\d+$/).describe('Bytes, as a decimal string.'),
    md5_hash: z.string().describe('Base64 of the MD5 digest.'),
    crc32c: z.string().describe('Base64 of the big-endian CRC32C.'),
    created_at: z.iso.datetime().describe('First upload (UTC).'),
    updated_at: z.iso.datetime().describe('Latest upload (UTC).'),
    metadata: GenotypeProcessing,
  })
  .meta({ id: 'GenotypeFile', description: 'The uploaded genotype file.' });

export const NoGenotype = z
  .object({})
  .strict()
  .meta({ id: 'NoGenotype', description: 'No file was uploaded: an empty object.' });

export const GenotypeMetadata = z.union([GenotypeFile, NoGenotype]).meta({
  id: 'GenotypeMetadata',
  description: 'Metadata of the uploaded file, or {} when nothing was uploaded.',
});
export type GenotypeMetadata = z.infer<typeof GenotypeMetadata>;

export const UploadUrl = z
  .object({
    url: z
      .url()
      .describe('PUT the file here (no Authorization), with the Content-Type it was issued for, before it expires.'),
  })
  .meta({
    id: 'UploadUrl',
    examples: [
      {
        url: 'http://127.0.0.1:4780/storage/genotypes/3f1c2a4e-8d2b-4c7e-9a51-0b6f4d2e7c10?expires=1767225600&content_type=text%2Fplain&signature=Zm9v',
      },
    ],
  });
export type UploadUrl = z.infer<typeof UploadUrl>;

export const UploadReceipt = z
  .object({
    detail: z.string(),
    size: ext(z.string().regex(/^\d+$/), 'Bytes received, as a decimal string.'),
    md5_hash: ext(z.string(), 'Base64 of the MD5 digest.'),
    crc32c: ext(z.string(), 'Base64 of the big-endian CRC32C.'),
  })
  .meta({ id: 'UploadReceipt', description: 'The file was stored; processing has started.' });

export const GenotypeSnp = z
  .object({
    rsid: Rsid,
    chromosome: z.string().nullable().describe('1–22, X, Y, MT; null when the file gave none.'),
    position: z.int().min(1).nullable().describe('Position as given in the file (see the build); null when none.'),
    genotype: z
      .string()
      .describe(
        'Two letters ("AG"), one for a haploid call, "--" for a no-call. At an indel with several ALT alleles read from a VCF (UGT1A1\'s TA repeat rs3064744), each allele is its index among the marker\'s alleles as PharmCAT lists them, 0 for REF ("02": REF and the second ALT).',
      ),
  })
  .meta({ id: 'GenotypeSnp' });
export type GenotypeSnp = z.infer<typeof GenotypeSnp>;

export const GenotypeSnpList = z.array(GenotypeSnp).meta({
  id: 'GenotypeSnpList',
  description: 'The requested markers found in the genotype, in request order; absent markers are left out.',
});

export const MAX_SNP_LOOKUP = 10_000;
/** The longest VCF sample name processing accepts (sample=). */
export const MAX_VCF_SAMPLE_NAME = 200;

/** POST look-up body: a JSON array of rsIDs, or {"rsids": [...]}. */
export const SnpLookupRequest = z
  .union([z.array(z.string()).max(MAX_SNP_LOOKUP), z.object({ rsids: z.array(z.string()).max(MAX_SNP_LOOKUP) })])
  .meta({
    id: 'SnpLookupRequest',
    description: `Up to ${MAX_SNP_LOOKUP.toLocaleString('en')} rsIDs: a JSON array, or {"rsids": [...]}.`,
    examples: [['rs4988235', 'rs12913832']],
  });
