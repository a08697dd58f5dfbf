/**
 * POST /oauth/token: OAuth 2.0 client-credentials grant (RFC 6749 §4.4). Accepts JSON (as
 * the spec shows) and application/x-www-form-urlencoded, with credentials in the body or
 * in HTTP Basic auth (§2.3.1). Errors follow §5.2. Secrets are checked off the event loop,
 * one at a time, in fair turns per client id and origin; failed checks are answered after a
 * growing delay, and a full queue answers 429 slow_down (RFC 8628's token-endpoint error,
 * with Retry-After): guessing cannot slow the rest of the API or lock the owner out.
 */
import express, { type ErrorRequestHandler, type Response, type Router } from 'express';
import { AttemptLimiter, DEFAULT_ATTEMPT_LIMITS } from '../../auth/attempt-limits.js';
import { authenticateClient, ensureAppClient, isActiveClient } from '../../auth/clients.js';
import { redeemSignInCode } from '../../auth/sign-in.js';
import { issueToken } from '../../auth/tokens.js';
import { origin, type ServiceContext } from '../context.js';
import { operationRouter } from '../router.js';

function oauthError(res: Response, status: number, error: string, description: string) {
  res.status(status).set('Cache-Control', 'no-store');
  if (status === 401) res.set('WWW-Authenticate', 'Basic realm="traitscope"');
  res.json({ error, error_description: description });
}

/**
 * HTTP Basic credentials (RFC 6749 §2.3.1: id and secret form-urlencoded, then base64).
 * Anything that is not exactly that shape counts as no valid credentials.
 */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | 'malformed' | undefined {
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header ?? '');
  if (!match) return /^Basic\b/i.test(header ?? '') ? 'malformed' : undefined;
  const bytes = Buffer.from(match[1], 'base64');
  if (bytes.toString('base64') !== match[1]) return 'malformed'; // not canonical base64
  const decoded = bytes.toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    const form = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: form(decoded.slice(0, colon)), secret: form(decoded.slice(colon + 1)) };
  } catch {
    return 'malformed';
  }
}

/** The accepted audiences: {base_url}/profiles under either spelling of our address. */
function audienceMatches(ctx: ServiceContext, audience: string): boolean {
  const port = ctx.port();
  const normalized = audience.replace(/\/+$/, '');
  return (
    normalized === `http://127.0.0.1:${port}/api/profiles` || normalized === `http://localhost:${port}/api/profiles`
  );
}

