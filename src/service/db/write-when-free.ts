/**
 * A write from the event loop that never blocks it while another connection (an engine
 * worker storing a genotype: tens to hundreds of milliseconds) holds SQLite's one write
 * lock. The connection's busy handler would wait for it synchronously, stalling every
 * request; here the lock is tried without waiting, and tried again on a timer.
 */
import { BUSY_TIMEOUT_MS } from './database.js';
import type { Db } from './db.js';

/** Between attempts: short against a worker's transaction, long enough not to spin. */
const RETRY_MS = 2;

export async function writeWhenFree<T>(db: Db, write: () => T): Promise<T> {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    db.pragma('busy_timeout = 0');
    try {
      return db.transaction(write).immediate();
    } catch (err) {
      if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err;
    } finally {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}
