/**
 * Bearer-token authentication: each operation of the route table names the scopes its
 * token needs. The authenticated client is in res.locals.client.
 */
import type { RequestHandler, Response } from 'express';
import type { AnyScope } from '../../shared/api.js';
import { getClient, type Client } from '../auth/clients.js';
import { verifyToken, type TokenGrant } from '../auth/tokens.js';
import { untilDatabaseChanges } from '../db/change-stamp.js';
import type { Db } from '../db/db.js';
import { HttpError } from './errors.js';

const challenge = { 'WWW-Authenticate': 'Bearer realm="traitscope"' };

/**
 * The grant and client behind a bearer token. Every request carries one, so a token that
 * verified is kept until the database changes (issuing, revoking or a client's removal
 * commits: db/change-stamp.ts); its expiry is checked on every request.
 */
const authenticate = untilDatabaseChanges(
  (db: Db, token: string): { grant: TokenGrant; client: Client } | undefined => {
    const grant = verifyToken(db, token);
    const client = grant && getClient(db, grant.clientId);
    return grant && client ? { grant, client } : undefined;
  },
);

export function requireToken(db: Db, scopes: readonly AnyScope[]): RequestHandler {
  return (req, res, next) => {
    const header = req.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      throw new HttpError(
        401,
        'Authentication required: send "Authorization: Bearer <access_token>". Get a token with POST /oauth/token (client credentials).',
        challenge,
      );
    }
    const found = authenticate(db, match[1]);
    if (!found || found.grant.expiresAt <= Date.now()) {
      throw new HttpError(
        401,
        'The access token is invalid, expired or revoked. Request a new one with POST /oauth/token.',
        {
          'WWW-Authenticate': 'Bearer realm="traitscope", error="invalid_token"',
        },
      );
    }
    const { grant, client } = found;
    const missing = scopes.find((s) => !grant.scopes.includes(s));
    if (missing) {
      throw new HttpError(
        403,
        `This token lacks the "${missing}" scope needed for ${req.method} ${req.baseUrl}${req.path}. Ask for a client with that scope.`,
      );
    }
    res.locals.client = client;
    next();
  };
}

export function clientOf(res: Response): Client {
  return res.locals.client as Client;
}
