/** Small persistent settings of a data folder (e.g. the upload-URL signing key). */
import { randomBytes } from 'node:crypto';
import type { Db } from './db/database.js';
import { namedStatements } from './db/statements.js';

const statements = namedStatements((db: Db) => ({
  get: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
  insert: db.prepare<[string, string]>('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)'),
}));

const valueStatements = namedStatements((db: Db) => ({
  set: db.prepare<[string, string]>('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)'),
  remove: db.prepare<[string]>('DELETE FROM settings WHERE key = ?'),
}));

export function getSetting(db: Db, key: string): string | undefined {
  return statements(db).get.get(key)?.value;
}

export function setSetting(db: Db, key: string, value: string | null): void {
  if (value === null) valueStatements(db).remove.run(key);
  else valueStatements(db).set.run(key, value);
}

/** Where the service of a data folder listens while it runs (read by the CLI's sign-in-link). */
export const SERVICE_ORIGIN = 'service_origin';

/** A random 32-byte key created on first use and kept for the life of the data folder. */
export function persistentKey(db: Db, name: string): Buffer {
  const st = statements(db);
  st.insert.run(name, randomBytes(32).toString('base64'));
  return Buffer.from(st.get.get(name)!.value, 'base64');
}
