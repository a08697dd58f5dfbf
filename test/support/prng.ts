/** A small seeded PRNG (mulberry32) for reproducible simulations in tests and the benchmark. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` items of `list` drawn without replacement by a seeded Fisher–Yates shuffle (all of them when count ≥ length). */
export function seededSample<T>(list: readonly T[], count: number, seed: number): T[] {
  const all = [...list];
  const random = rng(seed);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j], all[i]];
  }
  return all.slice(0, count);
}
