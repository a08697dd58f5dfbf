/**
 * Reviewed exceptions to the variance-loss limit of featured traits: a curation rule may
 * remove more than MAX_FEATURED_VARIANCE_LOSS of a featured score's variance only where
 * curation-exceptions.json names the rule, the traits and why (docs/science.md, section 1);
 * the build report gives each trait's share lost.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** Share of a featured trait's score variance (Σ 2pq·w² of its rows) one rule may remove. */
export const MAX_FEATURED_VARIANCE_LOSS = 0.05;

const exceptionSchema = z
  .object({
    rule: z.string().min(1),
    traits: z.array(z.string().regex(/^[a-z0-9_]+$/)).min(1),
    why: z.string().min(40),
  })
  .strict();

export type CurationException = z.infer<typeof exceptionSchema>;

export function parseCurationExceptions(text: string, file: string): CurationException[] {
  const raw: unknown = JSON.parse(text);
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of {rule, traits, why} rows`);
  return raw.map((row: unknown, i) => {
    const r = exceptionSchema.safeParse(row);
    if (!r.success) throw new Error(`${file}, ${rowName(row, i)}: ${issuesOf(r.error)}`);
    return r.data;
  });
}

/** "row 3 (alzheimers_disease)": where a data-file row sits, and its code (or rule, phenotype) when it has one. */
export function rowName(row: unknown, index: number): string {
  const r = typeof row === 'object' && row !== null ? (row as Record<string, unknown>) : {};
  const name = [r.code, r.rule, r.phenotype].find((x) => typeof x === 'string');
  return `row ${index + 1}${typeof name === 'string' ? ` (${name})` : ''}`;
}

/** Whether an exception covers a featured trait losing variance to a rule. */
export function isExcepted(code: string, rule: string, exceptions: CurationException[] = CURATION_EXCEPTIONS): boolean {
  return exceptions.some((x) => x.rule === rule && x.traits.includes(code));
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
