/** What only the desktop UI's own client may use (scope manage:app): not for third-party tools. */
import { z } from 'zod';
import { SCOPES } from './common.js';
import { Trait } from './traits.js';

export const FreeTraits = z
  .union([z.enum(['default', 'all', 'none']), z.array(z.string())], {
    error: 'free_traits must be "default", "all", "none" or a list of trait codes',
  })
  .meta({
    id: 'FreeTraits',
    description: 'Which traits the client gets free: the catalog default, all, none, or a list of codes.',
  });

export const ApiClient = z
  .object({
    client_id: z.string(),
    name: z.string(),
    scopes: z.array(z.string()),
    free_traits: FreeTraits,
    created_at: z.iso.datetime(),
    revoked_at: z.iso.datetime().nullable(),
    is_app: z.boolean(),
  })
  .meta({ id: 'ApiClient' });
export type ApiClient = z.infer<typeof ApiClient>;
export const ApiClientList = z.array(ApiClient).meta({ id: 'ApiClientList' });

export const RevokedApiClient = z
  .object({
    detail: z.string(),
    deleted_profiles: z
      .int()
      .min(0)
      .describe('Profiles the client created that were deleted (delete_data=true), else 0.'),
  })
  .meta({ id: 'RevokedApiClient', description: 'The client was revoked (and its profiles deleted, when asked).' });

export const ApiClientInput = z
  .object({
    name: z
      .string({ error: 'name must be a string' })
      .trim()
      .min(1, { error: 'name is required' })
      .max(100, { error: 'name must be at most 100 characters' }),
    scopes: z
      .array(z.enum(SCOPES, { error: `scopes must be a list of ${SCOPES.join(', ')}` }))
      .min(1, { error: 'scopes needs at least one scope' })
      .optional(),
    free_traits: FreeTraits.optional(),
  })
  .meta({
    id: 'ApiClientInput',
    examples: [{ name: 'My analysis script', scopes: ['read:profiles'], free_traits: 'default' }],
  });
export type ApiClientInput = z.infer<typeof ApiClientInput>;

export const CreatedApiClient = ApiClient.extend({
  client_secret: z.string().describe('Shown once; only a hash is stored.'),
}).meta({ id: 'CreatedApiClient' });
export type CreatedApiClient = z.infer<typeof CreatedApiClient>;

export const AppInfo = z
  .object({
    version: z.string(),
    data_dir: z.string(),
    base_url: z.url(),
    auth_url: z.url(),
    catalog: z.object({ traits: z.int().min(0), featured: z.int().min(0) }),
  })
  .meta({ id: 'AppInfo' });
export type AppInfo = z.infer<typeof AppInfo>;

export const PgsImportReport = z
  .object({
    pgs_id: z.string().nullable(),
    format_version: z.string(),
    harmonized: z.boolean(),
    variants: z.int().min(0),
    usable: z.int().min(0),
    dropped: z.record(z.string(), z.int().min(0)),
    matched_by: z.object({
      rsid: z.int(),
      hm_rsid: z.int(),
      position: z.int(),
      position_grch37: z.int(),
      position_grch38: z.int(),
      position_genotype: z
        .int()
        .optional()
        .describe('Of those by position, found in the genotype file of the profile given with the import.'),
      position_lifted: z
        .int()
        .optional()
        .describe("Of those in the profile's file, found after lifting the position to that file's genome build."),
      position_file: z
        .int()
        .optional()
        .describe(
          "Of those by position, read from the lines of the profile's VCF that its parse does not keep (no rsID, no marker Traitscope knows); not counted in position_genotype.",
        ),
    }),
    frequency_source: z.object({ file_population: z.int(), thousand_genomes: z.int(), file_overall: z.int() }),
    strand_flipped_to_forward: z.int(),
    weight_model: z.enum(['additive', 'dominance_flags', 'dosage_weights']),
    match_rate: z.number().min(0).max(1).describe('Matched variants / variants in the file.'),
    percentile: z.boolean().describe('Whether results get a percentile (enough variants with reference frequencies).'),
    percentile_note: z.string().nullable().describe('Why results get no percentile, when they do not.'),
    notes: z.array(z.string()),
  })
  .meta({ id: 'PgsImportReport', description: 'How a PGS Catalog scoring file was read.' });

export const CustomTrait = z
  .object({ trait: Trait, report: PgsImportReport, file_name: z.string(), imported_at: z.iso.datetime() })
  .meta({ id: 'CustomTrait', description: 'A trait imported from a PGS Catalog scoring file.' });
export const CustomTraitList = z.array(CustomTrait).meta({ id: 'CustomTraitList' });

export const CorsSettings = z
  .object({
    origins: z.array(z.string()).describe('Origins allowed from Settings (stored in the data folder).'),
    fixed: z
      .array(z.string())
      .describe('Origins allowed by TRAITSCOPE_CORS_ORIGINS or --cors-origin for this run; not editable here.'),
  })
  .meta({ id: 'CorsSettings', description: 'Browser origins allowed to call the API (CORS).' });
export type CorsSettings = z.infer<typeof CorsSettings>;

export const CorsSettingsInput = z
  .object({
    origins: z.array(z.string({ error: 'origins must be a list of strings' }), {
      error: 'origins must be a list of origins such as "http://localhost:3000"',
    }),
  })
  .meta({ id: 'CorsSettingsInput', examples: [{ origins: ['http://localhost:3000'] }] });
