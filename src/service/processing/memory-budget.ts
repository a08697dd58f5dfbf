/**
 * The service-wide memory budget for parses. Every parse is bounded on its own
 * (parseMemoryBound(), under 400 MiB whatever the input), but workers parse side by side:
 * the processor starts a parse only while the expected memory of the parses running, plus
 * its own, stays within the budget. A parse never waits for nothing: one that is larger
 * than the whole budget runs when no other parse does.
 *
 * A parse's memory is estimated from the file's size before it is read: one marker per
 * 20 bytes of text (the shortest lines of a real export; longer lines mean fewer markers),
 * and for a compressed file ten times its size as text (genotype text compresses about
 * four-fold; the estimate errs high), never more than the per-parse bound.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { parseMemoryBound } from '../genotype/parse/collect.js';

const MIB = 1024 * 1024;
/** With the default workers (at most 4), two parses at the per-parse bound fit side by side. */
const DEFAULT_MEMORY_BUDGET_BYTES = 1024 * MIB;
/** Fewest bytes of text a marker takes (`rs1\t1\t1\tAA\n` is 14; real exports about 24). */
const BYTES_PER_MARKER = 20;
/** A compressed file is taken to hold this many times its size as text. */
const ASSUMED_EXPANSION = 10;

/** Expected memory of parsing a file of `size` bytes (compressed: gzip, zip, bzip2, xz). */
export function parseMemoryEstimate(size: number, compressed: boolean): number {
  const text = compressed ? size * ASSUMED_EXPANSION : size;
  const markers = Math.ceil(text / BYTES_PER_MARKER);
  return Math.min(parseMemoryBound(), parseMemoryBound(markers));
}

/**
 * A stored genotype of `markers` markers counts as large as the parse that read it: scoring
 * it loads it from the database and decodes it, in buffers of the same order of size.
 */
export function storedGenotypeEstimate(markers: number): number {
  return Math.min(parseMemoryBound(), parseMemoryBound(markers));
}

/** Whether a stored file starts like a compressed container (its first bytes). */
export function looksCompressed(filePath: string): boolean {
  const head = Buffer.alloc(6);
  let read = 0;
  try {
    const fd = openSync(filePath, 'r');
    try {
      read = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false; // gone: its job finds out and says so
  }
  const starts = (bytes: number[]) => read >= bytes.length && bytes.every((b, i) => head[i] === b);
  return (
    starts([0x1f, 0x8b]) || starts([0x50, 0x4b]) || starts([0x42, 0x5a, 0x68]) || starts([0xfd, 0x37, 0x7a, 0x58, 0x5a])
  );
}

export interface MemoryBudget {
  readonly limit: number;
  /** Parses above this leave their worker replaced afterwards (its memory goes back to the system). */
  readonly recycleAbove: number;
  /**
   * Parses above this run in a process of their own (engine-process.ts), which gives back
   * on exit also what the C allocator keeps of a thread's freed buffers.
   */
  readonly ownProcessAbove: number;
  /** Expected memory of the parses running now. */
  reserved: () => number;
  /** May a parse expecting `bytes` start now? Always when no parse runs. */
  fits: (bytes: number) => boolean;
  take: (bytes: number) => void;
  give: (bytes: number) => void;
  /** A running parse's estimate changed (its file turned out smaller than assumed). */
  change: (from: number, to: number) => void;
}

export function memoryBudget(limit = DEFAULT_MEMORY_BUDGET_BYTES): MemoryBudget {
  let reserved = 0;
  let running = 0;
  return {
    limit,
    // An eighth of the budget (128 MiB by default): a chip file's parse (~1 million markers,
    // under 100 MiB) keeps its worker; a sequencing-sized one gives the memory back.
    recycleAbove: limit / 8,
    // The same size: a file that large parses for seconds, against ~1 s to start a process
    // and load its engine; a chip file (under 100 MiB expected) stays on a thread.
    ownProcessAbove: limit / 8,
    reserved: () => reserved,
    fits: (bytes) => running === 0 || reserved + bytes <= limit,
    // Jobs that are not parses (0 bytes) are not counted: they never hold a large parse back.
    take(bytes) {
      if (bytes === 0) return;
      reserved += bytes;
      running++;
    },
    give(bytes) {
      if (bytes === 0) return;
      reserved -= bytes;
      running--;
    },
    change(from, to) {
      reserved += to - from;
    },
  };
}
