/**
 * The API contract: every request and response body of the REST interface, as zod
 * schemas. The service validates with these, the OpenAPI document is generated from them,
 * and the renderer's typed client uses the inferred types, so the three cannot drift.
 */
import { z } from 'zod';

export const GENDERS = ['Unknown', 'Male', 'Female'] as const;
export const ETHNICITIES = [
  'Unknown',
  'European (White)',
  'American (Hispanic or Latino)',
  'African (Black or African American)',
  'East Asian',
  'South Asian',
] as const;

export const SCOPES = ['read:profiles', 'write:profiles'] as const;
/** Held only by the desktop UI's own client: manage API clients and app data. */
export const APP_SCOPE = 'manage:app';
export type Scope = (typeof SCOPES)[number];

export const UPLOAD_CONTENT_TYPES = ['text/plain', 'application/zip'] as const;

export const Detail = z.object({ detail: z.string() }).meta({ id: 'Detail', description: 'A sentence saying what happened, or what went wrong and how to fix it.' });
export type Detail = z.infer<typeof Detail>;

// ---- Profiles ----------------------------------------------------------------------

const name = (field: string) =>
  z.string({ error: `${field} must be a string` }).max(100, { error: `${field} must be at most 100 characters` });
const intIn = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be an integer from ${min} to ${max}` })
    .int({ error: `${field} must be an integer from ${min} to ${max}` })
    .min(min, { error: `${field} must be an integer from ${min} to ${max}` })
    .max(max, { error: `${field} must be an integer from ${min} to ${max}` });

/** Writable profile fields. `id` and `email` are read-only and unknown keys are ignored. */
export const ProfileInput = z
  .object({
    first_name: name('first_name').optional(),
    last_name: name('last_name').optional(),
    gender: intIn('gender', 0, 2).optional().describe('0 = Unknown, 1 = Male, 2 = Female'),
    age: intIn('age', 0, 150).nullable().optional(),
    ethnicity: intIn('ethnicity', 0, 5)
      .optional()
      .describe('0 = Unknown, 1 = European (White), 2 = American (Hispanic or Latino), 3 = African (Black or African American), 4 = East Asian, 5 = South Asian'),
  })
  .meta({ id: 'ProfileInput' });
export type ProfileInput = z.infer<typeof ProfileInput>;

export const Profile = z
  .object({
    id: z.uuid(),
    email: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    gender: z.number().int().min(0).max(2),
    age: z.number().int().min(0).max(150).nullable(),
    ethnicity: z.number().int().min(0).max(5),
  })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof Profile>;

// ---- Genotype ----------------------------------------------------------------------

export const GenotypeProcessing = z
  .object({
    status: z.enum(['uploaded', 'processing', 'processed', 'failed']),
    error: z.string().nullable().optional().describe('Why the latest file could not be read (status failed).'),
  })
  .catchall(z.unknown())
  .meta({
    id: 'GenotypeProcessing',
    description:
      'Processing state and the parse summary of the genotype in use: format, vendor, build, snp_count, call_rate, no_calls, skipped_lines, skipped_by_reason, duplicates, inferred_sex, ancestry, parse_ms.',
  });

export const GenotypeMetadata = z
  .union([
    z.object({
      content_type: z.string(),
      size: z.string().describe('Bytes, as a decimal string.'),
      md5_hash: z.string().describe('Base64 of the MD5 digest.'),
      crc32c: z.string().describe('Base64 of the big-endian CRC32C.'),
      created_at: z.string().describe('ISO 8601 UTC, first upload.'),
      updated_at: z.string().describe('ISO 8601 UTC, latest upload.'),
      metadata: GenotypeProcessing,
    }),
    z.object({}).strict().describe('No file was uploaded.'),
  ])
  .meta({ id: 'GenotypeMetadata' });
export type GenotypeMetadata = z.infer<typeof GenotypeMetadata>;

export const UploadUrl = z.object({ url: z.string() }).meta({ id: 'UploadUrl' });
export type UploadUrl = z.infer<typeof UploadUrl>;

export const GenotypeSnp = z
  .object({
    rsid: z.string(),
    chromosome: z.string().nullable(),
    position: z.number().int().nullable(),
    genotype: z.string().describe('Two letters ("AG"), one for a haploid call, "--" for a no-call.'),
  })
  .meta({ id: 'GenotypeSnp' });
export type GenotypeSnp = z.infer<typeof GenotypeSnp>;

// ---- Traits ------------------------------------------------------------------------

const POPULATIONS = ['EUR', 'AMR', 'AFR', 'EAS', 'SAS'] as const;
const EvidenceLabel = z.enum(['strong', 'moderate', 'limited', 'suggestive']);
const ProportionsSchema = z.object(Object.fromEntries(POPULATIONS.map((p) => [p, z.number().min(0).max(1)])) as Record<(typeof POPULATIONS)[number], z.ZodNumber>);

export const TraitEvidence = z
  .object({
    label: EvidenceLabel,
    reasons: z.array(z.string()),
    genome_wide_markers: z.number().int().nullable(),
    top_marker_share: z.number().min(0).max(1),
    curated: z.boolean(),
    flags: z.array(z.string()),
    variance_explained: z.object({ value: z.number(), description: z.string(), source: z.string() }).nullable(),
  })
  .meta({ id: 'TraitEvidence', description: 'What the evidence behind the score is (docs/science.md, "Evidence").' });

export const TraitGroup = z
  .object({
    code: z.string().describe("The group's headline trait code."),
    name: z.string().describe('The phenotype, without author or PMID.'),
    size: z.number().int().min(1),
    headline: z.boolean().describe("This trait is the group's headline result."),
  })
  .meta({ id: 'TraitGroup', description: 'Studies of one phenotype; one headline result (docs/science.md, "Phenotype groups").' });

export const Trait = z
  .object({
    code: z.string(),
    name: z.string(),
    overview: z.string().describe('May contain simple HTML markup.'),
    connotation: z.enum(['risky', 'good', 'neutral']),
    category: z.string().optional(),
    featured: z.boolean().optional().describe('Part of the curated consumer set (the rest is the generated GWAS set).'),
    quality: z
      .object({
        markers: z.number().int(),
        sample_size: z.number().nullable(),
        publication_year: z.number().int().nullable(),
        evidence: z.string(),
        study_id: z.string().nullable(),
        pmid: z.string().nullable(),
        first_author: z.string().nullable(),
        citation: z.string(),
      })
      .optional(),
    study_label: z.string().optional().describe('The study behind the score, e.g. "Mahajan et al. 2018".'),
    group: TraitGroup.optional(),
    sex: z.enum(['male', 'female']).nullable().optional().describe('The sex the trait applies to; null for everyone.'),
    sex_reason: z.string().nullable().optional(),
    evidence: TraitEvidence.optional(),
  })
  .meta({ id: 'Trait' });
export type Trait = z.infer<typeof Trait>;

export const PricingType = z.enum(['free', 'basic']).meta({ id: 'PricingType' });

export const ClientTrait = z.object({ trait: Trait, type: PricingType }).meta({ id: 'ClientTrait' });
export type ClientTrait = z.infer<typeof ClientTrait>;

export const TraitStatus = z.enum(['available', 'unavailable', 'computed']).meta({ id: 'TraitStatus' });
export type TraitStatus = z.infer<typeof TraitStatus>;

export const AssessedMarker = z
  .object({
    rsid: z.string(),
    genotype: z.string(),
    effect_allele: z.string(),
    other_allele: z.string(),
    weight: z.number(),
    dosage: z.number(),
    use: z.enum(['observed', 'imputed', 'excluded']),
  })
  .meta({ id: 'AssessedMarker' });

export const ReferencePopulation = z
  .object({
    population: z.enum([...POPULATIONS, 'MIXED']),
    label: z.string(),
    source: z.enum(['ethnicity', 'inferred', 'assumed']).describe('ethnicity: chosen by the person; inferred: from the DNA file; assumed: too little evidence.'),
    weights: ProportionsSchema,
    reason: z.string(),
    ancestry: z
      .object({
        best: z.enum(POPULATIONS).nullable(),
        proportions: ProportionsSchema,
        markers_used: z.number().int(),
        confidence: z.number().min(0).max(1),
        admixed: z.boolean(),
        sufficient: z.boolean(),
      })
      .nullable(),
  })
  .meta({ id: 'ReferencePopulation', description: 'The reference population a result was compared with, and how it was chosen.' });

export const ResultEvidence = z
  .object({
    label: EvidenceLabel,
    trait_label: EvidenceLabel,
    coverage: z.number().min(0).max(1),
    markers_used: z.number().int(),
    markers_total: z.number().int(),
    genome_wide_markers: z.number().int().nullable(),
    top_marker_share: z.number().min(0).max(1),
    variance_explained: z.object({ value: z.number(), description: z.string(), source: z.string() }).nullable(),
    reasons: z.array(z.string()),
  })
  .meta({ id: 'ResultEvidence' });

export const ProfileTrait = z
  .object({
    trait: Trait,
    status: TraitStatus,
    assessment_level: z.number().int().min(1).max(5).nullable().optional().describe('1 = lowest genetic predisposition … 5 = highest. null only for imported scores without reference frequencies (raw score only).'),
    recommendations: z.string().optional(),
    percentile: z.number().min(0).max(100).nullable().optional().describe('0–100 (mid-rank). null only for imported scores without reference frequencies (raw score only).'),
    snps: z.array(z.string()).optional(),
    level_label: z.string().optional(),
    coverage: z.number().min(0).max(1).optional().describe('Fraction of the trait markers genotyped.'),
    population: z.enum([...POPULATIONS, 'MIXED']).optional().describe('The reference population, or MIXED for a reference built from proportions.'),
    population_source: z.enum(['ethnicity', 'inferred', 'assumed']).optional(),
    reference: ReferencePopulation.optional(),
    evidence: ResultEvidence.optional(),
    percentile_text: z.string().optional(),
    percentile_bound: z.enum(['below_0.1', 'above_99.9']).nullable().optional(),
    reachable_levels: z.array(z.number().int().min(1).max(5)).optional(),
    group_agreement: z
      .object({ others: z.number().int(), agree: z.number().int(), disagree: z.number().int(), summary: z.string() })
      .optional()
      .describe("Headline results of a phenotype group: how the group's other studies agree (docs/science.md, \"Phenotype groups\")."),
    status_reason: z
      .object({ code: z.enum(['low_coverage', 'not_applicable', 'processing', 'no_genotype']), detail: z.string() })
      .optional()
      .describe('Why the trait is unavailable for this profile.'),
    score: z.number().optional(),
    distribution: z
      .object({
        mean: z.number(),
        sd: z.number(),
        min: z.number(),
        max: z.number(),
        method: z.enum(['exact', 'grid', 'normal']),
        source: z.enum(['table', 'computed']),
        density: z.array(z.tuple([z.number(), z.number()])),
      })
      .nullable()
      .optional(),
    markers: z.array(AssessedMarker).optional(),
    match: z
      .object({
        markers: z.number().int(),
        observed: z.number().int(),
        imputed: z.number().int(),
        excluded: z.number().int(),
        strand_flipped: z.number().int(),
      })
      .optional()
      .describe('Match-rate report: how the trait markers matched the genotype (full assessments only).'),
    computed_at: z.string().optional(),
  })
  .meta({ id: 'ProfileTrait' });
export type ProfileTrait = z.infer<typeof ProfileTrait>;

/** POST /profiles/{id}/traits/ accepts both documented shapes. */
export const ComputeRequest = z
  .union([z.array(z.string()), z.object({ trait_codes: z.array(z.string()) })])
  .meta({ id: 'ComputeRequest', description: 'A JSON array of trait codes, or {"trait_codes": [...]}.' });

// ---- OAuth2 ------------------------------------------------------------------------

export const TokenRequest = z
  .object({
    client_id: z.string(),
    client_secret: z.string(),
    audience: z.string().describe('{base_url}/profiles'),
    grant_type: z.literal('client_credentials'),
    scope: z.string().optional().describe('Space-separated subset of the client scopes; all of them when omitted.'),
  })
  .meta({ id: 'TokenRequest' });

export const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    scope: z.string(),
  })
  .meta({ id: 'TokenResponse' });
export type TokenResponse = z.infer<typeof TokenResponse>;

export const OAuthError = z
  .object({ error: z.string(), error_description: z.string() })
  .meta({ id: 'OAuthError', description: 'RFC 6749 §5.2 error.' });

// ---- App management (the desktop UI's own client only: scope manage:app) --------------

export const ApiClient = z
  .object({
    client_id: z.string(),
    name: z.string(),
    scopes: z.array(z.string()),
    free_traits: z.union([z.enum(['default', 'all', 'none']), z.array(z.string())]),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
    is_app: z.boolean(),
  })
  .meta({ id: 'ApiClient' });
export type ApiClient = z.infer<typeof ApiClient>;

export const ApiClientInput = z
  .object({
    name: z.string({ error: 'name must be a string' }).trim().min(1, { error: 'name is required' }).max(100, { error: 'name must be at most 100 characters' }),
    scopes: z.array(z.enum(SCOPES, { error: `scopes must be a list of ${SCOPES.join(', ')}` })).min(1, { error: 'scopes needs at least one scope' }).optional(),
    free_traits: z.union([z.enum(['default', 'all', 'none']), z.array(z.string())], { error: 'free_traits must be "default", "all", "none" or a list of trait codes' }).optional(),
  })
  .meta({ id: 'ApiClientInput' });
export type ApiClientInput = z.infer<typeof ApiClientInput>;

export const CreatedApiClient = ApiClient.extend({ client_secret: z.string().describe('Shown once; only a hash is stored.') }).meta({ id: 'CreatedApiClient' });
export type CreatedApiClient = z.infer<typeof CreatedApiClient>;

export const AppInfo = z
  .object({
    version: z.string(),
    data_dir: z.string(),
    base_url: z.string(),
    auth_url: z.string(),
    catalog: z.object({ traits: z.number().int(), featured: z.number().int() }),
  })
  .meta({ id: 'AppInfo' });
export type AppInfo = z.infer<typeof AppInfo>;
