/** Small persistent settings of a data folder (e.g. where the running service listens). */
import type { Db } from './db/db.js';
import { namedStatements } from './db/statements.js';

const statements = namedStatements((db: Db) => ({
  get: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
  set: db.prepare<[string, string]>('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)'),
  remove: db.prepare<[string]>('DELETE FROM settings WHERE key = ?'),
}));

export function getSetting(db: Db, key: string): string | undefined {
  return statements(db).get.get(key)?.value;
}

export function setSetting(db: Db, key: string, value: string | null): void {
  if (value === null) statements(db).remove.run(key);
  else statements(db).set.run(key, value);
}

/** Where the service of a data folder listens while it runs (read by the CLI's sign-in-link). */
export const SERVICE_ORIGIN = 'service_origin';
