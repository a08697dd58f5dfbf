/**
 * Stores a genotype file as a profile's file: streamed into the file store (file-store.ts),
 * then recorded as the profile's latest upload. Shared by the two ways a file arrives: a PUT
 * to an upload URL (http/routes/storage.ts) and a file on disk the desktop app was asked to
 * open (local-ingest.ts). Whatever fails, stored data stays as it was and no file is left.
 */
import type { Readable } from 'node:stream';
import type { Db } from '../db/db.js';
import { getGenotypeFile, recordUpload } from '../genotype/genotype-store.js';
import { profileOwner } from '../profiles/profiles.js';
import type { ServiceConfig } from '../config.js';
import { receiveUpload, removeStoredFile, UploadTooLargeError, type StoredUpload } from './file-store.js';
import type { UploadDigester } from './upload-digests.js';

/** The bytes did not all arrive (a broken stream, an unreadable file): nothing was kept. `cause` says why. */
export class TransferIncompleteError extends Error {}
/** The file had no bytes: nothing was kept. */
export class EmptyFileError extends Error {}
/** The profile was deleted while its file arrived: the file was dropped. */
export class ProfileDeletedError extends Error {}

export interface FileStoreContext {
  config: Pick<ServiceConfig, 'dataDir' | 'maxUploadBytes'>;
  db: Db;
  digester: UploadDigester;
}

/**
 * Writes `body` to the new stored file `fileName` and records it as the profile's file.
 * Throws UploadTooLargeError, TransferIncompleteError, EmptyFileError or ProfileDeletedError
 * (each keeping nothing), or what recording failed with.
 */
export async function storeProfileFile(
  ctx: FileStoreContext,
  profileId: string,
  fileName: string,
  body: Readable,
  contentType: string,
  onWritten?: (bytes: number) => void,
): Promise<StoredUpload> {
  const { dataDir, maxUploadBytes } = ctx.config;
  let upload: StoredUpload;
  try {
    upload = await receiveUpload(dataDir, fileName, body, maxUploadBytes, ctx.digester, onWritten);
  } catch (err) {
    if (err instanceof UploadTooLargeError) throw err;
    throw new TransferIncompleteError((err as Error).message, { cause: err });
  }
  if (upload.size === 0) {
    await removeStoredFile(dataDir, upload.fileName);
    throw new EmptyFileError('The file is empty.');
  }
  let obsolete: string | undefined;
  try {
    obsolete = await recordUpload(ctx.db, profileId, { ...upload, contentType });
  } catch (err) {
    // The profile was deleted during the transfer (foreign key): drop the file. Kept if the
    // record committed and only flushing the log failed: the database refers to it.
    if (getGenotypeFile(ctx.db, profileId)?.file_name !== upload.fileName)
      await removeStoredFile(dataDir, upload.fileName);
    if (!profileOwner(ctx.db, profileId))
      throw new ProfileDeletedError('The profile was deleted while its file arrived.', { cause: err });
    throw err;
  }
  // The previous upload, unless it is the source of the genotype in use (kept until this one has parsed).
  if (obsolete) await removeStoredFile(dataDir, obsolete).catch(() => undefined);
  return upload;
}
