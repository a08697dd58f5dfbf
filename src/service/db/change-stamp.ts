/**
 * Reads kept in memory until the database changes. Lists that clients poll (the profile
 * list, a token's grant) cost the event loop a query and row objects per request; under
 * twenty concurrent polls that work is what keeps the loop busy (docs/performance.md).
 *
 * The stamp moves on every change that could alter a read: a commit by another connection
 * (the pool's workers, a CLI process on the same file) moves SQLite's `data_version`; a
 * row this connection inserts, updates or deletes moves `total_changes()`. Reading both
 * costs two statements of about 1.5 µs each, so a cached answer is never staler than the
 * last commit.
 */
import type { Db } from './db.js';
import { namedStatements } from './statements.js';

const stampStatements = namedStatements((db: Db) => ({
  // Two plucked statements: the pragma_data_version() table in one SELECT costs twice as much.
  dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
  ownChanges: db.prepare<[], number>('SELECT total_changes()').pluck(),
}));

/** A value that differs whenever the database may have changed since the last call. */
export function changeStamp(db: Db): string {
  const st = stampStatements(db);
  return `${st.dataVersion.get()}:${st.ownChanges.get()}`;
}

/**
 * `read(db, key)`, answered from memory while the database's stamp holds. Every entry is
 * dropped at the first change. An undefined answer is not kept: keys come from requests, and
 * unknown ones (a guessed token) must cost a query each, not grow the memory held.
 */
export function untilDatabaseChanges<K, V>(read: (db: Db, key: K) => V | undefined): (db: Db, key: K) => V | undefined {
  const held = new WeakMap<Db, { stamp: string; values: Map<K, V> }>();
  return (db, key) => {
    const stamp = changeStamp(db);
    let entry = held.get(db);
    if (!entry || entry.stamp !== stamp) {
      entry = { stamp, values: new Map() };
      held.set(db, entry);
    }
    const kept = entry.values.get(key);
    if (kept !== undefined) return kept;
    const value = read(db, key);
    if (value !== undefined) entry.values.set(key, value);
    return value;
  };
}
