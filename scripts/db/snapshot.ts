/**
 * The committed record of the database schema (CODING_STANDARDS.md, "Database migrations"):
 * - src/service/db/migration-checksums.json: the SHA-256 of every recorded migration's SQL.
 *   A shipped migration is never edited; test/db/migration-snapshot.test.ts fails if one was.
 * - src/service/db/schema.sql: the schema a new database has after every migration, so a
 *   reviewer sees what a migration changes and the test sees that nothing else did.
 * `npm run db:snapshot` writes both (scripts/db-snapshot.ts).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/service/db/database.js';
import type { Migration } from '../../src/service/db/migrations.js';

const DB_DIR = path.resolve(import.meta.dirname, '..', '..', 'src', 'service', 'db');
export const CHECKSUMS_FILE = path.join(DB_DIR, 'migration-checksums.json');
export const SCHEMA_FILE = path.join(DB_DIR, 'schema.sql');

/** version → SHA-256 (hex) of the migration's SQL, exactly as written. */
export type Checksums = Record<string, string>;

export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex');
}

export function readChecksums(): Checksums {
  return JSON.parse(readFileSync(CHECKSUMS_FILE, 'utf8')) as Checksums;
}

/** The schema of a new database after every migration, as SQL, one object per statement, in a stable order. */
export function currentSchema(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'traitscope-schema-'));
  try {
    const db = openDatabase(path.join(dir, 'traitscope.db'));
    const rows = db
      .prepare<[], { type: string; name: string; sql: string }>(
        "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type DESC, name",
      )
      .all();
    db.close();
    return rows.map((r) => `${r.sql.trim()};\n`).join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
