/**
 * Entry of the digest thread (upload-digests.ts): the MD5 and CRC32C of uploads, read back
 * from their files as the service writes them. Hashing on the event loop cost ~50 ms of it
 * per 24 MiB file, in bursts of up to 20 ms while four files arrived at once.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { createHash, type Hash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { crc32c } from '@node-rs/crc32';
import { lowerThisThreadsPriority } from '../processing/thread-priority.js';
import type { DigestReply, DigestRequest, DigestWorkerData } from './upload-digests.js';

interface Follow {
  fd: number;
  /** Bytes hashed so far: the file's first `done` bytes. */
  done: number;
  md5: Hash;
  crc: number;
}

// Background work, like the engine workers': the event loop comes first.
lowerThisThreadsPriority((workerData as DigestWorkerData).nice);

const BLOCK = 1 << 20;
const block = Buffer.allocUnsafe(BLOCK);
const follows = new Map<number, Follow>();
const port = parentPort!;

/** Hashes the file's bytes from where it stopped up to `end`. */
function hashUpTo(f: Follow, end: number): void {
  while (f.done < end) {
    const n = readSync(f.fd, block, 0, Math.min(BLOCK, end - f.done), f.done);
    if (n === 0) throw new Error(`the file ends at ${f.done} bytes, before ${end}`);
    const bytes = block.subarray(0, n);
    f.md5.update(bytes);
    f.crc = crc32c(bytes, f.crc);
    f.done += n;
  }
}

function drop(id: number): void {
  const f = follows.get(id);
  follows.delete(id);
  if (f) closeSync(f.fd);
}

port.on('message', (m: DigestRequest) => {
  try {
    if (m.type === 'cancel') return drop(m.id);
    let f = follows.get(m.id);
    if (!f) {
      f = { fd: openSync(m.path, 'r'), done: 0, md5: createHash('md5'), crc: 0 };
      follows.set(m.id, f);
    }
    hashUpTo(f, m.bytes);
    if (m.type === 'written') return;
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(f.crc >>> 0);
    const reply: DigestReply = { id: m.id, md5: f.md5.digest('base64'), crc32c: crc.toString('base64') };
    drop(m.id);
    port.postMessage(reply);
  } catch (err) {
    drop(m.id);
    port.postMessage({ id: m.id, error: (err as Error).message } satisfies DigestReply);
  }
});
