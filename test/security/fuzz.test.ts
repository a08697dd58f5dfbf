/**
 * Property-based tests of the parsers that stand between the network and stored data:
 * upload-URL checks, HTTP Basic credentials, the shapes of issued secrets and ids, and the
 * token endpoint itself. Each property runs for at most a few seconds (fast-check's
 * interruptAfterTimeLimit), so CI time stays bounded whatever the machine.
 *
 * `npm test` runs the quick sizes (test/support/science-scale.ts): 1,000 cases a property
 * instead of 5,000, and 50 bodies sent to the token endpoint instead of 150 (each a request
 * to the shared service, checked against the OpenAPI document): the same mix of bodies,
 * fewer of them; test:all runs the full sizes.
 *
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { isClientId } from '../../src/service/auth/clients.js';
import { isIssuedToken, randomToken } from '../../src/service/auth/secrets.js';
import { basicCredentials } from '../../src/service/http/routes/oauth.js';
import { checkUploadUrl, makeUploadUrl } from '../../src/service/storage/upload-url.js';
import { scienceSize } from '../support/science-scale.js';
import { clientWithToken, request, type Credentials } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

/**
 * fast-check's `unit: 'binary'` (any code point but a lone surrogate), with an unmapper that
 * computes a character's index. fast-check 4's own builds a map of all 1,112,064 code points
 * the first time it looks for the dangerous strings (__proto__, constructor, …) it injects:
 * 1.5-2.5 s of CPU a process. The same code points, in the same order, drawn by the same
 * nat: the same strings for a seed. Can go when fast-check's mapToConstant unmaps without
 * that map.
 */
const SURROGATES = 0xe000 - 0xd800;
const BINARY = fc.nat({ max: 0x10ffff - SURROGATES }).map(
  (i) => String.fromCodePoint(i < 0xd800 ? i : i + SURROGATES),
  (c) => {
    const code = typeof c === 'string' ? c.codePointAt(0) : undefined;
    if (code === undefined || String.fromCodePoint(code) !== c || (code >= 0xd800 && code < 0xe000))
      throw new Error('not one code point');
    return code < 0xd800 ? code : code - SURROGATES;
  },
);

/** 5,000 cases a property in test:all; 1,000 in npm test's quick loop (test/support/science-scale.ts). */
const BUDGET = { interruptAfterTimeLimit: 4000, numRuns: scienceSize(1000, 5000) } as const;
const key = randomBytes(32);
const NOW = 1_800_000_000;

const grant = fc.record({
  profileId: fc.uuid({ version: 4 }),
  expires: fc.integer({ min: NOW, max: NOW + 10_000 }),
  contentType: fc.constantFrom('text/plain', 'application/zip'),
});

/** The query of an issued URL as Express's simple parser hands it over (repeats become arrays). */
function queryOf(search: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(search)) out[k] = k in out ? ([] as unknown[]).concat(out[k], v) : v;
  return out;
}

describe('upload URLs', () => {
  it('an issued URL checks out, and any edit to its query either changes nothing or is refused', () => {
    fc.assert(
      fc.property(
        grant,
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 3, unit: BINARY }),
        fc.constantFrom('insert', 'delete', 'replace'),
        (g, at, text, edit) => {
          const url = new URL(makeUploadUrl('http://127.0.0.1:1', key, g));
          const id = url.pathname.split('/').pop()!;
          expect(checkUploadUrl(key, id, queryOf(url.search), NOW)).toEqual({ ok: true, grant: g });
          const raw = url.search.slice(1);
          const i = at % (raw.length + 1);
          const edited =
            edit === 'insert'
              ? raw.slice(0, i) + text + raw.slice(i)
              : edit === 'delete'
                ? raw.slice(0, i) + raw.slice(i + 1)
                : raw.slice(0, i) + text + raw.slice(i + text.length);
          const before = queryOf(raw);
          const after = queryOf(edited);
          const r = checkUploadUrl(key, id, after, NOW);
          if (JSON.stringify(before) === JSON.stringify(after)) expect(r.ok).toBe(true);
          else expect(r.ok).toBe(false);
        },
      ),
      BUDGET,
    );
  });

  it('a path id that is not exactly the signed one is refused', () => {
    fc.assert(
      fc.property(grant, fc.string({ maxLength: 40 }), (g, other) => {
        const url = new URL(makeUploadUrl('http://127.0.0.1:1', key, g));
        fc.pre(other !== g.profileId);
        expect(checkUploadUrl(key, other, queryOf(url.search), NOW).ok).toBe(false);
        expect(checkUploadUrl(key, g.profileId.toUpperCase(), queryOf(url.search), NOW).ok).toBe(
          g.profileId.toUpperCase() === g.profileId,
        );
      }),
      BUDGET,
    );
  });

  it('any query at all is answered without throwing, and never accepted without the key', () => {
    const value = fc.oneof(
      fc.string({ unit: BINARY }),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.constant(undefined),
      fc.integer(),
    );
    fc.assert(
      fc.property(
        fc.string(),
        fc.record({ expires: value, content_type: value, signature: value, extra: value }, { requiredKeys: [] }),
        (id, query) => {
          const r = checkUploadUrl(key, id, query, NOW);
          expect(r.ok).toBe(false);
          if (!r.ok) expect(r.reason.length).toBeGreaterThan(20);
        },
      ),
      BUDGET,
    );
  });
});

