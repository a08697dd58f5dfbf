/** Profiles: one person, with optional personal attributes (interface.md §2). */
import { z } from 'zod';
import { namedIntEnum } from './common.js';

export const GENDERS = ['Unknown', 'Male', 'Female'] as const;
export const ETHNICITIES = [
  'Unknown',
  'European (White)',
  'American (Hispanic or Latino)',
  'African (Black or African American)',
  'East Asian',
  'South Asian',
] as const;

export const Gender = namedIntEnum('Gender', GENDERS, 'gender must be an integer from 0 to 2 (0 = Unknown, 1 = Male, 2 = Female)');
export const Ethnicity = namedIntEnum('Ethnicity', ETHNICITIES, 'ethnicity must be an integer from 0 to 5 (see the Ethnicity enum)');

const name = (field: string) =>
  z.string({ error: `${field} must be a string` }).max(100, { error: `${field} must be at most 100 characters` });
const age = z
  .int({ error: 'age must be an integer from 0 to 150, or null' })
  .min(0, { error: 'age must be an integer from 0 to 150, or null' })
  .max(150, { error: 'age must be an integer from 0 to 150, or null' });

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
  })
  .meta({
    id: 'Profile',
    examples: [{ id: '3f1c2a4e-8d2b-4c7e-9a51-0b6f4d2e7c10', email: '', first_name: 'Ada', last_name: 'Lovelace', gender: 2, age: 36, ethnicity: 1 }],
  });
export type Profile = z.infer<typeof Profile>;

export const ProfileList = z.array(Profile).meta({ id: 'ProfileList', description: 'Profiles of the calling client, oldest first.' });
