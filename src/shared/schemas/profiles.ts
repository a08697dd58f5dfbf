/** Profiles: one person, with optional personal attributes (interface.md §2). */
import { z } from 'zod';
import { AGE_MAX, ETHNICITIES, FIELD_MESSAGES, GENDERS, NAME_MAX_LENGTH, type NameField } from '../profile-fields.js';
import { ext, namedIntEnum } from './common.js';

export const Gender = namedIntEnum('Gender', GENDERS, FIELD_MESSAGES.gender);
export const Ethnicity = namedIntEnum('Ethnicity', ETHNICITIES, FIELD_MESSAGES.ethnicity);

const share = z
  .number({ error: 'each share of reference_mixture must be a number from 0 to 1' })
  .min(0, { error: 'each share of reference_mixture must be a number from 0 to 1' })
  .max(1, { error: 'each share of reference_mixture must be a number from 0 to 1' });

/**
 * A reference built from several 1000 Genomes super-populations (extension): each result
 * is compared with frequencies Σ share × the population's frequency. Shares of omitted
 * populations are 0; they must add up to 1 (± 0.01) and are scaled to exactly 1.
 */
export const ReferenceMixture = z
  .strictObject(
    {
      EUR: share.optional(),
      AMR: share.optional(),
      AFR: share.optional(),
      EAS: share.optional(),
      SAS: share.optional(),
    },
    {
      error:
        'reference_mixture must be an object of shares by super-population, e.g. {"AFR": 0.6, "EUR": 0.4}, with keys among EUR, AMR, AFR, EAS, SAS',
    },
  )
  .refine((m) => Math.abs(Object.values(m).reduce((a: number, b) => a + (b ?? 0), 0) - 1) <= 0.01, {
    error: 'the shares of reference_mixture must add up to 1 (e.g. {"AFR": 0.6, "EUR": 0.4})',
  })
  .transform((m) => {
    const total = Object.values(m).reduce((a: number, b) => a + (b ?? 0), 0);
    return {
      EUR: (m.EUR ?? 0) / total,
      AMR: (m.AMR ?? 0) / total,
      AFR: (m.AFR ?? 0) / total,
      EAS: (m.EAS ?? 0) / total,
      SAS: (m.SAS ?? 0) / total,
    };
  })
  .meta({ id: 'ReferenceMixture', examples: [{ AFR: 0.6, EUR: 0.4 }] });
export type ReferenceMixture = z.output<typeof ReferenceMixture>;

const MIXTURE_RULE =
  'Setting a mixture sets ethnicity to 0 unless the same request sets ethnicity 1–5; an ethnicity of 1–5 takes precedence and clears the mixture. null removes it.';

const name = (field: NameField) =>
  z.string({ error: FIELD_MESSAGES.nameType(field) }).max(NAME_MAX_LENGTH, { error: FIELD_MESSAGES.nameLength(field) });
const age = z
  .int({ error: FIELD_MESSAGES.age })
  .min(0, { error: FIELD_MESSAGES.age })
  .max(AGE_MAX, { error: FIELD_MESSAGES.age });

/**
 * Writable profile fields. `id`, `email` and unknown keys are accepted and ignored, so a
 * profile just read can be sent back as it is.
 */
export const ProfileInput = z
  .object({
    first_name: name('first_name').optional(),
    last_name: name('last_name').optional(),
    gender: Gender.optional(),
    age: age.nullable().optional(),
    ethnicity: Ethnicity.optional(),
    reference_mixture: ext(
      ReferenceMixture.nullable().optional(),
      `Compare results with a reference mixed from several super-populations. ${MIXTURE_RULE}`,
    ),
  })
  .meta({
    id: 'ProfileInput',
    description:
      'Writable profile fields; all optional. On PUT, omitted fields take their defaults ("", "", 0, null, 0); on PATCH they stay as they are. `id`, `email` and unknown keys are ignored.',
    examples: [{ first_name: 'Ada', last_name: 'Lovelace', gender: 2, age: 36, ethnicity: 1 }],
  });
export type ProfileInput = z.infer<typeof ProfileInput>;

export const Profile = z
  .object({
    id: z.uuid().describe('Assigned by the service.'),
    email: z.string().describe('Always "" (not writable through the API).'),
    first_name: z.string(),
    last_name: z.string(),
    gender: Gender,
    age: age.nullable(),
    ethnicity: Ethnicity,
    reference_mixture: ext(
      z.object({ EUR: z.number(), AMR: z.number(), AFR: z.number(), EAS: z.number(), SAS: z.number() }).nullable(),
      'The mixed reference the person chose (shares adding up to 1), or null: then ethnicity, or the ancestry estimated from the DNA file, decides.',
    ),
  })
  .meta({
    id: 'Profile',
    examples: [
      {
        id: '3f1c2a4e-8d2b-4c7e-9a51-0b6f4d2e7c10',
        email: '',
        first_name: 'Ada',
        last_name: 'Lovelace',
        gender: 2,
        age: 36,
        ethnicity: 1,
        reference_mixture: null,
      },
    ],
  });
export type Profile = z.infer<typeof Profile>;

export const ProfileList = z
  .array(Profile)
  .meta({ id: 'ProfileList', description: 'Profiles of the calling client, oldest first.' });
