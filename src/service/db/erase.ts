/**
 * Making deleted data unrecoverable from the data folder. With secure_delete on (every
 * connection, db/database.ts) SQLite overwrites deleted rows and freed pages with zeros —
 * but in WAL mode those zeroed pages are first written to the WAL, while the database file
 * and older WAL frames still hold the old content. A TRUNCATE checkpoint copies the zeroed
 * pages into the database file and empties the WAL. VACUUM rebuilds the file without free
 * pages (and without stale copies of keys in interior b-tree pages); it rewrites the whole
 * database, so it runs when deleting everything, when the file is mostly free pages, and
 * once on databases written before secure_delete was on.
 */
import { getSetting, setSetting } from '../settings.js';
import type { Db } from './db.js';

interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

/** Setting a migration writes when the free pages of an older database still hold deleted data. */
export const VACUUM_PENDING = 'vacuum_pending';

/**
 * Copies every WAL frame into the database file and truncates the WAL to zero bytes.
 * Waits (busy_timeout) for other connections' transactions; false if one still held on.
 */
export function checkpointTruncate(db: Db): boolean {
  const [result] = db.pragma('wal_checkpoint(TRUNCATE)') as CheckpointResult[];
  return result === undefined || result.busy === 0;
}

function freeShare(db: Db): number {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  return pages === 0 ? 0 : free / pages;
}

/**
 * After deleting rows: nothing of them stays in the WAL or the database file. `vacuum`:
 * 'always' (deleting all data: little is left to copy), or 'when-fragmented' (a quarter or
 * more of the file is free pages). Returns false if another connection kept the WAL from
 * being emptied (the next checkpoint will; docs/security.md).
 */
export function eraseDeletedRows(db: Db, vacuum: 'always' | 'when-fragmented'): boolean {
  if (vacuum === 'always' || freeShare(db) >= 0.25) db.exec('VACUUM');
  for (let attempt = 0; attempt < 3; attempt++) if (checkpointTruncate(db)) return true;
  return false;
}

/** The one-time VACUUM a migration asked for (free pages written before secure_delete). */
export function vacuumIfPending(db: Db): void {
  if (getSetting(db, VACUUM_PENDING) === undefined) return;
  try {
    db.exec('VACUUM');
    setSetting(db, VACUUM_PENDING, null);
    checkpointTruncate(db);
  } catch {
    // Another connection held the database for longer than busy_timeout: the next start tries again.
  }
}
