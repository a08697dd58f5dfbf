import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

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
    const out = new Uint8Array(memory);
    let at = 0;
    while (at < size) {
      const n = readSync(fd, out, at, size - at, at);
      if (n === 0) throw new Error(`the file ended at byte ${at} of ${size}`);
      at += n;
    }
    return memory;
  } finally {
    closeSync(fd);
  }
}
