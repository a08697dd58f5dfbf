/**
 * Custom traits: PGS Catalog scoring files the user imported. Stored in the database in
 * the catalog's own trait format, so they are scored exactly like built-in traits.
 */
import type { Db } from '../db/db.js';
import { namedStatements } from '../db/statements.js';
import {
  createScienceEngine,
  type CustomTraitDefinition,
  type EngineOptions,
  type ScienceEngineExt,
} from '../science/index.js';
import {
  importPgsScoringFile,
  importPgsScoringFileWithPersonFile,
  renumberFileSites,
  type PersonFile,
  type PgsImportOptions,
  type PgsImportReport,
  type PgsImportResult,
} from '../science/pgs-import.js';
import type { Genotype } from '../genotype/types.js';
import { FILE_SITE_ID_BASE } from '../../shared/marker-ids.js';
import {
  addGenotypeRows,
  genotypeSourceFile,
  largestGenotypeMarkerId,
  loadGenotype,
} from '../genotype/genotype-store.js';
import { storedFilePath } from '../storage/file-store.js';
import { liftoverOf } from '../genotype/liftover.js';
import { profileOwner } from '../profiles/profiles.js';
import { removeTraitEverywhere } from './assessment-store.js';

export class CustomTraitError extends Error {
  constructor(
    message: string,
    readonly kind: 'invalid' | 'conflict' | 'missing',
  ) {
    super(message);
  }
}

export interface CustomTraitRecord {
  trait: CustomTraitDefinition;
  report: PgsImportReport;
  fileName: string;
  importedAt: string;
}

interface Row {
  definition: string;
  report: string;
  file_name: string;
  imported_at: string;
}

const statements = namedStatements((db: Db) => ({
  all: db.prepare<[], Row>(
    'SELECT definition, report, file_name, imported_at FROM custom_traits ORDER BY imported_at, rowid',
  ),
  exists: db.prepare<[string], { code: string }>('SELECT code FROM custom_traits WHERE code = ?'),
  insert: db.prepare<[string, string, string, string, string]>(
    'INSERT INTO custom_traits (code, definition, report, file_name, imported_at) VALUES (?, ?, ?, ?, ?)',
  ),
  remove: db.prepare<[string]>('DELETE FROM custom_traits WHERE code = ?'),
  stamp: db.prepare<[], { n: number; last: string | null }>(
    'SELECT count(*) AS n, max(imported_at) AS last FROM custom_traits',
  ),
}));

export function listCustomTraits(db: Db): CustomTraitRecord[] {
  return statements(db)
    .all.all()
    .map((r) => ({
      trait: JSON.parse(r.definition) as CustomTraitDefinition,
      report: JSON.parse(r.report) as PgsImportReport,
      fileName: r.file_name,
      importedAt: r.imported_at,
    }));
}

/**
 * Turns a scoring file into a stored custom trait, or explains why it cannot be used. With a
 * profile, positions no known marker has are also looked up in that profile's genotype file;
 * when that is a VCF (whose parse keeps only the markers Traitscope knows), in the stored file
 * itself (`dataDir` says where the file store is), and the calls read there join the
 * profile's genotype in the transaction that stores the trait. A code already taken is
 * refused as soon as the file's header names it, before the rows are read and matched; the
 * engine (for the built-in codes) is loaded only if no imported trait has the code.
 */
export async function importCustomTrait(
  db: Db,
  engine: () => ScienceEngineExt,
  resourcesDir: string,
  bytes: Uint8Array,
  options: { fileName: string; name?: string; code?: string; profileId?: string; dataDir?: string },
): Promise<CustomTraitRecord> {
  if (bytes.length === 0)
    throw new CustomTraitError('The scoring file is empty. Download it again from the PGS Catalog.', 'invalid');
  const person = options.profileId ? profileGenotype(db, resourcesDir, options.profileId) : undefined;
  const refuseTaken = (code: string) => {
    if (statements(db).exists.get(code) || engine().trait(code))
      throw new CustomTraitError(
        `A trait with code "${code}" already exists. Remove the earlier import first, or choose another code.`,
        'conflict',
      );
  };
  const importOptions = {
    resourcesDir,
    name: options.name,
    code: options.code,
    genotype: person?.genotype,
    checkCode: refuseTaken,
  };
  const file = person?.sourceFile && options.dataDir ? storedFilePath(options.dataDir, person.sourceFile) : null;
  const result: PgsImportResult & { fileGenotype?: Genotype } =
    person && file && person.isVcf
      ? await importPgsScoringFileWithPersonFile(
          bytes,
          { ...importOptions, genotype: person.genotype },
          { path: file, reading: person.reading },
        )
      : importPgsScoringFile(bytes, importOptions);
  if (!result.ok) throw new CustomTraitError(result.error, 'invalid');
  const { report } = result;
  let { trait } = result;
  const importedAt = new Date().toISOString();
  db.transaction(() => {
    // Again where the trait is stored: another process may have imported the code meanwhile.
    refuseTaken(trait.code);
    const read = result.fileGenotype;
    if (person && read && read.rsids.length > 0) {
      const renumbered = renumberFileSites(trait, read, nextFileSiteId(db));
      trait = renumbered.trait;
      if (!addGenotypeRows(db, options.profileId!, person.parsedAt, renumbered.fileGenotype))
        throw new CustomTraitError(
          `The genotype of profile "${options.profileId}" changed while the score was imported (a new file, or another import for the profile). Import the score again.`,
          'invalid',
        );
    }
    statements(db).insert.run(trait.code, JSON.stringify(trait), JSON.stringify(report), options.fileName, importedAt);
  }).immediate();
  return { trait, report, fileName: options.fileName, importedAt };
}

