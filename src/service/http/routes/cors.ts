/** /api/app/cors: the browser origins Settings → API access allows (the app's own client only). */
import type { Router } from 'express';
import { CorsSettingsInput, type CorsSettings } from '../../../shared/api.js';
import type { ServiceContext } from '../context.js';
import { OriginError, type CorsPolicy } from '../cors.js';
import { HttpError } from '../errors.js';
import { operationRouter } from '../router.js';
import { parseBody } from '../validate.js';

export function corsRoutes(ctx: ServiceContext, policy: CorsPolicy): Router {
  const { router, on } = operationRouter(ctx, '/api');
  const settings = (): CorsSettings => ({ origins: policy.saved(), fixed: [...policy.fixed] });

  on('getCorsSettings', (_req, res) => {
    res.json(settings());
  });

  on('updateCorsSettings', (req, res) => {
    const input = parseBody(CorsSettingsInput, req.body, 400, 'CORS settings');
    try {
      policy.save(input.origins);
    } catch (err) {
      if (err instanceof OriginError) throw new HttpError(400, err.message);
      throw err;
    }
    res.json(settings());
  });

  return router;
}