describe('credential shapes', () => {
  it('issued tokens and ids are accepted; anything added, removed or changed around them is not', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 4, unit: BINARY }), fc.boolean(), (extra, before) => {
        const token = randomToken();
        const id = randomUUID();
        expect(isIssuedToken(token) && isClientId(id)).toBe(true);
        expect(isIssuedToken(before ? extra + token : token + extra)).toBe(false);
        expect(isClientId(before ? extra + id : id + extra)).toBe(false);
        expect(isIssuedToken(token.slice(extra.length))).toBe(false);
      }),
      BUDGET,
    );
  });

  it('HTTP Basic: any header is answered without throwing; encoded credentials read back exactly', () => {
    fc.assert(
      fc.property(fc.string({ unit: BINARY }), (header) => {
        const r = basicCredentials(header);
        expect(r === undefined || r === 'malformed' || (typeof r.id === 'string' && typeof r.secret === 'string')).toBe(
          true,
        );
      }),
      BUDGET,
    );
    fc.assert(
      fc.property(fc.string({ unit: BINARY }), fc.string({ unit: BINARY }), (id, secret) => {
        const form = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
        const header = `Basic ${Buffer.from(`${form(id)}:${form(secret)}`).toString('base64')}`;
        const valid = !/[\uD800-\uDFFF]/.test(id + secret); // lone surrogates cannot be percent-encoded as UTF-8
        if (valid) expect(basicCredentials(header)).toEqual({ id, secret });
      }),
      BUDGET,
    );
  });
});

describe('the token endpoint', () => {
  // The shared service: wrong secrets slow only the fuzzed client's own answers.
  const server = sharedServer();
  let creds: Credentials;
  beforeAll(async () => {
    ({ creds } = await clientWithToken(server, 'fuzzed'));
  });

  it('answers any body with an RFC 6749 error, never a 500, and never a token for altered credentials', async () => {
    const field = fc.oneof(
      fc.string({ unit: BINARY }),
      fc.constant(creds.client_id),
      fc.constant(creds.client_secret),
      fc.string({ minLength: 1, maxLength: 3, unit: BINARY }).map((s) => creds.client_secret + s),
      fc.integer(),
      fc.constant(null),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            grant_type: fc.oneof(fc.constant('client_credentials'), fc.string()),
            client_id: field,
            client_secret: field,
            audience: fc.constant(`${server.api}/profiles`),
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const r = await request(`${server.origin}/oauth/token`, { method: 'POST', json: body });
          const exact =
            body.grant_type === 'client_credentials' &&
            body.client_id === creds.client_id &&
            body.client_secret === creds.client_secret &&
            'audience' in body;
          if (exact && r.status !== 429) expect(r.status).toBe(200);
          else {
            expect([400, 401, 429]).toContain(r.status);
            expect(typeof r.body.error).toBe('string');
          }
        },
      ),
      { interruptAfterTimeLimit: 8000, numRuns: scienceSize(50, 150) },
    );
  });
});
