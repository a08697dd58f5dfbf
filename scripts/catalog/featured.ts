/**
 * The featured traits: the curated consumer set, as data (featured.json). Each row names
 * one study of the impute.me AllDiseases table (its study_id); every number comes from that
 * study's rows. Names, phrases and overviews are written in featured.json in plain language.
 * The file is validated here at build time; an error names the row and the field.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { issuesOf, rowName } from './exceptions.js';

const featuredSchema = z
  .object({
    /** The trait's code in the API: lower case, digits and underscores. */
    code: z.string().regex(/^[a-z0-9_]+$/, 'use lower-case letters, digits and underscores'),
    name: z.string().min(1),
    /** study_id in AllDiseases_2021-01-28_snp_weights. */
    study: z.string().regex(/_\d{6,9}$/, 'a study_id of the AllDiseases table ends in its PMID'),
    category: z.string().min(1),
    connotation: z.enum(['risky', 'good', 'neutral']),
    pricing: z.enum(['free', 'basic']),
    /** Lower-case phrase for sentences ("your genetic score for …"). */
    phrase: z.string().min(1),
    /** A disease or condition (as opposed to a measurement or preference). */
    condition: z.boolean(),
    /** Plain-language overview; the citation is appended by the build. */
    overview: z.string().min(40),
  })
  .strict();

export type FeaturedDef = z.infer<typeof featuredSchema>;

/** The rows of a featured-traits file, or an error naming the first bad row and what is wrong with it. */
export function parseFeatured(text: string, file: string): FeaturedDef[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`${file} is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of featured-trait rows`);
  const codes = new Set<string>();
  return raw.map((row: unknown, i) => {
    const r = featuredSchema.safeParse(row);
    if (!r.success) throw new Error(`${file}, ${rowName(row, i)}: ${issuesOf(r.error)}`);
    if (codes.has(r.data.code)) throw new Error(`${file}, ${rowName(row, i)}: code ${r.data.code} is used twice`);
    codes.add(r.data.code);
    return r.data;
  });
}

export const FEATURED: FeaturedDef[] = parseFeatured(
  readFileSync(new URL('./featured.json', import.meta.url), 'utf8'),
  'scripts/catalog/featured.json',
);
