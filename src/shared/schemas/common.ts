/**
 * Building blocks of the API contract: the error body, scopes, and the marker for fields
 * and operations that Traitscope adds to the interface specification.
 */
import { z } from 'zod';

/** Every non-2xx body of /api and /storage. */
export const Detail = z
  .object({
    detail: z.string().describe('What happened, or what went wrong and how to fix it.'),
    code: z
      .string()
      .optional()
      .describe(
        'On errors: a stable machine-readable code (e.g. not_found, invalid_request, unauthenticated, forbidden, method_not_allowed, conflict, too_large, too_many_requests, busy).',
      ),
  })
  .meta({
    id: 'Detail',
    description: 'A sentence for people: what happened, or what went wrong and how to fix it.',
    examples: [{ detail: 'No profile with id "…" exists for this client. GET /api/profiles/ lists your profiles.' }],
  });
export type Detail = z.infer<typeof Detail>;

export { APP_SCOPE, SCOPES, type AnyScope, type Scope } from '../scopes.js';

/** The key marking fields, parameters and operations beyond interface.md. */
export const EXTENSION = 'x-traitscope-extension';

/**
 * Marks a field as a Traitscope extension of the specified shape (documented with
 * `x-traitscope-extension: true`). Adding such a field is this one call in its object.
 */
export function ext<T extends z.ZodType>(schema: T, description?: string): T {
  return schema.meta({ [EXTENSION]: true, ...(description ? { description } : {}) });
}

/** An integer enum whose values have names (documented as `x-enum-varnames`). */
export function namedIntEnum<const N extends readonly string[]>(id: string, names: N, error: string) {
  const values = names.map((_n, i) => i);
  return z.literal(values as [number, ...number[]], { error }).meta({
    id,
    description: names.map((n, i) => `${i} = ${n}`).join(', '),
    'x-enum-varnames': names.map((n) => n.replace(/\s*\(.*\)$/, '').replace(/[^A-Za-z]+/g, '')),
    'x-enum-descriptions': [...names],
  });
}

export const Rsid = z
  .string()
  .regex(/^rs\d+$/)
  .describe(
    "A dbSNP reference SNP identifier, e.g. rs4988235. From rs4026531840 (0xF0000000) up, the marker of an imported position-only score that the person's file lists without an rsID, numbered by Traitscope: no dbSNP identifier.",
  );
