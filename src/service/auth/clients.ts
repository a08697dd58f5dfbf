/**
 * API clients: the third-party tools (and the desktop UI itself) that hold credentials.
 * Secrets are returned once at creation and stored only as scrypt hashes.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/db.js';
import type { ApiClient, Scope } from '../../shared/api.js';
// Not through shared/api.js: its barrel builds every zod schema of the API, and the engine
// workers, which read clients through this module, have no use for them.
import { APP_SCOPE, SCOPES } from '../../shared/scopes.js';
import { namedStatements } from '../db/statements.js';
import { hashSecret, isIssuedToken, randomToken, unmatchableHash, verifySecret } from './secrets.js';

/** Which of the configured traits a client gets for free; "default" follows the catalog's pricing. */
export type FreeTraits = 'default' | 'all' | 'none' | string[];

export interface Client {
  id: string;
  name: string;
  /** API scopes, plus manage:app for the desktop UI's own client. */
  scopes: string[];
  freeTraits: FreeTraits;
  /** Configured trait codes; null = the whole catalog. */
  traitCodes: string[] | null;
  isApp: boolean;
  createdAt: string;
  revokedAt: string | null;
}

interface ClientRow {
  id: string;
  name: string;
  secret_hash: string;
  scopes: string;
  free_traits: string;
  trait_codes: string | null;
  is_app: number;
  created_at: string;
  revoked_at: string | null;
}

export interface NewClient {
  name: string;
  scopes?: Scope[];
  freeTraits?: FreeTraits;
  traitCodes?: string[] | null;
  isApp?: boolean;
}

export class ClientInputError extends Error {}

export function parseScopes(text: string): Scope[] {
  const scopes = text.split(/[\s,]+/).filter(Boolean);
  for (const s of scopes) {
    if (!(SCOPES as readonly string[]).includes(s)) {
      throw new ClientInputError(`Unknown scope "${s}". Known scopes: ${SCOPES.join(', ')}.`);
    }
  }
  return [...new Set(scopes)] as Scope[];
}

