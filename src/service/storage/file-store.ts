/**
 * Uploaded genotype files on disk, under <dataDir>/genotypes/ (0700, files 0600). Each
 * upload is streamed to a new file while another thread computes its MD5 and CRC32C
 * (upload-digests.ts; a file of at most 1 MiB is hashed once it has arrived); only a complete upload is kept, so a broken, stalled or oversized
 * transfer never replaces the stored file. A complete upload is fsynced (file and folder)
 * before it is acknowledged.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, createWriteStream, readdirSync, rmSync } from 'node:fs';
import { open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import { formatBytes } from '../../shared/format-bytes.js';
import { TOO_LARGE_ADVICE } from '../../shared/genotype-files.js';
import { makePrivateDir } from './private-files.js';
import type { UploadDigester } from './upload-digests.js';

/**
 * Bytes an upload may hold in memory while the disk writes: the chunks that arrive meanwhile
 * go to the disk together in one write, instead of the socket pausing after every 16 KiB
 * (a 24 MiB file was received and written in 61 ms instead of 85, median of 7, quiet machine).
 */
const WRITE_BUFFER = 4 * 1024 * 1024;

export interface StoredUpload {
  fileName: string;
  size: number;
  /** Base64 digests, as cloud object stores report them. */
  md5: string;
  crc32c: string;
}

export class UploadTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(
      `The file is larger than the ${formatBytes(limit)} upload limit. Upload the raw data file itself, or a zip/gzip of it. ${TOO_LARGE_ADVICE}`,
    );
  }
}

export function genotypesDir(dataDir: string): string {
  return path.join(dataDir, 'genotypes');
}

export function storedFilePath(dataDir: string, fileName: string): string {
  return path.join(genotypesDir(dataDir), fileName);
}

/** A new, unique name for an upload of the profile (the file is created when the upload starts). */
export function newUploadFileName(profileId: string): string {
  return `${profileId}.${Date.now()}.${randomBytes(6).toString('hex')}`;
}

/** How often an upload reports its progress on disk: a message per MiB at most. */
const PROGRESS_STEP = 1 << 20;

/**
 * Bytes an upload may take in one turn of the event loop. When a socket has data waiting,
 * libuv reads up to 32 × 64 KiB of it in one go and Node copies every chunk once more: with
 * four uploads arriving at once, one turn of the loop took 40–100 ms and every request
 * behind it waited. Past this budget the upload holds its chunk until the next turn
 * (setImmediate), the stream pushes back, the socket pauses, and the rest waits in the
 * kernel until then.
 */
const TURN_BYTES = 256 * 1024;

/**
 * Streams an upload into a new file `fileName`. `onWritten` hears how many bytes are on the
 * file so far (written, not yet fsynced), at least every MiB and once all of them are, so a
 * reader can follow the file while it arrives (processing parses it as it comes in).
 */
export async function receiveUpload(
  dataDir: string,
  fileName: string,
  body: Readable,
  maxBytes: number,
  digester: UploadDigester,
  onWritten?: (bytes: number) => void,
): Promise<StoredUpload> {
  makePrivateDir(genotypesDir(dataDir));
  const target = storedFilePath(dataDir, fileName);
  let size = 0;
  let reported = 0;
  let turnBudget = TURN_BYTES;
  const sink = createWriteStream(target, { flags: 'wx', mode: 0o600, highWaterMark: WRITE_BUFFER });
  const digests = digester.follow(target);
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new UploadTooLargeError(maxBytes));
      // The sink's completed writes, checked as each chunk arrives: no timer, no extra event.
      if (sink.bytesWritten - reported >= PROGRESS_STEP) {
        reported = sink.bytesWritten;
        digests.written(reported);
        onWritten?.(reported);
      }
      turnBudget -= chunk.length;
      if (turnBudget > 0) return done(null, chunk);
      setImmediate(() => {
        turnBudget = TURN_BYTES;
        done(null, chunk);
      });
    },
  });
  try {
    await pipeline(body, counter, sink);
    onWritten?.(size);
    // The last bytes are hashed while the file is flushed.
    const [digest] = await Promise.all([digests.end(size), syncToDisk(target)]);
    return { fileName, size, ...digest };
  } catch (err) {
    digests.cancel();
    await rm(target, { force: true });
    throw err;
  }
}

/** Flushes a new file and its folder entry to the disk, so an acknowledged upload survives a power cut. */
async function syncToDisk(file: string): Promise<void> {
  const fh = await open(file, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
  if (process.platform === 'win32') return; // folders cannot be opened (and need no sync) on Windows
  const dir = await open(path.dirname(file), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

export async function removeStoredFile(dataDir: string, fileName: string): Promise<void> {
  await rm(storedFilePath(dataDir, fileName), { force: true });
}

/** The same, at once (a worker thread that must be done before it reports its outcome). */
export function removeStoredFileNow(dataDir: string, fileName: string): void {
  try {
    rmSync(storedFilePath(dataDir, fileName), { force: true });
  } catch {
    // Locked (Windows): unreferenced now, so the next start removes it.
  }
}

/** Removes every stored file (on "delete all my data"). */
export async function removeAllStoredFiles(dataDir: string): Promise<void> {
  await rm(genotypesDir(dataDir), { recursive: true, force: true });
}

/** Removes every stored file of a profile (on profile deletion). */
export async function removeProfileFiles(dataDir: string, profileId: string): Promise<void> {
  const names = await readdir(genotypesDir(dataDir)).catch(() => [] as string[]);
  await Promise.all(
    names.filter((n) => n.startsWith(`${profileId}.`)).map((n) => rm(storedFilePath(dataDir, n), { force: true })),
  );
}

/**
 * At start-up, before anything is uploaded: removes files nothing refers to (a crash
 * mid-upload or mid-delete, a file locked on Windows) and makes the others private
 * (older versions wrote them 0644).
 */
export function sweepStoredFiles(dataDir: string, referenced: Set<string>): void {
  const dir = genotypesDir(dataDir);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  makePrivateDir(dir);
  for (const name of names) {
    const file = storedFilePath(dataDir, name);
    try {
      if (!referenced.has(name)) rmSync(file, { force: true, recursive: true });
      else if (process.platform !== 'win32') chmodSync(file, 0o600);
    } catch {
      // Locked (Windows) or vanished: the next start tries again.
    }
  }
}
