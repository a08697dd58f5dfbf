/**
 * Bring your own score: a PGS Catalog scoring file (format v1 or v2, author-reported or
 * harmonized, plain or gzipped) → a custom trait definition in the catalog's own format,
 * or a clear error. docs/science.md ("Imported scores") states the rules. The import runs
 * in named stages, each in its own module under pgs-import/:
 *   read (decompress with an output cap) → header (metadata and columns) → rows (weights,
 *   alleles, identifiers) → [file-sites: for a profile whose file is a VCF, the score's
 *   sites its parsed genotype lacks, read from the stored file] → match (rsID or position,
 *   strand, frequencies) → report (the import report and the trait, or a refusal with the
 *   reasons).
 */
import { loadKgTable, type KgTable } from './kg-table.js';
import { loadPositionIndex, type IndexedBuild, type PositionIndex } from '../genotype/positions.js';
import type { Genotype } from '../genotype/types.js';
import type { Connotation } from './types.js';
import { decodeScoringFile } from './pgs-import/read.js';
import { parseScoringHeader, type ScoringHeader } from './pgs-import/header.js';
import { parseScoringRows, type ScoringRow } from './pgs-import/rows.js';
import {
  matchScoringRows,
  sitesMissingFromGenotype,
  type LiftPosition,
  type MatchReferences,
} from './pgs-import/match.js';
import { readFileSites, type FileSites, type SiteReading } from './pgs-import/file-sites.js';
import type { CatalogTrait } from './format.js';
import { traitRevision } from './revision.js';
import { importedTraitCode, importReport, type PgsImportResult } from './pgs-import/report.js';
import { FILE_SITE_ID_BASE } from '../../shared/marker-ids.js';

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
   * Called with the trait's code as soon as the header is read, before the reference tables
   * are loaded and the rows read and matched: it throws to refuse the file (a code already taken).
   */
  checkCode?: (code: string) => void;
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
  const prepared = prepareImport(bytes, options);
  return 'rows' in prepared ? finishImport(prepared, options) : prepared;
}

export interface PersonFile {
  /** Where the person's stored genotype file (a VCF) is. */
  path: string;
  /** How its parse read the unlisted sites (ParseSummary.site_reading; as_listed when not recorded). */
  reading: SiteReading;
}

/**
 * A position-only score imported for a profile whose file is a VCF: the sites its parsed
 * genotype lacks are read from the stored file itself (file-sites.ts) before matching. The
 * result's `fileGenotype` holds the person's calls at the markers found that way (lines
 * without an rsID), under ids above every id of the person's genotype; renumberFileSites
 * gives them their lasting ids.
 */
export async function importPgsScoringFileWithPersonFile(
  bytes: Uint8Array,
  options: PgsImportOptions & { genotype: NonNullable<PgsImportOptions['genotype']> },
  file: PersonFile,
): Promise<PgsImportResult & { fileGenotype?: Genotype }> {
  const prepared = prepareImport(bytes, options);
  if (!('rows' in prepared)) return prepared;
  const person = options.genotype;
  const wanted = sitesMissingFromGenotype(prepared.rows, person.genotype, person.build, person.lift);
  if (wanted.size === 0) return finishImport(prepared, options);
  const ids = person.genotype.rsids;
  const firstId = Math.max(FILE_SITE_ID_BASE, ids.length > 0 ? ids[ids.length - 1] + 1 : 0);
  let sites: FileSites;
  try {
    sites = await readFileSites(file.path, person.build, wanted, firstId, file.reading === 'reference_blocks');
  } catch (err) {
    return {
      ok: false,
      error: `${(err as Error).message} Import the score without a profile, or upload the file again.`,
    };
  }
  const result = finishImport(prepared, options, { sites, reading: file.reading });
  return result.ok ? { ...result, fileGenotype: fileGenotypeOf(sites, result.trait.markers.rsid, firstId) } : result;
}

interface PreparedImport {
  header: ScoringHeader;
  rows: ScoringRow[];
  variants: number;
  dropped: Record<string, number>;
  kg: KgTable;
  positions: PositionIndex;
}