export function oauthRoutes(ctx: ServiceContext): Router {
  const { router, on } = operationRouter(ctx, '');
  const attempts = new AttemptLimiter({
    ...DEFAULT_ATTEMPT_LIMITS,
    failureDelayMs: ctx.config.authFailureDelayMs,
    maxDelayMs: 20 * ctx.config.authFailureDelayMs,
  });
  on(
    'requestToken',
    express.json({ limit: '16kb' }),
    express.urlencoded({ extended: false, limit: '16kb' }),
    async (req, res) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const str = (k: string) => (typeof body[k] === 'string' ? body[k] : undefined);
      const basic = basicCredentials(req.headers.authorization);
      if (basic === 'malformed') {
        return oauthError(
          res,
          401,
          'invalid_client',
          'The Authorization header is not valid HTTP Basic credentials (base64 of client_id:client_secret).',
        );
      }
      const clientId = basic?.id ?? str('client_id');
      const clientSecret = basic?.secret ?? str('client_secret');
      const grantType = str('grant_type');
      const audience = str('audience');

      if (!grantType)
        return oauthError(res, 400, 'invalid_request', 'grant_type is required; use "client_credentials".');
      if (grantType !== 'client_credentials') {
        return oauthError(
          res,
          400,
          'unsupported_grant_type',
          `grant_type "${grantType}" is not supported; use "client_credentials".`,
        );
      }
      if (!clientId || !clientSecret) {
        return oauthError(
          res,
          401,
          'invalid_client',
          'client_id and client_secret are required (in the body or as HTTP Basic credentials).',
        );
      }
      // Made-up and revoked ids are refused before any hashing; known ones wait for their
      // turn in a queue per id and per web origin (none for local programs), so guessers slow
      // only themselves (auth/attempt-limits.ts).
      const refused = () =>
        oauthError(res, 401, 'invalid_client', 'Unknown client, wrong secret, or the client was revoked.');
      if (!isActiveClient(ctx.db, clientId)) return refused();
      const key = `${clientId}\n${req.headers.origin ?? ''}`;
      const admission = attempts.admit(key);
      if (!admission.ok) {
        res.set('Retry-After', String(admission.retryAfterSeconds));
        return oauthError(
          res,
          429,
          'slow_down',
          `Too many token requests for this client_id are waiting to be checked; try again in ${admission.retryAfterSeconds} s.`,
        );
      }
      const client = await attempts.check(key, () => authenticateClient(ctx.db, clientId, clientSecret));
      if (!client) {
        const delayMs = attempts.failed(key);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        return refused();
      }
      attempts.succeeded(key);
      if (!audience)
        return oauthError(res, 400, 'invalid_target', `audience is required: "${origin(ctx)}/api/profiles".`);
      if (!audienceMatches(ctx, audience)) {
        return oauthError(
          res,
          400,
          'invalid_target',
          `audience "${audience}" is not this service; use "${origin(ctx)}/api/profiles".`,
        );
      }
      let scopes = client.scopes;
      const requested = str('scope');
      if (requested !== undefined && requested.trim() !== '') {
        const asked = requested.split(/\s+/).filter(Boolean);
        const unknown = asked.filter((s) => !client.scopes.includes(s));
        if (unknown.length > 0) {
          return oauthError(
            res,
            400,
            'invalid_scope',
            `Scope ${unknown.join(', ')} is not granted to this client (it has: ${client.scopes.join(' ')}).`,
          );
        }
        scopes = client.scopes.filter((s) => asked.includes(s));
      }
      const { token, expiresIn } = issueToken(ctx.db, { clientId: client.id, scopes }, ctx.config.tokenTtlSeconds);
      res
        .set('Cache-Control', 'no-store')
        .json({ access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: scopes.join(' ') });
    },
  );
  // The web UI's one-time sign-in link: its code becomes an access token of the app's own client.
  on('signIn', express.json({ limit: '4kb' }), (req, res) => {
    const code = (req.body as { code?: unknown } | undefined)?.code;
    if (!redeemSignInCode(ctx.db, code)) {
      return oauthError(
        res,
        400,
        'invalid_grant',
        'This sign-in link was already used or has expired. Get a new one: `npm run cli -- sign-in-link` (or restart `npm run serve`).',
      );
    }
    const app = ensureAppClient(ctx.db);
    const { token, expiresIn } = issueToken(
      ctx.db,
      { clientId: app.id, scopes: app.scopes },
      ctx.config.tokenTtlSeconds,
    );
    res
      .set('Cache-Control', 'no-store')
      .json({ access_token: token, token_type: 'Bearer', expires_in: expiresIn, scope: app.scopes.join(' ') });
  });

  router.all('/oauth/token', (_req, res) => {
    res.set('Allow', 'POST');
    oauthError(res, 405, 'invalid_request', 'Use POST /oauth/token.');
  });
  // Unreadable bodies answer in the token endpoint's own (RFC 6749) error format.
  router.use('/oauth', ((err, _req, res, _next) => {
    const tooLarge = (err as { type?: string }).type === 'entity.too.large';
    oauthError(
      res,
      tooLarge ? 413 : 400,
      'invalid_request',
      tooLarge ? 'The request body is too large.' : `The request body could not be read: ${(err as Error).message}.`,
    );
  }) as ErrorRequestHandler);
  return router;
}
