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
import { importPgsScoringFile, type PgsImportReport } from '../science/pgs-import.js';
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

/** Turns a scoring file into a stored custom trait, or explains why it cannot be used. */
export function importCustomTrait(
  db: Db,
  engine: ScienceEngineExt,
  resourcesDir: string,
  bytes: Uint8Array,
  options: { fileName: string; name?: string; code?: string },
): CustomTraitRecord {
  if (bytes.length === 0)
    throw new CustomTraitError('The scoring file is empty. Download it again from the PGS Catalog.', 'invalid');
  const result = importPgsScoringFile(bytes, { resourcesDir, name: options.name, code: options.code });
  if (!result.ok) throw new CustomTraitError(result.error, 'invalid');
  const { trait, report } = result;
  if (engine.trait(trait.code) || statements(db).exists.get(trait.code)) {
    throw new CustomTraitError(
      `A trait with code "${trait.code}" already exists. Remove the earlier import first, or choose another code.`,
      'conflict',
    );
  }
  const importedAt = new Date().toISOString();
  statements(db).insert.run(trait.code, JSON.stringify(trait), JSON.stringify(report), options.fileName, importedAt);
  return { trait, report, fileName: options.fileName, importedAt };
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
