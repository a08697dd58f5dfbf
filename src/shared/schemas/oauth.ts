/** OAuth 2.0 client credentials (interface.md §5, RFC 6749 §4.4) and the web UI's sign-in. */
import { z } from 'zod';
import { ext } from './common.js';

export const TokenRequest = z
  .object({
    client_id: z.string().optional().describe('Required unless sent as HTTP Basic credentials.'),
    client_secret: z.string().optional().describe('Required unless sent as HTTP Basic credentials.'),
    audience: z
      .string()
      .describe('{base_url}/profiles, e.g. http://127.0.0.1:4780/api/profiles (localhost is accepted too).'),
    grant_type: z.literal('client_credentials'),
    scope: ext(z.string().optional(), 'Space-separated subset of the client scopes; all of them when omitted.'),
  })
  .meta({
    id: 'TokenRequest',
    examples: [
      {
        client_id: 'c_3d9f…',
        client_secret: 's_…',
        audience: 'http://127.0.0.1:4780/api/profiles',
        grant_type: 'client_credentials',
      },
    ],
  });

export const TokenResponse = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: ext(z.int().min(1), 'Seconds until the token expires.'),
    scope: ext(z.string(), 'Space-separated scopes of the token.'),
  })
  .meta({
    id: 'TokenResponse',
    examples: [
      { access_token: 'tsat_…', token_type: 'Bearer', expires_in: 86400, scope: 'read:profiles write:profiles' },
    ],
  });
export type TokenResponse = z.infer<typeof TokenResponse>;

export const OAuthErrorCode = z
  .enum([
    'invalid_request',
    'invalid_client',
    'invalid_grant',
    'unsupported_grant_type',
    'invalid_scope',
    'invalid_target',
    'slow_down',
  ])
  .meta({ id: 'OAuthErrorCode' });

export const OAuthError = z.object({ error: OAuthErrorCode, error_description: z.string() }).meta({
  id: 'OAuthError',
  description: 'RFC 6749 §5.2 error.',
  examples: [
    { error: 'invalid_client', error_description: 'Unknown client, wrong secret, or the client was revoked.' },
  ],
});

export const SignInRequest = z
  .object({ code: z.string().describe('The code of a one-time sign-in link (#signin=…).') })
  .meta({ id: 'SignInRequest', examples: [{ code: 'q8Yc…' }] });
