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

/** Setting written in the transaction that deletes rows: their erase is still to do ('always' or 'when-fragmented' VACUUM). */
const ERASE_PENDING = 'erase_pending';

type VacuumWhen = 'always' | 'when-fragmented';

/**
 * Call in the transaction that deletes rows: the erase of what they leave is owed from the
 * commit on, so a crash before it ends is made good at the next start (eraseOwed).
 */
export function oweErase(db: Db, vacuum: VacuumWhen): void {
  if (getSetting(db, ERASE_PENDING) !== 'always') setSetting(db, ERASE_PENDING, vacuum);
}

const isBusy = (err: unknown) =>
  err instanceof Error && 'code' in err && /^SQLITE_(BUSY|LOCKED)/.test(String((err as { code: unknown }).code));

/** Whether a deletion's erase is still to do (cheap: one read of the settings). */
export function eraseIsOwed(db: Db): boolean {
  return getSetting(db, ERASE_PENDING) !== undefined;
}

/** How long the erase thread's connection waits for another writer (its VACUUM, its own marker). */
const WRITER_WAIT_MS = 500;

/**
 * One attempt at the owed erase, run by the erase thread (erase-worker.ts) on a connection of
 * its own. Readers of another program are never waited for: the checkpoint runs with
 * busy_timeout 0, because a TRUNCATE checkpoint that waits for readers holds the write lock
 * meanwhile, and every other connection's writes would wait with it. VACUUM if owed, then a
 * TRUNCATE checkpoint. True when nothing of the deleted rows is left in the data folder's
 * database files (or nothing was owed); false while another connection is in the way.
 */
export function tryErase(db: Db): boolean {
  const owed = getSetting(db, ERASE_PENDING) as VacuumWhen | undefined;
  if (owed === undefined) return true;
  try {
    db.pragma(`busy_timeout = ${WRITER_WAIT_MS}`);
    if (owed === 'always' || freeShare(db) >= 0.25) {
      db.exec('VACUUM');
      // Done: a retry while a reader holds the WAL only has the checkpoint left, not a second rewrite.
      setSetting(db, ERASE_PENDING, 'when-fragmented');
    }
    db.pragma('busy_timeout = 0');
    if (!checkpointTruncate(db)) return false;
    // The marker's own removal leaves a settings page in the WAL (never deleted data); moved too when free.
    db.pragma(`busy_timeout = ${WRITER_WAIT_MS}`);
    setSetting(db, ERASE_PENDING, null);
    db.pragma('busy_timeout = 0');
    checkpointTruncate(db);
    return true;
  } catch (err) {
    if (isBusy(err)) return false;
    throw err;
  }
}

/** What the answer to a deletion adds when another program kept the erase from finishing (eraser.ts 'blocked'). */
export const ERASE_DELAYED =
  'Another program (a database browser or a backup tool, for example) is reading the Traitscope database, so ' +
  'parts of the deleted data stay in the data folder until it closes; Traitscope finishes erasing them as soon as ' +
  'it can, also at its next start.';

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
