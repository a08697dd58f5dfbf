/**
 * The genotype a read needs: the profile's processed genotype, or a 409 that says what to do.
 * One home for the answer every genotype-reading route gives before a file has been processed.
 */
import type { Request } from 'express';
import { loadGenotype, type StoredGenotype } from '../genotype/genotype-store.js';
import type { Profile } from '../../shared/api.js';
import type { ServiceContext } from './context.js';
import { HttpError } from './errors.js';
import { requireProfile } from './routes/profiles.js';

export const NO_GENOTYPE_YET =
  'This profile has no processed genotype yet. Upload a file and wait for processing to finish.';

/** The stored genotype of a profile the caller may read, or a 409 when none is processed yet. */
export function requireGenotype(ctx: ServiceContext, profileId: string): StoredGenotype {
  const stored = loadGenotype(ctx.db, profileId);
  if (!stored) throw new HttpError(409, NO_GENOTYPE_YET);
  return stored;
}

/** The request's profile (404 when the caller has none by that id) and its stored genotype (409 when none yet). */
export function requireProfileGenotype(
  ctx: ServiceContext,
  req: Request,
  res: Parameters<typeof requireProfile>[2],
): { profile: Profile; stored: StoredGenotype } {
  const profile = requireProfile(ctx, req, res);
  return { profile, stored: requireGenotype(ctx, profile.id) };
}
