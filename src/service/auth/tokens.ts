/**
 * Bearer tokens of the client-credentials grant. Tokens are opaque random strings; only
 * their SHA-256 is stored, with the client, granted scopes and expiry.
 */
import type { Db } from '../db/db.js';
import { namedStatements } from '../db/statements.js';
import { isIssuedToken, randomToken, sha256Hex } from './secrets.js';

export interface TokenGrant {
  clientId: string;
  scopes: string[];
  /** Epoch milliseconds. */
  expiresAt: number;
}

interface TokenRow {
  client_id: string;
  scopes: string;
  expires_at: number;
  revoked_at: string | null;
}

const tokenStatements = namedStatements((db: Db) => ({
  insert: db.prepare<[string, string, string, number]>(
    'INSERT INTO tokens (token_hash, client_id, scopes, expires_at) VALUES (?, ?, ?, ?)',
  ),
  lookup: db.prepare<[string], TokenRow>(
    `SELECT t.client_id, t.scopes, t.expires_at, c.revoked_at
         FROM tokens t JOIN clients c ON c.id = t.client_id
        WHERE t.token_hash = ?`,
  ),
  purgeExpired: db.prepare<[number]>('DELETE FROM tokens WHERE expires_at < ?'),
}));

export function issueToken(
  db: Db,
  grant: Omit<TokenGrant, 'expiresAt'>,
  ttlSeconds: number,
): { token: string; expiresIn: number } {
  const token = randomToken(32);
  const st = tokenStatements(db);
  st.purgeExpired.run(Date.now());
  st.insert.run(sha256Hex(token), grant.clientId, grant.scopes.join(' '), Date.now() + ttlSeconds * 1000);
  return { token, expiresIn: ttlSeconds };
}

/** The grant behind a bearer token, or undefined when unknown, expired or its client revoked. */
export function verifyToken(db: Db, token: string): TokenGrant | undefined {
  if (!isIssuedToken(token)) return undefined; // only the exact shape issued: no padded or decorated variants
  const row = tokenStatements(db).lookup.get(sha256Hex(token));
  if (!row || row.revoked_at !== null || row.expires_at <= Date.now()) return undefined;
  return { clientId: row.client_id, scopes: row.scopes.split(' ').filter(Boolean), expiresAt: row.expires_at };
}
