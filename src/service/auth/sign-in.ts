/**
 * One-time sign-in links for the web UI (`serve` prints one; `sign-in-link` makes another).
 * The link carries a random code in its fragment; the page exchanges it once for an access
 * token of the app's own client, so a link left in a terminal or a log is useless after.
 */
import type { Db } from '../db/database.js';
import { namedStatements } from '../db/statements.js';
import { randomToken, sha256Hex } from './secrets.js';

const statements = namedStatements((db: Db) => ({
  insert: db.prepare<[string, number]>('INSERT INTO sign_in_codes (code_hash, expires_at) VALUES (?, ?)'),
  redeem: db.prepare<[string, number]>('DELETE FROM sign_in_codes WHERE code_hash = ? AND expires_at > ?'),
  purge: db.prepare<[number]>('DELETE FROM sign_in_codes WHERE expires_at <= ?'),
}));

export function createSignInCode(db: Db, ttlSeconds: number): string {
  const code = randomToken(32);
  statements(db).purge.run(Date.now());
  statements(db).insert.run(sha256Hex(code), Date.now() + ttlSeconds * 1000);
  return code;
}

/** True once per valid, unexpired code: redeeming deletes it. */
export function redeemSignInCode(db: Db, code: string): boolean {
  return statements(db).redeem.run(sha256Hex(code), Date.now()).changes > 0;
}
