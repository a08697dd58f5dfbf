/** The express application: host guard, CORS, OAuth token endpoint, storage, the API and the web UI. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp.js';
import type { ServiceContext } from './context.js';
import { cors, corsPolicy, OriginError, originsFromText, POLICY_SETTING } from './cors.js';
import { errorHandler, unknownRoute } from './errors.js';
import { hostGuard } from './host-guard.js';
import { assertEveryOperationServed } from './router.js';
import { appRoutes } from './routes/app.js';
import { corsRoutes } from './routes/cors.js';
import { eventRoutes } from './routes/events.js';
import { findingRoutes } from './routes/findings.js';
import { pharmacogeneRoutes } from './routes/pharmacogenes.js';
import { genotypeRoutes } from './routes/genotype.js';
import { oauthRoutes } from './routes/oauth.js';
import { profileRoutes } from './routes/profiles.js';
import { serviceRoutes } from './routes/service.js';
import { storageRoutes } from './routes/storage.js';
import { traitRoutes } from './routes/traits.js';

function corsOrigins(ctx: ServiceContext): string[] {
  try {
    return originsFromText(ctx.config.corsOrigins);
  } catch (err) {
    if (err instanceof OriginError)
      throw new Error(`TRAITSCOPE_CORS_ORIGINS or --cors-origin: ${err.message}`, { cause: err });
    throw err;
  }
}

export function createApp(ctx: ServiceContext): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(hostGuard(() => ctx.port()));
  app.use((_req, res, next) => {
    res.set('X-Content-Type-Options', 'nosniff');
    res.set('Referrer-Policy', 'no-referrer');
    next();
  });
  const policy = corsPolicy(ctx.db, corsOrigins(ctx));
  app.use(cors(policy));
  app.set(POLICY_SETTING, policy);

  app.use(oauthRoutes(ctx));
  app.use(storageRoutes(ctx));

  const apiRouter = express.Router();
  // JSON bodies whatever Content-Type the client sent (a missing or form header should not
  // turn a request into an empty one); binary uploads (trait import) keep their bytes.
  const binary = /^application\/(octet-stream|gzip|x-gzip)\b/i;
  apiRouter.use(
    express.json({ limit: '1mb', type: (req) => !binary.test(req.headers['content-type'] ?? ''), strict: false }),
  );
  apiRouter.use(express.raw({ limit: '64mb', type: (req) => binary.test(req.headers['content-type'] ?? '') }));
  apiRouter.use((_req, res, next) => (res.set('Cache-Control', 'no-store'), next()));
  // Each operation checks its own token and scopes (route table).
  apiRouter.use(serviceRoutes(ctx));
  apiRouter.use(eventRoutes(ctx));
  apiRouter.use(profileRoutes(ctx));
  apiRouter.use(genotypeRoutes(ctx));
  apiRouter.use(findingRoutes(ctx));
  apiRouter.use(pharmacogeneRoutes(ctx));
  apiRouter.use(traitRoutes(ctx));
  apiRouter.use(appRoutes(ctx));
  apiRouter.use(corsRoutes(ctx, policy));
  apiRouter.use(unknownRoute);
  app.use('/api', apiRouter);
  assertEveryOperationServed(ctx);

  const uiDir = ctx.config.uiDir;
  if (uiDir && existsSync(path.join(uiDir, 'index.html'))) {
    app.use((_req, res, next) => {
      res.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      res.set('X-Frame-Options', 'DENY');
      next();
    });
    app.use(express.static(uiDir, { index: 'index.html', fallthrough: true }));
    app.get('/{*path}', (_req, res) => res.sendFile(path.join(uiDir, 'index.html')));
  } else {
    app.get('/', (_req, res) => {
      res
        .type('text/plain')
        .send(
          'The Traitscope web UI is not built. Run `npm run build`, then restart `npm run serve`. The API is at /api (reference: /api/docs).',
        );
    });
  }
  app.use(unknownRoute);
  app.use(errorHandler);
  return app;
}
