/**
 * Files the operating system handed the app, kept by the main process: the page gets a handle
 * (`ref`), the name, the size and the last bytes, never the contents. Storing one goes straight
 * from disk into the service the main process hosts (RunningService.ingestFile), which
 * streams it into its file store with an upload's checks: no copy of the file crosses to the
 * page and back. Only files opened here can be stored, so the page cannot name a path.
 * No Electron here: test/desktop/open-with.test.ts drives it.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { OPENED_FILE_TAIL_BYTES, type OpenedFile, type StoreOpenedFileResult } from '../shared/desktop-bridge.js';
import { formatBytes } from '../shared/format-bytes.js';
import { TOO_LARGE_ADVICE } from '../shared/genotype-files.js';

/** What the hosted service offers for a file on disk (RunningService.ingestFile). */
export type IngestFile = (filePath: string, profileId: string) => Promise<{ jobId: number | null }>;

export interface OpenedFiles {
  /** Looks at the files (a file, within the upload limit) and gives the page a handle to each; the others, why not. */
  describe: (paths: string[], maxUploadBytes: number) => Promise<{ files: OpenedFile[]; problems: string[] }>;
  /** The file's MD5, base64, read from disk in a stream. */
  md5: (ref: string) => Promise<string>;
  /** Stores the file as the profile's file through the service; refusals come back as a sentence. */
  store: (ref: string, profileId: string, ingest: IngestFile) => Promise<StoreOpenedFileResult>;
}

const NOT_OPENED = 'This file was not opened in Traitscope in this session. Open it again.';

async function lastBytes(file: string, size: number): Promise<Uint8Array> {
  const length = Math.min(size, OPENED_FILE_TAIL_BYTES);
  const fh = await open(file, 'r');
  try {
    const tail = new Uint8Array(length);
    await fh.read(tail, 0, length, size - length);
    return tail;
  } finally {
    await fh.close();
  }
}

export function openedFiles(): OpenedFiles {
  // Handles live as long as the app: a failed store can be retried from the page.
  const paths = new Map<string, string>();
  return {
    async describe(list, maxUploadBytes) {
      const files: OpenedFile[] = [];
      const problems: string[] = [];
      for (const p of list) {
        const name = path.basename(p);
        try {
          const info = await stat(p);
          if (!info.isFile()) throw new Error('it is not a file');
          // The service would refuse it: said now, before a profile is made for it.
          if (info.size > maxUploadBytes)
            throw new Error(
              `it is larger than the ${formatBytes(maxUploadBytes)} upload limit; open the raw data file itself, or a zip/gzip of it. ${TOO_LARGE_ADVICE}`,
            );
          const ref = randomUUID();
          files.push({ ref, name, size: info.size, tail: await lastBytes(p, info.size) });
          paths.set(ref, p);
        } catch (err) {
          problems.push(`${name}: ${(err as Error).message}`);
        }
      }
      return { files, problems };
    },

    async md5(ref) {
      const file = paths.get(ref);
      if (!file) throw new Error(NOT_OPENED);
      const hash = createHash('md5');
      await pipeline(createReadStream(file), hash);
      return hash.digest('base64');
    },

    async store(ref, profileId, ingest) {
      const file = paths.get(ref);
      if (!file) return { stored: false, error: NOT_OPENED };
      try {
        const { jobId } = await ingest(file, profileId);
        return { stored: true, jobId };
      } catch (err) {
        // The service's refusals say what was wrong and what to do (local-ingest.ts, a full queue).
        return { stored: false, error: (err as Error).message };
      }
    },
  };
}
