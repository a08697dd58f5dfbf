/**
 * A genotype file on this machine's disk, stored as a profile's file by the process that hosts
 * the service: the desktop app's "Open with", a file dropped on its dock icon or launcher, and
 * File › Open. The file is streamed from disk into the file store (never read whole into
 * memory) and then goes exactly where an upload goes: the same size limit, the same queue,
 * parsing while it is copied, the same processing and its plausibility checks (a file that
 * does not look like one person's genome is refused as a first file and waits for a
 * confirmation as a replacement). The page learns the processing job from the events stream,
 * as after an upload.
 *
 * Only the hosting process calls this, with a path the person chose in the operating system;
 * no HTTP route takes a path, so no client can make the service read a file of its choosing.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { formatBytes } from '../../shared/format-bytes.js';
import { TOO_LARGE_ADVICE, uploadContentType } from '../../shared/genotype-files.js';
import type { ServiceContext } from '../http/context.js';
import { profileOwner } from '../profiles/profiles.js';
import { newUploadFileName, UploadTooLargeError } from './file-store.js';
import { EmptyFileError, ProfileDeletedError, storeProfileFile, TransferIncompleteError } from './profile-file.js';

/** A local file could not be stored; the message says what was wrong and what to do. Nothing was changed. */
export class LocalFileError extends Error {}

export interface StoredLocalFile {
  size: number;
  /** Base64 digests, as an upload's answer gives them. */
  md5: string;
  crc32c: string;
  /**
   * The processing job of the file (its `job_id` in the events stream), or null when it had
   * already ended by the time this returned; the profile's genotype then has the outcome.
   */
  jobId: number | null;
}

/**
 * Stores the file at `filePath` as the profile's file and starts processing it, as a completed
 * upload does. Resolves once the file is on disk (fsynced) and recorded; processing goes on.
 * Throws LocalFileError, or QueueFullError (processor.ts) when the queue is full.
 */
export async function ingestLocalFile(
  ctx: ServiceContext,
  filePath: string,
  profileId: string,
): Promise<StoredLocalFile> {
  const name = path.basename(filePath);
  if (!profileOwner(ctx.db, profileId))
    throw new LocalFileError(`The profile for ${name} no longer exists. Open the file again to make a new profile.`);
  let size: number;
  try {
    const info = await stat(filePath);
    if (!info.isFile()) throw new LocalFileError(`${name} is not a file. Open the DNA raw-data file itself.`);
    size = info.size;
  } catch (err) {
    if (err instanceof LocalFileError) throw err;
    throw new LocalFileError(
      `${name} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). Check that the file exists and that you may read it.`,
      { cause: err },
    );
  }
  const limit = ctx.config.maxUploadBytes;
  if (size > limit)
    throw new LocalFileError(
      `${name} (${formatBytes(size)}) is larger than the ${formatBytes(limit)} upload limit. Open the raw data file itself, or a zip/gzip of it. ${TOO_LARGE_ADVICE}`,
    );
  if (size === 0) throw new LocalFileError(`${name} is empty. Download your raw data again and open the new file.`);

  // A place in the queue, held until the job is queued, as an upload holds it (throws when full).
  const release = ctx.processor.admit();
  try {
    const fileName = newUploadFileName(profileId);
    // Parsed while it is copied when a worker is free; every way out ends the feed.
    const feed = ctx.processor.receive(profileId, fileName, size);
    let stored: Awaited<ReturnType<typeof storeProfileFile>> | undefined;
    try {
      stored = await storeProfileFile(
        ctx,
        profileId,
        fileName,
        createReadStream(filePath),
        uploadContentType(name),
        feed?.written,
      );
    } catch (err) {
      throw asLocalFileError(err, name, limit);
    } finally {
      if (stored) feed?.recorded();
      else feed?.abandoned();
    }
    // Joins the job that parsed the file as it was copied, or starts one.
    void ctx.processor.process(profileId);
    const job = ctx.processor.activeJobs().find((j) => j.data.profile_id === profileId && j.data.kind === 'processing');
    return { size: stored.size, md5: stored.md5, crc32c: stored.crc32c, jobId: job?.data.job_id ?? null };
  } finally {
    release();
  }
}

function asLocalFileError(err: unknown, name: string, limit: number): unknown {
  if (err instanceof UploadTooLargeError)
    // It grew past the limit while it was copied (still being downloaded?).
    return new LocalFileError(
      `${name} grew larger than the ${formatBytes(limit)} upload limit while Traitscope read it. Wait until its download has finished, then open it again.`,
      { cause: err },
    );
  if (err instanceof TransferIncompleteError)
    return new LocalFileError(
      `${name} could not be read to the end (${err.message}). Nothing was changed; check that the file is still there and open it again.`,
      { cause: err },
    );
  if (err instanceof EmptyFileError)
    return new LocalFileError(`${name} is empty. Download your raw data again and open the new file.`, { cause: err });
  if (err instanceof ProfileDeletedError)
    return new LocalFileError(`The profile for ${name} was deleted while the file was read. Nothing was kept.`, {
      cause: err,
    });
  return err;
}
