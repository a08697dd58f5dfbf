/** /api/traits/ (the client's trait list) and /api/profiles/{id}/traits/ (statuses and assessments). */
import { Router } from 'express';
import { ComputeRequest } from '../../../shared/api.js';
import { clientTraits } from '../../traits/client-traits.js';
import {
  computeProfileTrait,
  computeProfileTraits,
  getProfileTrait,
  listProfileTraits,
  profileTraitsTag,
  traitJson,
  TraitConflictError,
  UnknownTraitError,
  type TraitsContext,
} from '../../traits/profile-traits.js';
import { clientOf } from '../auth.js';
import type { ServiceContext } from '../context.js';
import { HttpError } from '../errors.js';
import { requireProfile } from './profiles.js';

/** If-None-Match holds the tag (or `*`): a comma-separated list, weak tags compared weakly. */
function ifNoneMatch(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  return header.split(',').some((t) => {
    const candidate = t.trim();
    return candidate === '*' || candidate.replace(/^W\//, '') === tag;
  });
}

function translate<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof UnknownTraitError) throw new HttpError(404, err.message);
    if (err instanceof TraitConflictError) throw new HttpError(409, err.message);
    throw err;
  }
}

export function traitRoutes(ctx: ServiceContext): Router {
  const router = Router();
  const traits: TraitsContext = {
    db: ctx.db,
    get engine() {
      return ctx.engine;
    },
    scoreMissing: async (id, codes) => {
      const outcome = await ctx.processor.score(id, codes);
      if (outcome.kind === 'failed') throw new Error(outcome.reason);
    },
  };

  router.get('/traits', (req, res) => {
    const q = typeof req.query.q === 'string' ? req.query.q.toLowerCase() : '';
    const list = clientTraits(clientOf(res), ctx.engine).filter(
      ({ trait }) => !q || trait.code.toLowerCase().includes(q) || trait.name.toLowerCase().includes(q),
    );
    res.json(list.map(({ trait, type }) => ({ trait: traitJson(trait), type })));
  });

  router.get('/profiles/:profile_id/traits', (req, res) => {
    const profile = requireProfile(ctx, req, res);
    const scored = req.query.score !== undefined;
    // Stored results with an entity tag: an unchanged list answers 304 without being built.
    const tag = profileTraitsTag(traits, clientOf(res), profile.id, profile, scored);
    res.set('ETag', tag);
    if (ifNoneMatch(req.headers['if-none-match'], tag)) return void res.status(304).end();
    res.type('application/json').send(listProfileTraits(traits, clientOf(res), profile.id, profile, scored));
  });

  router.post('/profiles/:profile_id/traits', async (req, res) => {
    const profile = requireProfile(ctx, req, res);
    const parsed = ComputeRequest.safeParse(req.body);
    if (!parsed.success) {
      throw new HttpError(400, 'The body must be a JSON array of trait codes, or {"trait_codes": [...]}, e.g. ["eye_colour"].');
    }
    const codes = Array.isArray(parsed.data) ? parsed.data : parsed.data.trait_codes;
    res.type('application/json').send(await computeProfileTraits(traits, clientOf(res), profile.id, codes));
  });

  router.get('/profiles/:profile_id/traits/:trait_code', (req, res) => {
    const profile = requireProfile(ctx, req, res);
    res.json(translate(() => getProfileTrait(traits, clientOf(res), profile.id, profile, String(req.params.trait_code))));
  });

  router.put('/profiles/:profile_id/traits/:trait_code', (req, res) => {
    const profile = requireProfile(ctx, req, res);
    res.json(translate(() => computeProfileTrait(traits, clientOf(res), profile.id, profile, String(req.params.trait_code))));
  });

  return router;
}
