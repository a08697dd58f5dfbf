/** /api/profiles: create, list, read, replace, patch and delete profiles of the calling client. */
import { Router, type Request } from 'express';
import { ProfileInput, type Profile } from '../../../shared/api.js';
import { eraseProfile } from '../../profiles/erase.js';
import { createProfile, getProfile, listProfiles, updateProfile } from '../../profiles/profiles.js';
import { recomputeProfile } from '../../traits/refresh.js';
import { clientOf } from '../auth.js';
import type { ServiceContext } from '../context.js';
import { HttpError } from '../errors.js';
import { isUuid, parseBody } from '../validate.js';

function profileNotFound(id: string): HttpError {
  return new HttpError(404, `No profile with id "${id}" exists for this client. GET /api/profiles/ lists your profiles.`);
}

/** The calling client's profile named in the path, or 404. */
export function requireProfile(ctx: ServiceContext, req: Request, res: Parameters<typeof clientOf>[0]): Profile {
  const id = String(req.params.profile_id);
  const profile = isUuid(id) ? getProfile(ctx.db, clientOf(res).id, id.toLowerCase()) : undefined;
  if (!profile) throw profileNotFound(id);
  return profile;
}

export function profileRoutes(ctx: ServiceContext): Router {
  const router = Router();

  // OPTIONS on a profile's paths resolves the profile like every other method (404 when it is
  // not the caller's), instead of Express's automatic answer for any id.
  router.options('/profiles/:profile_id{/*rest}', (req, res, next) => {
    requireProfile(ctx, req, res);
    next();
  });

  router.post('/profiles', (req, res) => {
    const input = parseBody(ProfileInput, req.body, 405, 'profile input');
    res.status(201).json(createProfile(ctx.db, clientOf(res).id, input));
  });

  router.get('/profiles', (_req, res) => {
    res.json(listProfiles(ctx.db, clientOf(res).id));
  });

  router.get('/profiles/:profile_id', (req, res) => {
    res.json(requireProfile(ctx, req, res));
  });

  for (const [method, mode] of [['put', 'replace'], ['patch', 'merge']] as const) {
    router[method]('/profiles/:profile_id', (req, res) => {
      const profile = requireProfile(ctx, req, res);
      const input = parseBody(ProfileInput, req.body, 405, 'profile input');
      const updated = updateProfile(ctx.db, clientOf(res).id, profile.id, input, mode)!;
      // Percentiles are relative to the population the ethnicity selects.
      if (updated.ethnicity !== profile.ethnicity) recomputeProfile(ctx.db, ctx.engine, profile.id);
      res.json(updated);
    });
  }

  router.delete('/profiles/:profile_id', async (req, res) => {
    const profile = requireProfile(ctx, req, res);
    await eraseProfile(ctx.db, ctx.config.dataDir, clientOf(res).id, profile.id); // rows, files, and the database's leftovers
    res.json({ detail: `Profile ${profile.id} and all its genetic data were deleted.` });
  });

  return router;
}
