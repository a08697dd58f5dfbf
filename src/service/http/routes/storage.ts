/**
 * {upload_url}: the storage side of the upload flow. PUT only, no Authorization: the signed
 * URL is the credential. A complete upload replaces the profile's file and starts
 * processing; anything else leaves stored data as it was.
 */
import type { Router } from 'express';
import { profileOwner } from '../../profiles/profiles.js';
import { recordUpload } from '../../genotype/genotype-store.js';
import { receiveUpload, removeStoredFile, UploadTooLargeError, formatBytes } from '../../storage/file-store.js';
import { checkUploadUrl } from '../../storage/upload-url.js';
import { QueueFullError } from '../../processing/processor.js';
import type { ServiceContext } from '../context.js';
import { HttpError } from '../errors.js';
import { operationRouter } from '../router.js';

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

export function storageRoutes(ctx: ServiceContext): Router {
  const { router, on } = operationRouter(ctx, '');

  on('uploadGenotypeFile', async (req, res) => {
    const profileId = String(req.params.profile_id).toLowerCase();
    const check = checkUploadUrl(ctx.uploadKey, profileId, req.query as Record<string, unknown>, Math.floor(Date.now() / 1000));
    if (!check.ok) throw new HttpError(403, check.reason);
    const sent = mediaType(req.headers['content-type']);
    if (sent !== check.grant.contentType) {
      throw new HttpError(
        403,
        `This upload URL was issued for Content-Type "${check.grant.contentType}" but the request has "${sent || '(none)'}". Send the header Content-Type: ${check.grant.contentType}, or request a URL for your content type.`,
      );
    }
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > ctx.config.maxUploadBytes) {
      throw new HttpError(413, `The file (${formatBytes(declared)}) is larger than the ${formatBytes(ctx.config.maxUploadBytes)} upload limit.`);
    }
    if (!profileOwner(ctx.db, profileId)) {
      throw new HttpError(404, 'The profile of this upload URL no longer exists.');
    }
    // Refused before the body is read: a full queue would only keep the file waiting.
    if (ctx.processor.isFull()) throw new QueueFullError(ctx.processor.retryAfterSeconds());
    let stored;
    try {
      stored = await receiveUpload(ctx.config.dataDir, profileId, req, ctx.config.maxUploadBytes);
    } catch (err) {
      if (err instanceof UploadTooLargeError) {
        res.set('Connection', 'close');
        throw new HttpError(413, err.message);
      }
      throw new HttpError(400, `The upload did not complete (${(err as Error).message}). Nothing was changed; try again.`);
    }
    if (stored.size === 0) {
      await removeStoredFile(ctx.config.dataDir, stored.fileName);
      throw new HttpError(400, 'The upload was empty. Send the genotype file as the request body.');
    }
    let previous: string | undefined;
    try {
      previous = recordUpload(ctx.db, profileId, { ...stored, contentType: check.grant.contentType });
    } catch (err) {
      // The profile was deleted during the transfer (foreign key): drop the file.
      await removeStoredFile(ctx.config.dataDir, stored.fileName);
      if (!profileOwner(ctx.db, profileId)) throw new HttpError(404, 'The profile of this upload URL was deleted during the upload.');
      throw err;
    }
    if (previous && previous !== stored.fileName) await removeStoredFile(ctx.config.dataDir, previous).catch(() => undefined);
    void ctx.processor.process(profileId);
    res.json({ detail: `Received ${stored.size} bytes; processing has started.`, size: String(stored.size), md5_hash: stored.md5, crc32c: stored.crc32c });
  });

  router.all('/storage/genotypes/:profile_id', (_req, res) => {
    res.set('Allow', 'PUT');
    throw new HttpError(405, 'Upload the file with PUT (not POST) to this URL, with the Content-Type it was issued for.', { Allow: 'PUT' });
  });

  router.use('/storage', (_req, _res, next) => next(new HttpError(404, 'No such storage object. Request an upload URL from the API.')));
  return router;
}
