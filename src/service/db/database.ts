/**
 * Opens the SQLite database of a data directory and brings its schema up to date. Every
 * connection (service, worker threads, CLI) gets the same settings:
 * - WAL with synchronous=FULL: a change is on disk (the WAL fsynced) before the API
 *   acknowledges it, so not even a power cut loses an acknowledged change. The one
 *   exception is what the service rebuilds by itself from inputs already on disk
 *   (write-recoverable.ts). Recording an upload keeps the guarantee with the fsync on the
 *   thread pool instead of the event loop (write-when-free.ts).
 * - secure_delete: deleted rows are overwritten with zeros, not left in free pages
 *   (db/erase.ts then empties the WAL and vacuums, see docs/security.md).
 * - temp_store=MEMORY: sorts and VACUUM's copy stay in memory, never in the OS temp folder.
 * - The file (and so its -wal and -shm, which SQLite creates with the database's mode) is
 *   readable by the user only.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { sqliteNativeBinding } from '../packaged-paths.js';
import { makePrivateDir, makePrivateFile } from '../storage/private-files.js';
import { setSetting } from '../settings.js';
import { VACUUM_PENDING, vacuumIfPending } from './erase.js';
import type { Db } from './db.js';
import { LATEST_VERSION, MIGRATIONS } from './migrations.js';

export class DatabaseTooNewError extends Error {
  constructor(found: number) {
    super(
      `This data folder was written by a newer version of Traitscope (database schema ${found}, this version knows up to ${LATEST_VERSION}). ` +
        'Install the latest Traitscope, or start this one with another data folder (--data-dir).',
    );
    this.name = 'DatabaseTooNewError';
  }
}

/** How long a connection waits for another one's write to end before giving up. */
export const BUSY_TIMEOUT_MS = 10_000;

export function openDatabase(file: string): Db {
  if (file !== ':memory:') makePrivateDir(path.dirname(file));
  makePrivateFile(file);
  for (const companion of [`${file}-wal`, `${file}-shm`]) makePrivateFile(companion, { onlyIfExists: true });
  // Named explicitly: the desktop bundle carries no node_modules (see packaged-paths.ts).
  const db = new Database(file, { nativeBinding: sqliteNativeBinding() });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('secure_delete = ON');
  db.pragma('temp_store = MEMORY');
  db.pragma('foreign_keys = ON');
  // The CLI, the worker threads and the service may write at the same time: wait, don't fail.
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const found = migrate(db);
  // A database created just now holds no deleted data: its migrations' request for the
  // one-time VACUUM (and the checkpoint after it, a few hundred ms of disk writes at the
  // first start) concerns older files only.
  if (found === 0) setSetting(db, VACUUM_PENDING, null);
  else vacuumIfPending(db);
  return db;
}

/**
 * Applies pending migrations, each in one transaction; refuses a database newer than us.
 * Returns the schema version found (0: a new database). A current schema costs one read.
 */
export function migrate(db: Db): number {
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
  return current;
}
