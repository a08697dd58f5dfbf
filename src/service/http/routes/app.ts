/**
 * /api/app/: what the desktop UI needs beyond the spec's API, for the app's own client only
 * (scope manage:app): app facts, the API clients of third-party tools (revoking one can also
 * delete the profiles it created), and deleting all data. Deletions leave nothing
 * recoverable in the data folder (profiles/erase.ts).
 */
import type { Router } from 'express';
import { ApiClientInput, type AppInfo } from '../../../shared/api.js';
import { clientJson, createClient, getClient, listClients, revokeClient } from '../../auth/clients.js';
import { eraseAllProfiles, eraseClientProfiles } from '../../profiles/erase.js';
import { appVersion } from '../../config.js';
import { origin, type ServiceContext } from '../context.js';
import { HttpError } from '../errors.js';
import { operationRouter } from '../router.js';
import { parseBody } from '../validate.js';
import {
  CustomTraitError,
  listCustomTraits,
  removeCustomTrait,
  type CustomTraitRecord,
} from '../../traits/custom-traits.js';
import { traitJson } from '../../traits/profile-traits.js';

const version = appVersion();

export function appRoutes(ctx: ServiceContext): Router {
  const { router, on } = operationRouter(ctx, '/api');

  on('getAppInfo', (_req, res) => {
    const info: AppInfo = {
      version,
      data_dir: ctx.config.dataDir,
      base_url: `${origin(ctx)}/api`,
      auth_url: origin(ctx),
      catalog: { traits: ctx.engine.traits.length, featured: ctx.engine.traits.filter((t) => t.featured).length },
    };
    res.json(info);
  });

  // ?reset starts a new measurement window (the benchmarks use it).
  on('getDiagnostics', (req, res) => {
    res.json(ctx.diagnostics.snapshot({ reset: req.query.reset !== undefined }));
  });

  on('listApiClients', (_req, res) => {
    res.json(
      listClients(ctx.db)
        .filter((c) => !c.isApp)
        .map(clientJson),
    );
  });

  on('createApiClient', async (req, res) => {
    const input = parseBody(ApiClientInput, req.body, 400, 'client');
    if (Array.isArray(input.free_traits)) {
      const unknown = input.free_traits.filter((code) => !ctx.engine.trait(code));
      if (unknown.length > 0) throw new HttpError(400, `Unknown trait code(s) in free_traits: ${unknown.join(', ')}.`);
    }
    const { client, secret } = await createClient(ctx.db, {
      name: input.name,
      scopes: input.scopes,
      freeTraits: input.free_traits,
    });
    res.status(201).json({ ...clientJson(client), client_secret: secret });
  });

  // ?delete_data=true also deletes every profile the client created (also after an earlier revoke).
  on('revokeApiClient', async (req, res) => {
    const id = String(req.params.client_id);
    const client = getClient(ctx.db, id);
    if (!client || client.isApp) throw new HttpError(404, `No API client with id "${id}".`);
    const deleteData = req.query.delete_data;
    if (deleteData !== undefined && deleteData !== 'true' && deleteData !== 'false') {
      throw new HttpError(400, `delete_data must be true or false (got ${JSON.stringify(deleteData)}).`);
    }
    const revoked = revokeClient(ctx.db, id);
    if (deleteData !== 'true') {
      if (!revoked)
        throw new HttpError(
          409,
          `The client "${client.name}" was already revoked. Add ?delete_data=true to delete the profiles it created.`,
        );
      res.json({
        detail: `Client "${client.name}" was revoked; its tokens and upload URLs no longer work. Its profiles stay stored.`,
        deleted_profiles: 0,
      });
      return;
    }
    const {
      count: deleted,
      erased,
      unfinished,
    } = await eraseClientProfiles(ctx.db, ctx.eraser, ctx.config.dataDir, id);
    res.json({
      detail: `Client "${client.name}" ${revoked ? 'was revoked; its tokens and upload URLs no longer work' : 'was already revoked'}. ${deleted} profile(s) it created were deleted with all their genetic data${erased ? '.' : ` from Traitscope. ${unfinished}`}`,
      deleted_profiles: deleted,
    });
  });

  // Custom traits from PGS Catalog scoring files.
  const customJson = (r: CustomTraitRecord) => ({
    trait: traitJson(r.trait),
    report: r.report,
    file_name: r.fileName,
    imported_at: r.importedAt,
  });
  const customError = (err: unknown) => {
    if (!(err instanceof CustomTraitError)) return err;
    return new HttpError(err.kind === 'conflict' ? 409 : err.kind === 'missing' ? 404 : 422, err.message);
  };

  on('listCustomTraits', (_req, res) => {
    res.json(listCustomTraits(ctx.db).map(customJson));
  });

  on('importCustomTrait', async (req, res) => {
    if (!Buffer.isBuffer(req.body)) {
      throw new HttpError(
        415,
        'Send the scoring file itself as the body with Content-Type: application/octet-stream (or application/gzip for .gz files).',
      );
    }
    const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
    if (req.body.length === 0)
      throw new HttpError(422, 'The scoring file is empty. Download it again from the PGS Catalog.');
    // Reading and matching the file is CPU work: it runs in the worker pool.
    const outcome = await ctx.processor.importTrait({
      bytes: req.body,
      fileName: str(req.query.file_name) ?? 'scoring file',
      name: str(req.query.name),
      code: str(req.query.code),
      profileId: str(req.query.profile_id),
    });
    if (outcome.kind === 'failed')
      throw new HttpError(500, `The scoring file could not be imported: ${outcome.reason}`);
    if (outcome.kind === 'refused') throw new HttpError(outcome.problem === 'conflict' ? 409 : 422, outcome.reason);
    res.status(201).json(customJson(outcome.record));
  });

  on('removeCustomTrait', (req, res) => {
    try {
      removeCustomTrait(ctx.db, String(req.params.trait_code));
    } catch (err) {
      throw customError(err);
    }
    res.json({ detail: `The imported trait "${String(req.params.trait_code)}" and its assessments were removed.` });
  });

  on('deleteAllData', async (_req, res) => {
    const { count: deleted, erased, unfinished } = await eraseAllProfiles(ctx.db, ctx.eraser, ctx.config.dataDir);
    res.json({
      detail: erased
        ? `Deleted ${deleted} profile(s) with all their genetic data.`
        : `Deleted ${deleted} profile(s) with all their genetic data from Traitscope. ${unfinished}`,
    });
  });

  return router;
}
