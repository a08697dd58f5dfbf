/** No-token routes about the service itself: versions, the OpenAPI document, the reference page. */
import { createHash } from 'node:crypto';
import express, { type Router } from 'express';
import { API_VERSION, type VersionInfo } from '../../../shared/api.js';
import { API_REFERENCE_POLICY } from '../../../shared/csp.js';
import { storedSecretHash } from '../../auth/clients.js';
import { decoyProof, identityProof } from '../../auth/secrets.js';
import { appVersion } from '../../config.js';
import type { ScienceEngine } from '../../science/types.js';
import type { ServiceContext } from '../context.js';
import { DOCS_ASSETS, DOCS_CSS, DOCS_HTML, DOCS_JS, docsSpecScript, swaggerUiFiles } from '../docs-page.js';
import { HttpError } from '../errors.js';
import { openApiDocumentBytes } from '../openapi.js';
import { operationRouter } from '../router.js';

const CHALLENGE = /^[A-Za-z0-9_-]{16,128}$/;

const revisions = new WeakMap<ScienceEngine, string>();

/** A hash of every trait's code and revision: changes whenever any trait definition does. */
export function catalogRevision(engine: ScienceEngine): string {
  let revision = revisions.get(engine);
  if (!revision) {
    const hash = createHash('sha256');
    for (const t of engine.traits) hash.update(`${t.code}\t${t.revision}\n`);
    revision = hash.digest('hex').slice(0, 16);
    revisions.set(engine, revision);
  }
  return revision;
}

/** The reference page and its files: the UI's policy, sandboxed into an origin of their own. */
function pageHeaders(res: express.Response): void {
  res.set({
    'Content-Security-Policy': API_REFERENCE_POLICY,
    'X-Frame-Options': 'DENY',
    'Cache-Control': 'no-cache',
  });
}

export function serviceRoutes(ctx: ServiceContext): Router {
  const { router, on } = operationRouter(ctx, '/api');
  const version = appVersion();

  on('getVersion', (req, res) => {
    const engine = ctx.engine;
    const body: VersionInfo = {
      version,
      api_version: API_VERSION,
      catalog: { revision: catalogRevision(engine), traits: engine.traits.length },
    };
    const { challenge, client_id: clientId } = req.query;
    if (challenge !== undefined || clientId !== undefined) {
      if (typeof challenge !== 'string' || typeof clientId !== 'string' || !clientId || clientId.length > 200)
        throw new HttpError(400, 'Give both challenge and client_id, once each, to get a proof of identity.');
      if (!CHALLENGE.test(challenge))
        throw new HttpError(
          400,
          'challenge must be 16 to 128 characters of A-Z a-z 0-9 _ - (e.g. 32 random bytes in base64url).',
        );
      const origin = `http://127.0.0.1:${ctx.port()}`;
      const stored = storedSecretHash(ctx.db, clientId);
      // An unknown id gets a decoy, so the answer does not tell which client ids exist.
      const proof =
        (stored === undefined ? undefined : identityProof(stored, origin, clientId, challenge)) ??
        decoyProof(ctx.uploadKey, origin, clientId, challenge);
      body.identity = { origin, client_id: clientId, ...proof };
    }
    res.json(body);
  });

  on('getOpenApiDocument', (_req, res) => {
    res.type('json').send(openApiDocumentBytes());
  });

  on('getApiReference', (_req, res) => {
    pageHeaders(res);
    res.type('html').send(DOCS_HTML);
  });

  const files = swaggerUiFiles();
  const assets = express.Router();
  assets.get('/docs.js', (_req, res) => (pageHeaders(res), res.type('js').send(DOCS_JS)));
  assets.get('/docs.css', (_req, res) => (pageHeaders(res), res.type('css').send(DOCS_CSS)));
  assets.get(
    '/openapi.js',
    (_req, res) => (pageHeaders(res), res.type('js').send(docsSpecScript(openApiDocumentBytes()))),
  );
  assets.get('/:file', (req, res, next) => {
    const file = files[req.params.file];
    if (!file) return next(new HttpError(404, `There is no ${req.originalUrl}. The reference page is /api/docs.`));
    pageHeaders(res);
    res.sendFile(file, { maxAge: 0 }, (err) => err && next(err));
  });
  router.use(DOCS_ASSETS.slice('/api'.length), assets);
  return router;
}
