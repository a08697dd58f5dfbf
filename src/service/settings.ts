/** Small persistent settings of a data folder (e.g. the upload-URL signing key). */
import { randomBytes } from 'node:crypto';
import type { Db } from './db/database.js';
import { namedStatements } from './db/statements.js';

const statements = namedStatements((db: Db) => ({
  get: db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?'),
  insert: db.prepare<[string, string]>('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)'),
}));

/** A random 32-byte key created on first use and kept for the life of the data folder. */
export function persistentKey(db: Db, name: string): Buffer {
  const st = statements(db);
  st.insert.run(name, randomBytes(32).toString('base64'));
  return Buffer.from(st.get.get(name)!.value, 'base64');
}
