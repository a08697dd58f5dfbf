/**
 * Files the desktop app opened from the operating system, in the drop flow beside the page's
 * own Files: their bytes stay on disk, the main process hashes them and stores them in the
 * service (src/main/opened-files.ts), and the page follows processing as after an upload.
 */
import type { OpenedFile } from '../../../shared/desktop-bridge.js';
import { fileMd5Base64 } from '../lib/md5.js';
import { desktopBridge } from './bridge.js';

/** What a job reads: a File of the page (a drop, the file chooser), or a file the desktop app opened. */
export type JobFile = File | OpenedFile;

export function isOpenedFile(file: JobFile): file is OpenedFile {
  return !(file instanceof Blob);
}

function bridge() {
  const b = desktopBridge();
  if (!b) throw new Error('This file was opened by the desktop app, which is not connected. Open the file again.');
  return b;
}

/** The file's MD5, base64, as the service reports stored files'. */
export function md5Of(file: JobFile): Promise<string> {
  return isOpenedFile(file) ? bridge().hashOpenedFile(file.ref) : fileMd5Base64(file);
}

/** What the cut-off-download check reads: the file itself, or an opened file's last bytes. */
export function tailOf(file: JobFile): Blob {
  return isOpenedFile(file) ? new Blob([file.tail as Uint8Array<ArrayBuffer>]) : file;
}

/** Stores an opened file as the profile's file; throws the service's reason when it is refused. */
export async function storeOpenedFile(file: OpenedFile, profileId: string): Promise<{ jobId: number | null }> {
  const result = await bridge().storeOpenedFile(file.ref, profileId);
  if (!result.stored) throw new Error(result.error);
  return { jobId: result.jobId };
}
