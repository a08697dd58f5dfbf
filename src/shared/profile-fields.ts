/**
 * The writable profile fields' choices, limits and messages, without the schema registry:
 * the UI checks its profile form with profileFieldProblems, and the service's ProfileInput
 * schema (schemas/profiles.ts) is built from the same choices, limits and messages, so the
 * form says exactly what the service would. test/api/profile-fields.test.ts holds the two
 * to the same verdicts.
 */

export const GENDERS = ['Unknown', 'Male', 'Female'] as const;
export const ETHNICITIES = [
  'Unknown',
  'European (White)',
  'American (Hispanic or Latino)',
  'African (Black or African American)',
  'East Asian',
  'South Asian',
] as const;

export const NAME_MAX_LENGTH = 100;
export const AGE_MAX = 150;

export type NameField = 'first_name' | 'last_name';

export const FIELD_MESSAGES = {
  nameType: (field: NameField) => `${field} must be a string`,
  nameLength: (field: NameField) => `${field} must be at most ${NAME_MAX_LENGTH} characters`,
  gender: 'gender must be an integer from 0 to 2 (0 = Unknown, 1 = Male, 2 = Female)',
  ethnicity: 'ethnicity must be an integer from 0 to 5 (see the Ethnicity enum)',
  age: `age must be an integer from 0 to ${AGE_MAX}, or null`,
};

/** The fields of the profile form (reference_mixture has its own chooser, checked by the service). */
export interface ProfileFields {
  first_name?: unknown;
  last_name?: unknown;
  gender?: unknown;
  age?: unknown;
  ethnicity?: unknown;
}

const codePoints = (text: string) => (text.length <= NAME_MAX_LENGTH ? text.length : [...text].length);

const isIndex = (value: unknown, length: number) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < length;

/** What is wrong with each field, in the service's words; {} when the service would accept them. */
export function profileFieldProblems(input: ProfileFields): Partial<Record<keyof ProfileFields, string>> {
  const problems: Partial<Record<keyof ProfileFields, string>> = {};
  for (const field of ['first_name', 'last_name'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') problems[field] = FIELD_MESSAGES.nameType(field);
    // Counted in code points, as zod counts string lengths (an emoji is one character).
    else if (codePoints(value) > NAME_MAX_LENGTH) problems[field] = FIELD_MESSAGES.nameLength(field);
  }
  if (input.gender !== undefined && !isIndex(input.gender, GENDERS.length)) problems.gender = FIELD_MESSAGES.gender;
  if (input.ethnicity !== undefined && !isIndex(input.ethnicity, ETHNICITIES.length))
    problems.ethnicity = FIELD_MESSAGES.ethnicity;
  if (input.age !== undefined && input.age !== null && !isIndex(input.age, AGE_MAX + 1))
    problems.age = FIELD_MESSAGES.age;
  return problems;
}