/** Read, header and rows: the stages before matching, or the refusal. */
function prepareImport(bytes: Uint8Array, options: PgsImportOptions): PreparedImport | { ok: false; error: string } {
  let text: string;
  try {
    text = decodeScoringFile(bytes);
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
  const head = parseScoringHeader(text);
  if (!head.ok) return head;
  options.checkCode?.(importedTraitCode(head.header, options.code));
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
  return { header: head.header, rows: parsed.rows, variants: parsed.variants, dropped: parsed.dropped, kg, positions };
}

/** Match and report. */
function finishImport(
  prepared: PreparedImport,
  options: PgsImportOptions,
  file?: MatchReferences['file'],
): PgsImportResult {
  const person = options.genotype;
  const matched = matchScoringRows(
    prepared.rows,
    {
      kg: prepared.kg,
      positions: prepared.positions,
      genotype: person ? { genotype: person.genotype, build: person.build } : undefined,
      lift: person?.lift,
      file,
    },
    prepared.dropped,
  );
  return importReport(
    {
      header: prepared.header,
      variants: prepared.variants,
      matched: matched.variants,
      counts: {
        matched_by: matched.matched_by,
        frequency_source: matched.frequency_source,
        strand_flipped_to_forward: matched.strand_flipped_to_forward,
      },
      dropped: matched.dropped,
      knownPositions: prepared.positions.size,
      genotypeLabel: person?.label ?? null,
      siteReading: file?.reading ?? null,
    },
    options,
  );
}

/** The person's calls at the trait's markers read from file lines without an rsID (ids from firstId on, ascending). */
function fileGenotypeOf(sites: FileSites, markers: readonly number[], firstId: number): Genotype {
  const kept = new Set(markers);
  const rows: number[] = [];
  for (let i = 0; i < sites.rsids.length; i++) if (sites.rsids[i] >= firstId && kept.has(sites.rsids[i])) rows.push(i);
  rows.sort((a, b) => sites.rsids[a] - sites.rsids[b]);
  return {
    rsids: Uint32Array.from(rows, (i) => sites.rsids[i]),
    calls: Uint8Array.from(rows, (i) => sites.calls[i]),
    chroms: Uint8Array.from(rows, (i) => sites.chroms[i]),
    positions: Uint32Array.from(rows, (i) => sites.positions[i]),
  };
}

/**
 * An import's markers read from the person's file (the ids of `fileGenotype`) given ids from
 * `firstId` on, in the trait and in the calls alike: each site read keeps an id no stored
 * genotype or other trait uses, so no other person is ever scored on it by mistake. The
 * order of the ids, and so of the trait's markers, is kept.
 */
export function renumberFileSites(
  trait: CatalogTrait,
  fileGenotype: Genotype,
  firstId: number,
): { trait: CatalogTrait; fileGenotype: Genotype } {
  const n = fileGenotype.rsids.length;
  if (firstId < FILE_SITE_ID_BASE || firstId + n - 1 > 0xffff_ffff)
    throw new Error(
      'No marker ids are left for the sites read from the file: remove imported traits no longer needed.',
    );
  const renamed = new Map<number, number>();
  fileGenotype.rsids.forEach((id, k) => renamed.set(id, firstId + k));
  const rsid = trait.markers.rsid.map((id) => renamed.get(id) ?? id);
  // The read ids were above every other id of the trait, and the new ones are: the order holds.
  for (let i = 1; i < rsid.length; i++)
    if (rsid[i] <= rsid[i - 1]) throw new Error('Renumbering the sites read from the file broke the markers’ order.');
  const trait2: CatalogTrait = { ...trait, markers: { ...trait.markers, rsid } };
  trait2.revision = traitRevision(trait2);
  return {
    trait: trait2,
    fileGenotype: { ...fileGenotype, rsids: Uint32Array.from(fileGenotype.rsids, (id) => renamed.get(id)!) },
  };
}
