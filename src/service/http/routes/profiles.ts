/** /api/profiles: create, list, read, replace, patch and delete profiles of the calling client. */
import type { Request, Router } from 'express';
import { ProfileInput, type Profile } from '../../../shared/api.js';
import { eraseProfile } from '../../profiles/erase.js';
import {
  createProfile,
  getProfile,
  listProfilesJson,
  resultsOutdated,
  updateProfile,
} from '../../profiles/profiles.js';
import { scoringInputsDiffer } from '../../traits/profile-traits.js';
import { clientOf } from '../auth.js';
import type { ServiceContext } from '../context.js';
import { HttpError } from '../errors.js';
import { operationRouter } from '../router.js';
import { isUuid, parseBody } from '../validate.js';

function profileNotFound(id: string): HttpError {
  return new HttpError(
    404,
    `No profile with id "${id}" exists for this client. GET /api/profiles/ lists your profiles.`,
  );
}

/** The calling client's profile named in the path, or 404. */
export function requireProfile(ctx: ServiceContext, req: Request, res: Parameters<typeof clientOf>[0]): Profile {
  const id = String(req.params.profile_id);
  const profile = isUuid(id) ? getProfile(ctx.db, clientOf(res).id, id.toLowerCase()) : undefined;
  if (!profile) throw profileNotFound(id);
  return profile;
}

/**
 * Waits until the profile's stored results rest on its current reference: a change whose
 * rescore has not committed (still running, or interrupted by a crash) is rescored first,
 * so results of another reference are never served.
 */
export async function awaitCurrentResults(ctx: ServiceContext, profileId: string): Promise<void> {
  for (let attempt = 0; attempt < 3 && resultsOutdated(ctx.db, profileId); attempt++) {
    const outcome = await ctx.processor.rescore(profileId);
    if (outcome.kind === 'failed')
      throw new HttpError(
        503,
        `This profile's results could not be scored again for its changed reference population or sex (${outcome.reason}). Try again; if it persists, upload the file again.`,
      );
  }
  if (resultsOutdated(ctx.db, profileId))
    throw new HttpError(
      503,
      "This profile's results are being scored again for its changed reference population or sex. Try again in a moment.",
    );
}

export function profileRoutes(ctx: ServiceContext): Router {
  const { router, on } = operationRouter(ctx, '/api');

  on('createProfile', (req, res) => {
    const input = parseBody(ProfileInput, req.body, 405, 'profile input');
    const created = createProfile(ctx.db, clientOf(res).id, input);
    res.status(201).location(`/api/profiles/${created.id}/`).json(created);
  });

  on('listProfiles', (_req, res) => {
    res.type('application/json').send(listProfilesJson(ctx.db, clientOf(res).id));
  });

  on('getProfile', (req, res) => {
    res.json(requireProfile(ctx, req, res));
  });

  for (const [id, mode] of [
    ['replaceProfile', 'replace'],
    ['updateProfile', 'merge'],
  ] as const) {
    on(id, async (req, res) => {
      const profile = requireProfile(ctx, req, res);
      const input = parseBody(ProfileInput, req.body, 405, 'profile input');
      const updated = updateProfile(ctx.db, clientOf(res).id, profile.id, input, mode)!;
      // Results depend on the population the ethnicity selects, and on sex: every stored
      // result is scored again, in the worker pool, before the answer.
      if (scoringInputsDiffer(profile, updated)) await ctx.processor.rescore(profile.id);
      res.json(updated);
    });
  }

  on('deleteProfile', async (req, res) => {
    const profile = requireProfile(ctx, req, res);
    // Rows, files, and the database's leftovers (unless another program holds the database).
    const { erased, unfinished } = await eraseProfile(
      ctx.db,
      ctx.eraser,
      ctx.config.dataDir,
      clientOf(res).id,
      profile.id,
    );
    res.json({
      detail: erased
        ? `Profile ${profile.id} and all its genetic data were deleted.`
        : `Profile ${profile.id} and all its genetic data were deleted from Traitscope. ${unfinished}`,
    });
  });

  return router;
}
