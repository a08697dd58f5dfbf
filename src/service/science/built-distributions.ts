/**
 * Reference distributions built at scoring time (partial coverage, mixed references, and
 * traits whose distribution is exact and so is not shipped as a table), kept for the next
 * person or call with the same inputs: the same trait, reference frequencies, sex (X
 * markers hemizygous or not) and set of genotyped markers give the same distribution. Every
 * fully genotyped person shares one per trait and reference, like a shipped table; a
 * person's own set of markers serves their trait pages and any rescoring.
 *
 * Bounded by an estimate of the memory the distributions hold; the least recently used
 * leave first. A distribution is kept at once when everyone fully genotyped shares it
 * (nothing left out, one population); any other only when it comes back (a second person
 * on the same chip, the same person again): most belong to one person's no-calls or
 * inferred ancestry mixture, and keeping each of them would only push out shared ones and
 * make the garbage collector move them into the old generation.
 */
import type { ScoreDistribution } from './distribution/reference.js';

export interface BuiltDistribution {
  dist: ScoreDistribution;
  /** Levels some genotype can reach (assessment.ts reachableLevels), worked out once. */
  levels: number[];
}

interface Entry extends BuiltDistribution {
  /** Offsets (within the trait) of the markers left out: compared in full on a hit. */
  missing: Int32Array;
  bytes: number;
}

/** Per engine; about 2,000 traits of a partially covered profile take 10–20 MiB. */
const BUDGET_BYTES = 32 * 1024 * 1024;
/** Sets of markers seen once, remembered by id only; forgotten all at once past this. */
const SEEN_LIMIT = 100_000;

export interface BuiltDistributions {
  /**
   * The distribution for `key` (trait, reference, sex) with markers `missing[0..count)`
   * left out, building it with `build` when not kept; `shared`: every fully genotyped
   * person compared with this reference needs it.
   */
  get: (
    key: string,
    missing: Int32Array,
    count: number,
    build: () => BuiltDistribution,
    shared: boolean,
  ) => BuiltDistribution;
}

export function builtDistributions(budget = BUDGET_BYTES): BuiltDistributions {
  const entries = new Map<string, Entry>();
  const seen = new Set<string>();
  let bytes = 0;
  return {
    get(key, missing, count, build, shared) {
      const id = `${key}\n${count}:${hashOf(missing, count)}`;
      const hit = entries.get(id);
      if (hit && sameOffsets(hit.missing, missing, count)) {
        entries.delete(id); // most recently used: to the end of the Map's order
        entries.set(id, hit);
        return hit;
      }
      const made = build();
      if (!shared && !seen.has(id)) {
        if (seen.size >= SEEN_LIMIT) seen.clear();
        seen.add(id); // (a hash collision only means keeping a set one call early)
        return made;
      }
      const entry: Entry = { ...made, missing: missing.slice(0, count), bytes: made.dist.bytes + 4 * count + 200 };
      if (hit) bytes -= hit.bytes;
      entries.set(id, entry);
      bytes += entry.bytes;
      if (bytes > budget) {
        // Down to three quarters at once: each pass walks the Map from its oldest end.
        for (const [oldest, e] of entries) {
          if (bytes <= 0.75 * budget) break;
          entries.delete(oldest);
          bytes -= e.bytes;
        }
      }
      return made;
    },
  };
}

function hashOf(a: Int32Array, n: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < n; i++) h = Math.imul(h ^ a[i], 0x01000193);
  return h >>> 0;
}

function sameOffsets(a: Int32Array, b: Int32Array, n: number): boolean {
  if (a.length !== n) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}
