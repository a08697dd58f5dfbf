/** The express application: host guard, OAuth token endpoint, storage, the API and the web UI. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import express from 'express';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp.js';
import { requireToken } from './auth.js';
import { origin, type ServiceContext } from './context.js';
import { errorHandler, unknownRoute } from './errors.js';
import { hostGuard } from './host-guard.js';
import { openApiDocument } from './openapi.js';
import { appRoutes } from './routes/app.js';
import { eventRoutes } from './routes/events.js';
import { genotypeRoutes } from './routes/genotype.js';
import { oauthRoutes } from './routes/oauth.js';
import { profileRoutes } from './routes/profiles.js';
import { storageRoutes } from './routes/storage.js';
import { traitRoutes } from './routes/traits.js';

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

  app.use(oauthRoutes(ctx));
  app.use(storageRoutes(ctx));

  const apiRouter = express.Router();
  apiRouter.get('/openapi.json', (_req, res) => void res.json(openApiDocument(origin(ctx))));
  // JSON bodies whatever Content-Type the client sent (a missing or form header should not
  // turn a request into an empty one); binary uploads (trait import) keep their bytes.
  const binary = /^application\/(octet-stream|gzip|x-gzip)\b/i;
  apiRouter.use(express.json({ limit: '1mb', type: (req) => !binary.test(req.headers['content-type'] ?? ''), strict: false }));
  apiRouter.use(express.raw({ limit: '64mb', type: (req) => binary.test(req.headers['content-type'] ?? '') }));
  // The events stream authenticates itself: by token, or by a one-time ticket for EventSource.
  apiRouter.use(eventRoutes(ctx));
  apiRouter.use(requireToken(ctx.db));
  apiRouter.use((_req, res, next) => (res.set('Cache-Control', 'no-store'), next()));
  apiRouter.use(profileRoutes(ctx));
  apiRouter.use(genotypeRoutes(ctx));
  apiRouter.use(traitRoutes(ctx));
  apiRouter.use(appRoutes(ctx));
  apiRouter.use(unknownRoute);
  app.use('/api', apiRouter);

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
        .send('The Traitscope web UI is not built. Run `npm run build`, then restart `npm run serve`. The API is at /api (see /api/openapi.json).');
    });
  }
  app.use(unknownRoute);
  app.use(errorHandler);
  return app;
}
