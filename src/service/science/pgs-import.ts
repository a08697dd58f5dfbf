/**
 * Bring your own score: a PGS Catalog scoring file (format v1 or v2, author-reported or
 * harmonized, plain or gzipped) → a custom trait definition in the catalog's own format,
 * or a clear error. docs/science.md ("Imported scores") states the rules. The import runs
 * in named stages, each in its own module under pgs-import/:
 *   read (decompress with an output cap) → header (metadata and columns) → rows (weights,
 *   alleles, identifiers) → match (rsID or position, strand, frequencies) → report (the
 *   import report and the trait, or a refusal with the reasons).
 */
import { loadKgTable, type KgTable } from './kg-table.js';
import { loadPositionIndex, type IndexedBuild, type PositionIndex } from '../genotype/positions.js';
import type { Genotype } from '../genotype/types.js';
import type { Connotation } from './types.js';
import { decodeScoringFile } from './pgs-import/read.js';
import { parseScoringHeader } from './pgs-import/header.js';
import { parseScoringRows } from './pgs-import/rows.js';
import { matchScoringRows, type LiftPosition } from './pgs-import/match.js';
import { importReport, type PgsImportResult } from './pgs-import/report.js';

export type { PgsImportReport, PgsImportResult } from './pgs-import/report.js';

export interface PgsImportOptions {
  /** The app's resources folder (for the 1000 Genomes table and the marker positions). */
  resourcesDir: string;
  /** Trait code to use (default: "custom_" + the PGS id or name). */
  code?: string;
  /** Display name (default: the reported trait and the PGS id). */
  name?: string;
  connotation?: Connotation;
  /** The least share of the file's variants that must be matched (default MIN_MATCHED_SHARE). */
  minUsableShare?: number;
  /**
   * A person's stored genotype, to match positions no known marker has against the
   * positions of that person's own file, in the build its parse detected.
   */
  genotype?: {
    genotype: Genotype;
    build: IndexedBuild;
    /** How the notes name it, e.g. "the genotype file of profile “Ann”". */
    label: string;
    /** Lifts the scoring file's positions when its build is not the genotype's. */
    lift?: LiftPosition;
  };
}

export function importPgsScoringFile(bytes: Uint8Array, options: PgsImportOptions): PgsImportResult {
  let text: string;
  try {
    text = decodeScoringFile(bytes);
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  const head = parseScoringHeader(text);
  if (!head.ok) return head;
  let kg: KgTable;
  let positions: PositionIndex;
  try {
    kg = loadKgTable(options.resourcesDir);
    positions = loadPositionIndex(options.resourcesDir);
  } catch (err) {
    return {
      ok: false,
      error: `The bundled 1000 Genomes table or marker positions could not be read (${(err as Error).message}); reinstall Traitscope.`,
    };
  }
  const parsed = parseScoringRows(head.header);
  if (!parsed.ok) return parsed;
  const person = options.genotype;
  const matched = matchScoringRows(
    parsed.rows,
    {
      kg,
      positions,
      genotype: person ? { genotype: person.genotype, build: person.build } : undefined,
      lift: person?.lift,
    },
    parsed.dropped,
  );
  return importReport(
    {
      header: head.header,
      variants: parsed.variants,
      matched: matched.variants,
      counts: {
        matched_by: matched.matched_by,
        frequency_source: matched.frequency_source,
        strand_flipped_to_forward: matched.strand_flipped_to_forward,
      },
      dropped: matched.dropped,
      knownPositions: positions.size,
      genotypeLabel: person?.label ?? null,
    },
    options,
  );
}
