/**
 * An upload that is still arriving, as the worker that parses it sees it: a byte source over
 * the file the service is writing, whose reads wait until the bytes they ask for are on the
 * file. The service tells the worker how far the file has been written and how the upload
 * ended (uploadSignal messages), so the parse runs while the body streams in and the
 * processing call finds the job done or nearly done.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { fillAt, readAt, type ByteSource } from '../genotype/parse/index.js';

/** From the service to the worker parsing an upload, as the upload goes. */
export type UploadSignal =
  | { written: number }
  /** Received, fsynced and recorded as the profile's file: it may be stored. */
  | { end: 'recorded' }
  /** Broken, refused, empty, or its profile deleted: nothing of it may be stored. */
  | { end: 'abandoned' };

export type UploadEnd = 'recorded' | 'abandoned';

export class UploadAbandonedError extends Error {
  constructor() {
    super('the upload did not complete');
  }
}

export interface ArrivingFile {
  source: ByteSource;
  /** Passes on what the service says about the upload. */
  signal: (signal: UploadSignal) => void;
  /** How the upload ended. */
  ended: Promise<UploadEnd>;
}

/** `size`: the upload's declared length, which a complete upload has exactly. */
export function arrivingFile(path: string, size: number): ArrivingFile {
  let written = 0;
  let end: UploadEnd | null = null;
  let wake: (() => void) | null = null;
  let resolveEnded!: (end: UploadEnd) => void;
  const ended = new Promise<UploadEnd>((r) => (resolveEnded = r));
  let handle: Promise<FileHandle> | null = null;

  async function until(bytes: number): Promise<void> {
    while (written < bytes && end === null) await new Promise<void>((r) => (wake = r));
    if (end === 'abandoned') throw new UploadAbandonedError();
  }

  /** The file, once `bytes` of it are written; opened on the first read (the service creates it). */
  async function fileWith(bytes: number): Promise<FileHandle> {
    await until(bytes);
    handle ??= open(path, 'r');
    return handle;
  }

  const source: ByteSource = {
    size,
    growing: true,
    async read(offset, length) {
      const n = Math.max(0, Math.min(length, size - offset));
      return readAt(await fileWith(offset + n), offset, n);
    },
    // Plain text is parsed as it comes, through two buffers that take turns (source.ts
    // readRange): no fresh mebibyte to zero, fault in and collect per chunk of the upload.
    async readInto(offset, into) {
      const n = Math.max(0, Math.min(into.length, size - offset));
      return fillAt(await fileWith(offset + n), offset, into.subarray(0, n));
    },
    async close() {
      if (handle) await (await handle.catch(() => null))?.close();
    },
  };

  return {
    source,
    signal(s) {
      if ('written' in s) written = Math.max(written, s.written);
      else if (end === null) {
        end = s.end;
        resolveEnded(s.end);
      }
      const w = wake;
      wake = null;
      w?.();
    },
    ended,
  };
}