/** The first id for sites read from a file: above every id a stored genotype or an imported trait holds. */
function nextFileSiteId(db: Db): number {
  let largest = largestGenotypeMarkerId(db);
  for (const { trait } of listCustomTraits(db)) {
    const ids = trait.markers.rsid;
    if (ids.length > 0) largest = Math.max(largest, ids[ids.length - 1]);
  }
  return Math.max(FILE_SITE_ID_BASE, largest + 1);
}

/** A profile's stored genotype as the import matches positions against, or why it cannot be. */
function profileGenotype(
  db: Db,
  resourcesDir: string,
  profileId: string,
): {
  genotype: NonNullable<PgsImportOptions['genotype']>;
  parsedAt: string;
  isVcf: boolean;
  sourceFile: string | null;
  reading: PersonFile['reading'];
} {
  if (!profileOwner(db, profileId))
    throw new CustomTraitError(
      `There is no profile "${profileId}". Give the id of the profile whose genotype file the positions should be matched against, or import without a profile.`,
      'invalid',
    );
  const stored = loadGenotype(db, profileId);
  if (!stored)
    throw new CustomTraitError(
      `Profile "${profileId}" has no genotype file to match the scoring file's positions against. Upload the person's raw data file first, or import without a profile.`,
      'invalid',
    );
  const build = stored.summary.build;
  if (build !== 37 && build !== 38)
    throw new CustomTraitError(
      `The genotype file of profile "${profileId}" is in ${build === 36 ? 'NCBI36 (hg18)' : 'a genome build that could not be told'}, so the scoring file's GRCh37 or GRCh38 positions cannot be matched to it. ` +
        'Import without a profile (variants are then matched by rsID and by the positions of known markers), or upload a GRCh37 or GRCh38 file for the profile.',
      'invalid',
    );
  return {
    genotype: {
      genotype: stored.genotype,
      build,
      label: `the genotype file of profile "${profileId}" (GRCh${build})`,
      lift: liftoverOf(resourcesDir),
    },
    parsedAt: stored.parsedAt,
    isVcf: stored.summary.format === 'vcf',
    sourceFile: genotypeSourceFile(db, profileId),
    reading: stored.summary.site_reading ?? 'as_listed',
  };
}

/** Removes a custom trait and every outcome and request made with it. */
export function removeCustomTrait(db: Db, code: string): void {
  const st = statements(db);
  if (!st.exists.get(code)) throw new CustomTraitError(`There is no imported trait "${code}".`, 'missing');
  db.transaction(() => {
    st.remove.run(code);
    removeTraitEverywhere(db, code);
  }).immediate();
}

/**
 * The science engine of a data folder: the built-in catalog plus the custom traits, rebuilt
 * when custom traits change (also when another process, like the CLI, imported one). The
 * catalog is loaded on first use, not before.
 */
export function engineWithCustomTraits(
  db: Db,
  resourcesDir: string,
  ancestryPanel?: EngineOptions['ancestryPanel'],
): () => ScienceEngineExt {
  let builtIn: ScienceEngineExt | undefined;
  let stamp = '';
  let current: ScienceEngineExt | undefined;
  return () => {
    const s = statements(db).stamp.get()!;
    const now = `${s.n}|${s.last}`;
    if (now !== stamp || !current) {
      stamp = now;
      builtIn ??= createScienceEngine({ resourcesDir, ancestryPanel });
      current = s.n === 0 ? builtIn : builtIn.withCustomTraits(listCustomTraits(db).map((r) => r.trait));
    }
    return current;
  };
}
