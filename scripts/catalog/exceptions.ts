/**
 * Reviewed exceptions to the variance-loss limit of featured traits: a curation rule may
 * remove more than MAX_FEATURED_VARIANCE_LOSS of a featured score's variance only where
 * curation-exceptions.json says which rule, which trait and why (docs/science.md, section 1).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Share of a featured trait's score variance (Σ 2pq·w² of its rows) one rule may remove. */
export const MAX_FEATURED_VARIANCE_LOSS = 0.05;

const exceptionSchema = z
  .object({
    code: z.string().regex(/^[a-z0-9_]+$/),
    rule: z.string().min(1),
    why: z.string().min(20),
  })
  .strict();

export type CurationException = z.infer<typeof exceptionSchema>;

export function parseCurationExceptions(text: string, file: string): CurationException[] {
  const raw: unknown = JSON.parse(text);
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of {code, rule, why} rows`);
  return raw.map((row: unknown, i) => {
    const r = exceptionSchema.safeParse(row);
    if (!r.success) throw new Error(`${file}, ${rowName(row, i)}: ${issuesOf(r.error)}`);
    return r.data;
  });
}

/** "row 3 (alzheimers_disease)": where a data-file row sits, and its code when it has one. */
export function rowName(row: unknown, index: number): string {
  const code = typeof row === 'object' && row !== null ? (row as Record<string, unknown>).code : undefined;
  return `row ${index + 1}${typeof code === 'string' ? ` (${code})` : ''}`;
}

/** A zod error as "field: message; field: message". */
export function issuesOf(error: z.ZodError): string {
  return error.issues.map((x) => `${x.path.join('.') || 'row'}: ${x.message}`).join('; ');
}

const FILE = new URL('./curation-exceptions.json', import.meta.url);
export const CURATION_EXCEPTIONS: CurationException[] = parseCurationExceptions(
  readFileSync(FILE, 'utf8'),
  'scripts/catalog/curation-exceptions.json',
);
