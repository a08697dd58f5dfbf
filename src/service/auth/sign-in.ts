/**
 * One-time sign-in links for the web UI (`serve` prints one; `sign-in-link` makes another).
 * The link carries a random code in its fragment; the page exchanges it once for an access
 * token of the app's own client, so a link left in a terminal or a log is useless after.
 * An unused link expires after ten minutes.
 */
import type { Db } from '../db/db.js';
import { namedStatements } from '../db/statements.js';
import { isIssuedToken, randomToken, sha256Hex } from './secrets.js';

export const SIGN_IN_LINK_TTL_SECONDS = 10 * 60;

const statements = namedStatements((db: Db) => ({
  insert: db.prepare<[string, number]>('INSERT INTO sign_in_codes (code_hash, expires_at) VALUES (?, ?)'),
  redeem: db.prepare<[string, number]>('DELETE FROM sign_in_codes WHERE code_hash = ? AND expires_at > ?'),
  purge: db.prepare<[number]>('DELETE FROM sign_in_codes WHERE expires_at <= ?'),
}));

export function createSignInCode(db: Db): string {
  const code = randomToken(32);
  statements(db).purge.run(Date.now());
  statements(db).insert.run(sha256Hex(code), Date.now() + SIGN_IN_LINK_TTL_SECONDS * 1000);
  return code;
}

/** True once per valid, unexpired code: redeeming deletes it. */
export function redeemSignInCode(db: Db, code: unknown): boolean {
  if (!isIssuedToken(code)) return false;
  return statements(db).redeem.run(sha256Hex(code), Date.now()).changes > 0;
}
