import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/**
 * Fills `into` from the open file `fd` at byte `at`; an error names the byte where the file
 * (of `size` bytes) ended first.
 */
export function readExactly(fd: number, into: ArrayBufferView, at: number, size: number): void {
  const bytes = new Uint8Array(into.buffer, into.byteOffset, into.byteLength);
  for (let done = 0; done < bytes.length;) {
    const n = readSync(fd, bytes, done, bytes.length - done, at + done);
    if (n === 0) throw new Error(`the file ended at byte ${at + done} of ${size}`);
    done += n;
  }
}

/**
 * The whole file in memory of its own, starting at offset 0 of its ArrayBuffer, so the
 * 8-byte-aligned sections of the shipped binary files can be viewed in place (a Buffer
 * from readFileSync may sit at any offset of a shared pool, and copying ~10 MB out of it
 * cost as much as reading it).
 */
export function readWhole(file: string): ArrayBuffer {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const memory = new ArrayBuffer(size);
    readExactly(fd, new Uint8Array(memory), 0, size);
    return memory;
  } finally {
    closeSync(fd);
  }
}
