/**
 * The profile form's own check (src/shared/profile-fields.ts, schema-free for the UI's
 * bundle) against the ProfileInput schema the service validates with: for any value of the
 * fields the form sends, both find the same fields wrong, with the same message.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProfileInput } from '../../src/shared/api.js';
import { profileFieldProblems, type ProfileFields } from '../../src/shared/profile-fields.js';

/** The schema's verdict as field → first message. */
function schemaProblems(input: ProfileFields): Record<string, string> {
  const parsed = ProfileInput.safeParse(input);
  const problems: Record<string, string> = {};
  if (!parsed.success) for (const issue of parsed.error.issues) problems[String(issue.path[0])] ??= issue.message;
  return problems;
}

const name = fc.oneof(
  fc.string({ maxLength: 120 }),
  fc.constantFrom('x'.repeat(100), 'x'.repeat(101), 'é'.repeat(100), '😀'.repeat(50), '😀'.repeat(51)),
  fc.constantFrom(undefined, null, 7, true, ['a'], {}),
);
const index = (max: number) =>
  fc.oneof(
    fc.integer({ min: -2, max: max + 2 }),
    fc.constantFrom(undefined, null, 1.5, Number.NaN, Infinity, '1', true),
  );
const fields = fc.record(
  { first_name: name, last_name: name, gender: index(2), ethnicity: index(5), age: index(150) },
  { requiredKeys: [] },
);

describe('the profile form check', () => {
  it('finds the same fields wrong as the service schema, in the same words', () => {
    fc.assert(
      fc.property(fields, (input) => {
        expect(profileFieldProblems(input)).toEqual(schemaProblems(input));
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts what the form sends for a new profile, and says what is wrong with a long name', () => {
    const ok = { first_name: 'Ada', last_name: 'Lovelace', gender: 2, age: null, ethnicity: 1 };
    expect(profileFieldProblems(ok)).toEqual({});
    expect(profileFieldProblems({ ...ok, last_name: 'L'.repeat(101) })).toEqual({
      last_name: 'last_name must be at most 100 characters',
    });
  });
});
