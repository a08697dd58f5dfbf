/**
 * Random identifiers and one-way hashes for client secrets and bearer tokens.
 *
 * Everything Traitscope issues (client secrets, access tokens, sign-in codes) is 32 random
 * bytes in base64url: 43 characters of [A-Za-z0-9_-]. Presented values are compared only in
 * exactly that shape. That matters for secrets: scrypt feeds the secret to HMAC-SHA256 as its
 * key, and HMAC zero-pads short keys, so "secret" and "secret\0\0" would hash alike.
 */
import { createHash, createHmac, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

const ISSUED = /^[A-Za-z0-9_-]{43}$/;

/** True for a value in the exact shape randomToken() issues. */
export function isIssuedToken(value: unknown): value is string {
  return typeof value === 'string' && ISSUED.test(value);
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

// scrypt parameters: N=2^14 costs ~30-50 ms per check, enough against offline guessing of a
// stolen database; hashes and checks run on libuv's thread pool, never on the event loop.
const SCRYPT = { N: 16384, r: 8, p: 1 } as const;

function scryptAsync(secret: string, salt: Buffer, length: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, length, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/**
 * Hash for storage, at client creation: on libuv's thread pool too. Creating a client is
 * rare, but a synchronous scrypt held the service's event loop (and in the desktop app the
 * window) for 50 ms on a quiet machine and 0.85 s on a busy one.
 */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(secret, salt, 32, SCRYPT);
  return `scrypt$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/** Compares a presented secret with a stored hash, off the event loop, in constant time. */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, saltB64, hashB64] = stored.split('$');
  if (scheme !== 'scrypt' || !saltB64 || !hashB64) return false;
  const expected = Buffer.from(hashB64, 'base64');
  const actual = await scryptAsync(secret, Buffer.from(saltB64, 'base64'), expected.length, SCRYPT);
  return timingSafeEqual(actual, expected) && isIssuedToken(secret);
}

/**
 * A stored hash no secret matches (random in place of scrypt's output): for a client whose
 * secret nobody is ever given, such as the app's own, without spending scrypt's time on a
 * secret that is thrown away.
 */
export function unmatchableHash(): string {
  return `scrypt$${randomBytes(16).toString('base64')}$${randomBytes(32).toString('base64')}`;
}

/**
 * The service's proof of identity to a tool holding a client secret (GET /api/version with
 * `challenge` and `client_id`, docs/api.md): the key is the stored scrypt output, which the
 * tool computes from its secret and the salt given beside the proof; the message binds the
 * proof to this service's origin, so a squatter relaying the challenge to the real service
 * (on another port) gets a proof for the wrong origin.
 */
export function identityProof(
  stored: string,
  origin: string,
  clientId: string,
  challenge: string,
): { salt: string; proof: string } | undefined {
  const [scheme, saltB64, hashB64] = stored.split('$');
  if (scheme !== 'scrypt' || !saltB64 || !hashB64) return undefined;
  const proof = createHmac('sha256', Buffer.from(hashB64, 'base64'))
    .update(identityMessage(origin, clientId, challenge))
    .digest('base64url');
  return { salt: Buffer.from(saltB64, 'base64').toString('base64url'), proof };
}

/** What the proof signs: a label, the origin, the client id and the challenge, one a line. */
export function identityMessage(origin: string, clientId: string, challenge: string): string {
  return `traitscope-service-proof\n${origin}\n${clientId}\n${challenge}`;
}

/** A salt and proof for a client id that does not exist, as random-looking as real ones. */
export function decoyProof(key: Buffer, origin: string, clientId: string, challenge: string) {
  const salt = createHmac('sha256', key).update(`identity-decoy-salt\n${clientId}`).digest().subarray(0, 16);
  const proof = createHmac('sha256', key)
    .update(`identity-decoy-proof\n${identityMessage(origin, clientId, challenge)}`)
    .digest('base64url');
  return { salt: salt.toString('base64url'), proof };
}
