/** /api/traits/ (the client's trait list) and /api/profiles/{id}/traits/ (statuses and assessments). */
import type { Request, Router } from 'express';
import { ComputeRequest } from '../../../shared/api.js';
import { clientHasTrait, clientTraits } from '../../traits/client-traits.js';
import { UNKNOWN_CODES_HEADER } from '../../../shared/routes/index.js';
import type { Client } from '../../auth/clients.js';
import type { ScienceEngine } from '../../science/types.js';
import {
  clientTraitListText,
  computeProfileTrait,
  computeProfileTraits,
  getProfileTrait,
  profileTraitsBody,
  profileTraitsTag,
  traitJson,
  TraitConflictError,
  UnknownTraitError,
  type ListView,
  type TraitsContext,
} from '../../traits/profile-traits.js';
import { clientOf } from '../auth.js';
import type { ServiceContext } from '../context.js';
import { HttpError } from '../errors.js';
import { ifNoneMatch, sendTaggedJson, tagJson, type TaggedJson } from '../etag.js';
import { operationRouter } from '../router.js';
import { awaitCurrentResults, requireProfile } from './profiles.js';

async function translate<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof UnknownTraitError) throw new HttpError(404, err.message);
    if (err instanceof TraitConflictError) throw new HttpError(409, err.message);
    throw err;
  }
}

/** A single-valued query parameter, or undefined; a repeated one is a 400. */
function queryValue(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new HttpError(400, `Give the query parameter ${name} once.`);
  return value;
}

function oneOf<const T extends string>(req: Request, name: string, allowed: readonly T[]): T | undefined {
  const value = queryValue(req, name);
  if (value === undefined || value === '') return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new HttpError(400, `${name} must be one of ${allowed.join(', ')} (got "${value}").`);
  return value as T;
}

/**
 * The whole GET /api/traits/ (no filter) per engine, client configuration and view, as bytes
 * with their tag: the UI and tools read this catalog of ~2,000 traits, and building, hashing
 * and encoding its 3 MB took ~60 ms of the event loop per request. It changes only with the
 * engine (imported traits) or the client's configuration, both in the key.
 */
const wholeLists = new WeakMap<ScienceEngine, Map<string, TaggedJson>>();
/** Lists kept per engine (up to 3 MB each): a few clients' two views, the oldest dropped first. */
const WHOLE_LISTS_KEPT = 8;

function wholeClientTraitList(engine: ScienceEngine, client: Client, view: ListView): TaggedJson {
  let lists = wholeLists.get(engine);
  if (!lists) wholeLists.set(engine, (lists = new Map<string, TaggedJson>()));
  const key = `${view}\n${JSON.stringify(client.freeTraits)}\n${client.traitCodes?.join(',') ?? '*'}`;
  let list = lists.get(key);
  if (!list) {
    if (lists.size >= WHOLE_LISTS_KEPT) lists.delete(lists.keys().next().value!);
    lists.set(key, (list = tagJson(clientTraitListText(engine, clientTraits(client, engine), view))));
  }
  return list;
}

export function traitRoutes(ctx: ServiceContext): Router {
  const { router, on } = operationRouter(ctx, '/api');
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
  const isCompact = (req: Request) => oneOf(req, 'view', ['full', 'compact']) === 'compact';

  on('listClientTraits', (req, res) => {
    const q = queryValue(req, 'q')?.toLowerCase() ?? '';
    const featured = oneOf(req, 'featured', ['true', 'false']);
    const type = oneOf(req, 'type', ['free', 'basic']);
    const category = queryValue(req, 'category')?.toLowerCase();
    const view = isCompact(req) ? 'compact' : 'full';
    const client = clientOf(res);
    const engine = ctx.engine;
    if (!q && featured === undefined && type === undefined && !category)
      return sendTaggedJson(req, res, wholeClientTraitList(engine, client, view));
    const list = clientTraits(client, engine).filter(
      ({ trait, type: pricing }) =>
        (!q || trait.code.toLowerCase().includes(q) || trait.name.toLowerCase().includes(q)) &&
        (featured === undefined || trait.featured === (featured === 'true')) &&
        (type === undefined || pricing === type) &&
        (!category || trait.category.toLowerCase() === category),
    );
    sendTaggedJson(req, res, tagJson(clientTraitListText(engine, list, view)));
  });

  on('getClientTrait', (req, res) => {
    const code = String(req.params.trait_code);
    const entry = clientTraits(clientOf(res), ctx.engine).find(({ trait }) => trait.code === code);
    if (!entry)
      throw new HttpError(
        404,
        `There is no trait "${code}" for this client. GET /api/traits/ lists the trait codes you can use.`,
      );
    res.json({ trait: traitJson(entry.trait), type: entry.type });
  });

  on('listProfileTraits', async (req, res) => {
    const profile = requireProfile(ctx, req, res);
    await awaitCurrentResults(ctx, profile.id);
    const scored = req.query.score !== undefined;
    const view = isCompact(req) ? 'compact' : 'full';
    // Stored results with an entity tag: an unchanged list answers 304 without being built.
    const tag = profileTraitsTag(traits, clientOf(res), profile.id, profile, scored, view);
    res.set('ETag', tag);
    if (ifNoneMatch(req.headers['if-none-match'], tag)) return void res.status(304).end();
    res.type('application/json').send(profileTraitsBody(traits, clientOf(res), profile.id, profile, scored, view, tag));
  });

  on('computeTraits', async (req, res) => {
    const profile = requireProfile(ctx, req, res);
    await awaitCurrentResults(ctx, profile.id);
    const brief = isCompact(req);
    const parsed = ComputeRequest.safeParse(req.body);
    if (!parsed.success) {
      throw new HttpError(
        400,
        'The body must be a JSON array of trait codes, or {"trait_codes": [...]}, e.g. ["height"].',
      );
    }
    const codes = Array.isArray(parsed.data) ? parsed.data : parsed.data.trait_codes;
    // Codes the client has no trait for are named, not silently dropped: in a header (the
    // body stays the interface's array), and as a 400 when no code at all is known.
    const unknown = [...new Set(codes)].filter((code) => !clientHasTrait(clientOf(res), ctx.engine, code));
    if (unknown.length > 0) {
      const named =
        unknown
          .slice(0, 20)
          .map((c) => `"${c}"`)
          .join(', ') + (unknown.length > 20 ? ', …' : '');
      if (unknown.length === new Set(codes).size)
        throw new HttpError(
          400,
          `None of the trait codes is known to this client (${named}). GET /api/traits/ lists the trait codes you can use.`,
          { [UNKNOWN_CODES_HEADER]: unknown.map(encodeURIComponent).join(',') },
        );
      res.set(UNKNOWN_CODES_HEADER, unknown.map(encodeURIComponent).join(','));
    }
    res
      .type('application/json')
      .send(await computeProfileTraits(traits, clientOf(res), profile.id, codes, brief ? 'compact' : 'full'));
  });

  on('getTraitAssessment', async (req, res) => {
    const profile = requireProfile(ctx, req, res);
    await awaitCurrentResults(ctx, profile.id);
    res.json(
      await translate(() => getProfileTrait(traits, clientOf(res), profile.id, profile, String(req.params.trait_code))),
    );
  });

  on('computeTrait', async (req, res) => {
    const profile = requireProfile(ctx, req, res);
    await awaitCurrentResults(ctx, profile.id);
    res.json(
      await translate(() =>
        computeProfileTrait(traits, clientOf(res), profile.id, profile, String(req.params.trait_code)),
      ),
    );
  });

  return router;
}
