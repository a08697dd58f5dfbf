/**
 * CORS for browser-based tools, by allowlist only (empty by default): origins from
 * TRAITSCOPE_CORS_ORIGINS and `serve --cors-origin` for the run, plus the list saved from
 * Settings → API access. A listed origin gets CORS headers on /api, /oauth/token and
 * /storage, and its preflights (Private Network Access included) are answered here,
 * before authentication. Any other origin gets no CORS header at all, so the browser keeps
 * its pages out. The Host check before this still refuses foreign host names.
 */
import type { RequestHandler } from 'express';
import type { Db } from '../db/db.js';
import { getSetting, setSetting } from '../settings.js';
import { allowedMethods } from './allowed-methods.js';

const SAVED = 'cors_origins';
const CORS_PATHS = /^\/(api\/|oauth\/token$|storage\/)/;
const ALLOWED_HEADERS = 'Authorization, Content-Type, If-None-Match';
const EXPOSED_HEADERS = 'WWW-Authenticate, ETag, Location, Retry-After, Traitscope-Unknown-Trait-Codes';

export class OriginError extends Error {}

/** The canonical form of an origin ("http://localhost:3000"), or an OriginError saying what is wrong. */
export function normalizeOrigin(text: string): string {
  const value = text.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OriginError(`"${value}" is not an origin; write it as scheme://host[:port], e.g. http://localhost:3000.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OriginError(
      `"${value}" is not an http or https origin; write it as scheme://host[:port], e.g. http://localhost:3000.`,
    );
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username || url.password) {
    throw new OriginError(
      `"${value}" has more than an origin (a path, query or credentials); give only scheme://host[:port].`,
    );
  }
  return url.origin;
}

/** Origins from the environment and the command line, for this run. */
export function originsFromText(values: readonly string[]): string[] {
  return [
    ...new Set(
      values
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean)
        .map(normalizeOrigin),
    ),
  ];
}

export interface CorsPolicy {
  /** Fixed for this run (environment, command line). */
  readonly fixed: readonly string[];
  saved: () => string[];
  save: (origins: string[]) => string[];
  allows: (origin: string) => boolean;
}

export function corsPolicy(db: Db, fixed: readonly string[]): CorsPolicy {
  const read = (): string[] => {
    try {
      const list = JSON.parse(getSetting(db, SAVED) ?? '[]') as unknown;
      return Array.isArray(list) ? list.filter((o): o is string => typeof o === 'string') : [];
    } catch {
      return [];
    }
  };
  let saved = read();
  return {
    fixed,
    saved: () => [...saved],
    save(origins) {
      saved = [...new Set(origins.map(normalizeOrigin))];
      setSetting(db, SAVED, JSON.stringify(saved));
      return [...saved];
    },
    allows: (origin) => fixed.includes(origin) || saved.includes(origin),
  };
}

/** The CORS policy an app built by createApp applies, for answers made outside express. */
export function corsPolicyOf(app: { get: (name: string) => unknown }): CorsPolicy {
  return app.get(POLICY_SETTING) as CorsPolicy;
}
export const POLICY_SETTING = 'traitscope cors policy';

export function cors(policy: CorsPolicy): RequestHandler {
  return (req, res, next) => {
    if (!CORS_PATHS.test(req.path)) return next();
    const origin = req.headers.origin;
    const listed = typeof origin === 'string' && policy.allows(origin);
    if (listed) {
      res.vary('Origin');
      res.set({ 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED_HEADERS });
    }
    if (req.method !== 'OPTIONS') return next();
    const methods = allowedMethods(req.path);
    if (methods.length === 0) return next(); // an unknown path: 404 like any other method
    res.set('Allow', [...methods, 'OPTIONS'].join(', '));
    if (listed && req.headers['access-control-request-method']) {
      res.set({
        'Access-Control-Allow-Methods': methods.join(', '),
        'Access-Control-Allow-Headers': ALLOWED_HEADERS,
        'Access-Control-Max-Age': '600',
      });
      if (req.headers['access-control-request-private-network'] === 'true')
        res.set('Access-Control-Allow-Private-Network', 'true');
    }
    res.status(204).end();
  };
}
