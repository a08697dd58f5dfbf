/**
 * Opens the SQLite database of a data directory and brings its schema up to date.
 */
import Database from 'better-sqlite3';
import { sqliteNativeBinding } from '../packaged-paths.js';
import { LATEST_VERSION, MIGRATIONS } from './migrations.js';

export type Db = Database.Database;

export class DatabaseTooNewError extends Error {
  constructor(found: number) {
    super(
      `This data folder was written by a newer version of Traitscope (database schema ${found}, this version knows up to ${LATEST_VERSION}). ` +
        'Install the latest Traitscope, or start this one with another data folder (--data-dir).',
    );
    this.name = 'DatabaseTooNewError';
  }
}

export function openDatabase(file: string): Db {
  // Named explicitly: the desktop bundle carries no node_modules (see packaged-paths.ts).
  const db = new Database(file, { nativeBinding: sqliteNativeBinding() });
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  // The CLI, the parse worker and the service may write at the same time: wait, don't fail.
  db.pragma('busy_timeout = 10000');
  migrate(db);
  return db;
}

/** Applies pending migrations, each in one transaction; refuses a database newer than us. */
export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > LATEST_VERSION) {
    db.close();
    throw new DatabaseTooNewError(current);
  }
  for (const migration of MIGRATIONS) {
    if (migration.version <= current) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    }).immediate();
  }
}
