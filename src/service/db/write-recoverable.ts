/**
 * A write transaction whose content the service rebuilds by itself if a power cut drops it,
 * committed without waiting for the disk (synchronous=NORMAL for that commit instead of FULL).
 *
 * Only two writes qualify, both made by engine workers from inputs already on disk:
 * - a processed genotype with its first results and the `processed` status, from the
 *   fsynced upload: rolled back, the file is `processing` again and the next start
 *   processes it (index.ts, interruptedProfiles);
 * - background results filled in for traits without one: rolled back, they are missing
 *   and the next start fills them in.
 * Everything else (uploads, profiles, imports, settings, a rescore after an ethnicity
 * change, which would leave results of the old reference behind) stays FULL. An app crash
 * loses neither kind: the write-ahead log is written before the commit returns; WAL keeps
 * the database consistent either way, and the next FULL commit makes these durable too.
 *
 * Why: a 960k-marker genotype is ~10 MB of write-ahead log, and its fsync was on the path
 * of every upload's answer (tens of milliseconds, more on a busy disk). The flush still
 * happens, just after the answer: the worker's checkpoint after each task (engine-worker.ts)
 * syncs the log before copying it. A FULL commit of the event loop in between would pay
 * for that flush itself (fsync is per file); uploads are recorded when they end, before
 * their genotype is stored, so the two rarely meet.
 */
import type { Db } from './db.js';

export function writeRecoverable<T>(db: Db, write: () => T): T {
  db.pragma('synchronous = NORMAL');
  try {
    return db.transaction(write).immediate();
  } finally {
    db.pragma('synchronous = FULL');
  }
}
