/**
 * The MD5 and CRC32C of each upload, computed off the event loop: a thread of its own
 * (digest-worker.ts) reads the file back as it is written (from the page cache) and hashes
 * it, so the digests are ready as soon as the last bytes are on the file, while the service
 * flushes it to disk. One thread serves every upload; it is started on the first upload it
 * is needed for and replaced if it ever fails (the uploads it was hashing then fail with the
 * reason).
 *
 * An upload that ends before it was ever told of as growing, within INLINE_BYTES, is hashed
 * on the event loop instead (about 2 ms for 1 MiB): starting the thread costs a new V8
 * isolate and Node environment, some 70 ms of CPU, for a file hashed in a fraction of that.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { crc32c } from '@node-rs/crc32';
import { unpackedModuleUrl } from '../packaged-paths.js';

/** To the digest thread: the file has `bytes` written so far, all of it (`end`), or forget it. */
export type DigestRequest =
  | { type: 'written'; id: number; path: string; bytes: number }
  | { type: 'end'; id: number; path: string; bytes: number }
  | { type: 'cancel'; id: number };

export type DigestReply = { id: number; md5: string; crc32c: string } | { id: number; error: string };

export interface DigestWorkerData {
  /** The thread's nice value (processing/thread-priority.ts). */
  nice: number;
}

export interface FileDigests {
  /** Base64, as cloud object stores report them. */
  md5: string;
  crc32c: string;
}

/** One file being followed: tell it how far the file is written, then that it is complete. */
export interface FollowedFile {
  written: (bytes: number) => void;
  /** The digests of the file's `size` bytes. */
  end: (size: number) => Promise<FileDigests>;
  /** The file is abandoned: stop following it (no answer comes). */
  cancel: () => void;
}

export interface UploadDigester {
  follow: (path: string) => FollowedFile;
  close: () => Promise<void>;
}

// The bundle's digest-worker.js beside this code (unpacked from app.asar in the desktop app);
// from TypeScript source, the development bootstrap outside the shipped sources.
const WORKER_URL = unpackedModuleUrl(
  import.meta.url.endsWith('.ts') ? '../../../scripts/dev/digest-worker.mjs' : './digest-worker.js',
  import.meta.url,
);

/** Why an upload's digests are missing, as the upload's error ends up saying it. */
const digestsFailed = (why: string): Error => new Error(`its checksums could not be computed: ${why}`);

/** The largest upload hashed on the event loop rather than by the thread. */
export const INLINE_BYTES = 1 << 20;

/** The digests of a file's first `size` bytes (at most INLINE_BYTES), read and hashed here. */
async function digestsHere(path: string, size: number): Promise<FileDigests> {
  const bytes = Buffer.allocUnsafe(size);
  let done = 0;
  try {
    const fh = await open(path, 'r');
    try {
      while (done < size) {
        const { bytesRead } = await fh.read(bytes, done, size - done, done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
    } finally {
      await fh.close();
    }
  } catch (err) {
    throw digestsFailed((err as Error).message);
  }
  if (done < size) throw digestsFailed(`the file ends at ${done} bytes, before ${size}`);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32c(bytes) >>> 0);
  return { md5: createHash('md5').update(bytes).digest('base64'), crc32c: crc.toString('base64') };
}

export function createUploadDigester(workerData: DigestWorkerData): UploadDigester {
  let worker: Worker | null = null;
  let nextId = 1;
  const waiting = new Map<number, { resolve: (d: FileDigests) => void; reject: (e: Error) => void }>();

  function thread(): Worker {
    if (worker) return worker;
    // A small heap: the thread holds a hash state per upload and one 1 MiB read buffer.
    const w = new Worker(WORKER_URL, {
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
    });
    w.unref(); // never what keeps the process alive
    w.on('message', (reply: DigestReply) => {
      const wait = waiting.get(reply.id);
      waiting.delete(reply.id);
      if ('error' in reply) wait?.reject(digestsFailed(reply.error));
      else wait?.resolve({ md5: reply.md5, crc32c: reply.crc32c });
    });
    const fail = (why: string) => {
      if (worker !== w) return;
      worker = null;
      for (const wait of waiting.values()) wait.reject(digestsFailed(why));
      waiting.clear();
    };
    w.on('error', (err) => fail(err.message));
    w.on('exit', (code) => fail(`the checksum thread stopped (exit code ${code})`));
    return (worker = w);
  }

  return {
    follow(path) {
      const id = nextId++;
      /** The thread following this file, from the first time it was told of as growing. */
      let w: Worker | null = null;
      return {
        written: (bytes) => {
          w ??= thread();
          w.postMessage({ type: 'written', id, path, bytes } satisfies DigestRequest);
        },
        end: (bytes) => {
          if (!w && bytes <= INLINE_BYTES) return digestsHere(path, bytes);
          const on = (w ??= thread());
          return new Promise<FileDigests>((resolve, reject) => {
            if (worker !== on) return reject(digestsFailed('the checksum thread stopped'));
            waiting.set(id, { resolve, reject });
            on.postMessage({ type: 'end', id, path, bytes } satisfies DigestRequest);
          });
        },
        cancel: () => {
          waiting.delete(id);
          if (w && worker === w) w.postMessage({ type: 'cancel', id } satisfies DigestRequest);
        },
      };
    },
    async close() {
      const w = worker;
      worker = null;
      for (const wait of waiting.values()) wait.reject(digestsFailed('the service is stopping'));
      waiting.clear();
      if (w) await w.terminate();
    },
  };
}
