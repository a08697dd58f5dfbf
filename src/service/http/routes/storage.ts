/**
 * {upload_url}: the storage side of the upload flow. PUT only, no Authorization: the signed
 * URL is the credential, and it stops working when its profile is deleted or the client
 * that owns the profile is revoked. A complete upload is written to disk (fsynced) before
 * it is acknowledged, replaces the profile's file and starts processing; anything else —
 * a refused, broken, stalled or oversized transfer — leaves stored data as it was.
 * Concurrent uploads are capped in all and per profile (429).
 */
import type { Router } from 'express';
import { getClient } from '../../auth/clients.js';
import { profileOwner } from '../../profiles/profiles.js';
import { formatBytes } from '../../../shared/format-bytes.js';
import { TOO_LARGE_ADVICE } from '../../../shared/genotype-files.js';
import { newUploadFileName, UploadTooLargeError, type StoredUpload } from '../../storage/file-store.js';
import {
  EmptyFileError,
  ProfileDeletedError,
  storeProfileFile,
  TransferIncompleteError,
} from '../../storage/profile-file.js';
import { checkUploadUrl } from '../../storage/upload-url.js';
import type { ServiceContext } from '../context.js';
import { HttpError } from '../errors.js';
import { operationRouter } from '../router.js';

function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}

/** Counts uploads in progress, in all and per profile. */
function uploadSlots(maxTotal: number, maxPerProfile: number) {
  const perProfile = new Map<string, number>();
  let total = 0;
  return {
    take(profileId: string): boolean {
      const mine = perProfile.get(profileId) ?? 0;
      if (total >= maxTotal || mine >= maxPerProfile) return false;
      total++;
      perProfile.set(profileId, mine + 1);
      return true;
    },
    give(profileId: string): void {
      total--;
      const left = (perProfile.get(profileId) ?? 1) - 1;
      if (left === 0) perProfile.delete(profileId);
      else perProfile.set(profileId, left);
    },
  };
}

export function storageRoutes(ctx: ServiceContext): Router {
  const { router, on } = operationRouter(ctx, '');
  const slots = uploadSlots(ctx.config.maxConcurrentUploads, ctx.config.maxConcurrentUploadsPerProfile);

  on('uploadGenotypeFile', async (req, res) => {
    const profileId = String(req.params.profile_id);
    const check = checkUploadUrl(ctx.uploadKey, profileId, req.query, Math.floor(Date.now() / 1000));
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
      throw new HttpError(
        413,
        `The file (${formatBytes(declared)}) is larger than the ${formatBytes(ctx.config.maxUploadBytes)} upload limit. ${TOO_LARGE_ADVICE}`,
      );
    }
    const owner = profileOwner(ctx.db, profileId);
    if (!owner) throw new HttpError(404, 'The profile of this upload URL no longer exists.');
    if (getClient(ctx.db, owner.clientId)?.revokedAt) {
      throw new HttpError(
        403,
        'This upload URL belongs to an API client whose access was revoked; it no longer works.',
      );
    }
    // Refused before the body is read: a full queue would only keep the file waiting. The
    // place is held until the answer is sent (the job is queued before it), so uploads
    // arriving together cannot all pass the check and overfill the queue.
    res.once('close', ctx.processor.admit());
    if (!slots.take(profileId)) {
      throw new HttpError(
        429,
        `Too many uploads are in progress (at most ${ctx.config.maxConcurrentUploadsPerProfile} per profile and ${ctx.config.maxConcurrentUploads} in all). Wait for them to finish, then upload again.`,
        { 'Retry-After': '5' },
      );
    }
    // A broken transfer frees its slot once its connection is gone, before its partial file
    // is removed: a client that saw the connection close may upload again at once.
    let slotHeld = true;
    const freeSlot = () => {
      if (slotHeld) slots.give(profileId);
      slotHeld = false;
    };
    req.once('close', () => {
      if (!req.complete) freeSlot();
    });
    const contentType = check.grant.contentType;
    const fileName = newUploadFileName(profileId);
    // With a declared length, processing parses the file while it arrives (when a worker is
    // free); every way out of this handler ends that feed, so the job stores only a recorded file.
    const feed = Number.isFinite(declared) ? ctx.processor.receive(profileId, fileName, declared) : null;
    let stored: StoredUpload | undefined;
    try {
      stored = await receiveAndRecord(fileName, feed?.written);
    } finally {
      freeSlot();
      if (stored) feed?.recorded();
      else feed?.abandoned();
    }
    // Joins the job that parsed the file as it arrived, or starts one.
    void ctx.processor.process(profileId);
    res.json({
      detail: `Received ${stored.size} bytes; processing has started.`,
      size: String(stored.size),
      md5_hash: stored.md5,
      crc32c: stored.crc32c,
    });

    /** Writes the body to `fileName` and records it as the profile's file; throws (and keeps nothing) otherwise. */
    async function receiveAndRecord(fileName: string, onWritten?: (bytes: number) => void): Promise<StoredUpload> {
      try {
        return await storeProfileFile(ctx, profileId, fileName, req, contentType, onWritten);
      } catch (err) {
        if (err instanceof UploadTooLargeError) {
          res.set('Connection', 'close');
          throw new HttpError(413, err.message);
        }
        if (err instanceof TransferIncompleteError)
          throw new HttpError(400, `The upload did not complete (${err.message}). Nothing was changed; try again.`);
        if (err instanceof EmptyFileError)
          throw new HttpError(400, 'The upload was empty. Send the genotype file as the request body.');
        if (err instanceof ProfileDeletedError)
          throw new HttpError(404, 'The profile of this upload URL was deleted during the upload.');
        throw err;
      }
    }
  });

  router.all('/storage/genotypes/:profile_id', (req) => {
    throw new HttpError(
      405,
      `${req.method} is not allowed here: upload the file with PUT to this URL, with the Content-Type it was issued for.`,
      { Allow: 'PUT' },
    );
  });

  router.use('/storage', (_req, _res, next) =>
    next(new HttpError(404, 'No such storage object. Request an upload URL from the API.')),
  );
  return router;
}