function toClient(row: ClientRow): Client {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes.split(' ').filter(Boolean),
    freeTraits: JSON.parse(row.free_traits) as FreeTraits,
    traitCodes: row.trait_codes === null ? null : (JSON.parse(row.trait_codes) as string[]),
    isApp: row.is_app === 1,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

const clientStatements = namedStatements((db: Db) => ({
  insert: db.prepare<[string, string, string, string, string, string | null, number, string]>(
    `INSERT INTO clients (id, name, secret_hash, scopes, free_traits, trait_codes, is_app, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  byId: db.prepare<[string], ClientRow>('SELECT * FROM clients WHERE id = ?'),
  all: db.prepare<[], ClientRow>('SELECT * FROM clients ORDER BY created_at, rowid'),
  appClient: db.prepare<[], ClientRow>(
    'SELECT * FROM clients WHERE is_app = 1 AND revoked_at IS NULL ORDER BY created_at LIMIT 1',
  ),
  revoke: db.prepare<[string, string]>('UPDATE clients SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
  deleteTokens: db.prepare<[string]>('DELETE FROM tokens WHERE client_id = ?'),
}));

export async function createClient(db: Db, input: NewClient): Promise<{ client: Client; secret: string }> {
  const secret = randomToken(32);
  const secretHash = await hashSecret(secret);
  return { client: insertClient(db, input, secretHash), secret };
}

function insertClient(db: Db, input: NewClient, secretHash: string): Client {
  const name = input.name.trim();
  if (!name) throw new ClientInputError('A client needs a name (e.g. --name "My analysis tool").');
  if (name.length > 100) throw new ClientInputError('A client name must be at most 100 characters.');
  const scopes: string[] = input.isApp ? [...SCOPES, APP_SCOPE] : (input.scopes ?? [...SCOPES]);
  if (scopes.length === 0) throw new ClientInputError(`A client needs at least one scope: ${SCOPES.join(', ')}.`);
  const id = randomUUID();
  const now = new Date().toISOString();
  clientStatements(db).insert.run(
    id,
    name,
    secretHash,
    scopes.join(' '),
    JSON.stringify(input.freeTraits ?? 'default'),
    input.traitCodes ? JSON.stringify(input.traitCodes) : null,
    input.isApp ? 1 : 0,
    now,
  );
  return getClient(db, id)!;
}

export function getClient(db: Db, id: string): Client | undefined {
  const row = clientStatements(db).byId.get(id);
  return row ? toClient(row) : undefined;
}

/** The stored secret hash of a client tools can hold a secret for (not revoked, not the app's own). */
export function storedSecretHash(db: Db, id: string): string | undefined {
  const row = clientStatements(db).byId.get(id);
  return row && !row.is_app && !toClient(row).revokedAt ? row.secret_hash : undefined;
}

/** A client as the API and the command line show it (never its secret). */
export function clientJson(c: Client): ApiClient {
  return {
    client_id: c.id,
    name: c.name,
    scopes: c.scopes,
    free_traits: c.freeTraits,
    created_at: c.createdAt,
    revoked_at: c.revokedAt,
    is_app: c.isApp,
  };
}

export function listClients(db: Db): Client[] {
  return clientStatements(db).all.all().map(toClient);
}

const CLIENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for a client id in the exact shape issued (a lowercase UUID). */
export function isClientId(value: unknown): value is string {
  return typeof value === 'string' && CLIENT_ID.test(value);
}

/**
 * The client with these credentials, if it exists, is not revoked and the secret matches.
 * Credentials are compared exactly as issued. Unknown and revoked clients are refused
 * without a scrypt check (isActiveClient).
 */
export async function authenticateClient(db: Db, id: string, secret: string): Promise<Client | undefined> {
  if (!isIssuedToken(secret)) return undefined;
  const row = activeClientRow(db, id);
  if (!row || !(await verifySecret(secret, row.secret_hash))) return undefined;
  // Read again: the client may have been revoked while the secret was being checked.
  const current = clientStatements(db).byId.get(row.id);
  return current && current.revoked_at === null ? toClient(current) : undefined;
}

/** Per process: ids are compared as keyed digests, so the comparison's time says nothing about how close a guess was. */
const idKey = randomBytes(32);
const idDigest = (id: string) => createHmac('sha256', idKey).update(id).digest();

function activeClientRow(db: Db, id: string): ClientRow | undefined {
  if (!isClientId(id)) return undefined;
  const row = clientStatements(db).byId.get(id);
  const found = row ?? { id: '', revoked_at: null };
  const same = timingSafeEqual(idDigest(found.id), idDigest(id));
  return row && same && row.revoked_at === null ? row : undefined;
}

/**
 * Whether a token request names a client that exists and is not revoked: the others are
 * refused before any hashing, so made-up ids cost no scrypt check and take no one's turn
 * (auth/attempt-limits.ts). Client ids are not secrets; the secret is.
 */
export const isActiveClient = (db: Db, id: string): boolean => activeClientRow(db, id) !== undefined;

/** Revokes a client: its tokens stop working at once. Returns false if unknown or already revoked. */
export function revokeClient(db: Db, id: string): boolean {
  const st = clientStatements(db);
  return db
    .transaction(() => {
      const changed = st.revoke.run(new Date().toISOString(), id).changes > 0;
      st.deleteTokens.run(id);
      return changed;
    })
    .immediate();
}

function appClient(db: Db): Client | undefined {
  const row = clientStatements(db).appClient.get();
  return row ? toClient(row) : undefined;
}

/**
 * The desktop UI's own client, created on first use. Its tokens come from the service itself
 * (sign-in links, appToken), never from a secret: it gets a hash no secret matches, which
 * spares the first start a synchronous scrypt (50 ms, close to a second on a busy machine).
 */
export function ensureAppClient(db: Db): Client {
  return (
    appClient(db) ?? insertClient(db, { name: 'Traitscope app', isApp: true, freeTraits: 'default' }, unmatchableHash())
  );
}
