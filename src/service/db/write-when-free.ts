/**
 * A write from the event loop that never blocks it, neither on SQLite's one write lock nor
 * on the disk:
 * - while another connection (an engine worker storing a genotype: tens to hundreds of
 *   milliseconds) holds the write lock, the connection's busy handler would wait for it
 *   synchronously, stalling every request; here the lock is tried without waiting, and
 *   tried again on a timer;
 * - the commit does not fsync the write-ahead log on the event loop (synchronous=NORMAL for
 *   this commit); the log is fsynced on libuv's thread pool before the returned promise
 *   resolves, so the change is on disk before the caller acknowledges it, as with FULL.
 *   The synchronous fsync took 15-90 ms of the event loop per recorded upload while four
 *   files arrived and their genotypes were written (strace on the service).
 */
import { open } from 'node:fs/promises';
import { BUSY_TIMEOUT_MS } from './database.js';
import type { Db } from './db.js';

/** Between attempts: short against a worker's transaction, long enough not to spin. */
const RETRY_MS = 2;

export async function writeWhenFree<T>(db: Db, write: () => T): Promise<T> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    let committed: { result: T } | undefined;
    // Both settings are back before anything else runs on the loop: no other write commits
    // at NORMAL while this one's log is being flushed.
    db.pragma('busy_timeout = 0');
    db.pragma('synchronous = NORMAL');
    try {
      committed = { result: db.transaction(write).immediate() };
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err;
    } finally {
      db.pragma('synchronous = FULL');
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
    if (committed) {
      await flushWriteAheadLog(db);
      return committed.result;
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}

/**
 * Makes every commit written to the database's write-ahead log so far durable. fsync acts on
 * the file, whichever descriptor wrote it. Should a checkpoint have copied the commit into
 * the database file and restarted or removed the log meanwhile, the checkpoint synced both
 * first.
 */
async function flushWriteAheadLog(db: Db): Promise<void> {
  if (db.memory) return;
  const log = await open(`${db.name}-wal`, 'r+').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (!log) return;
  try {
    await log.sync();
  } finally {
    await log.close();
  }
}
