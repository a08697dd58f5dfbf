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

export const ProfileTrait = z
  .object({
    trait: Trait,
    status: TraitStatus,
    assessment_level: z.number().int().min(1).max(5).optional().describe('1 = lowest genetic predisposition … 5 = highest.'),
    recommendations: z.string().optional(),
    percentile: z.number().min(0).max(100).optional(),
    snps: z.array(z.string()).optional(),
    level_label: z.string().optional(),
    coverage: z.number().min(0).max(1).optional().describe('Fraction of the trait markers genotyped.'),
    population: z.enum(['EUR', 'AMR', 'AFR', 'EAS', 'SAS']).optional(),
    population_source: z.enum(['ethnicity', 'inferred', 'default']).optional(),
    score: z.number().optional(),
    distribution: z
      .object({
        mean: z.number(),
        sd: z.number(),
        min: z.number(),
        max: z.number(),
        method: z.enum(['exact', 'normal']),
        density: z.array(z.tuple([z.number(), z.number()])),
      })
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
