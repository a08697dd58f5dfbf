/**
 * Scoring benchmark: every trait of the catalog for one realistic profile (a 23andMe-sized
 * genotype of ~630,000 markers that covers about two thirds of the catalog's markers),
 * through the engine's batch entry point (assessMany) as the worker pool calls it, with a
 * baseline measured in the same run: a bare loop that looks each marker up by binary
 * search and sums weight × dosage, with no matching rules, percentiles or result objects.
 * Target: all traits in at most 50 ms in the engine. Figures go in docs/performance.md.
 * Runs the bundled engine (out/main/library.js).
 */
import { join } from 'node:path';
import type { Genotype } from '../src/service/genotype/types.js';
import type { CatalogTrait } from '../src/service/science/format.js';
import { rng } from '../test/support/prng.js';
import { loadLibrary } from './library.js';
import { median, recordTarget } from './report.js';

const { alleleFromLetter, assessContext, createScienceEngine, findRsid, loadAncestryPanel, makeCall, readCatalogFile } = await loadLibrary();

const TARGET_MS = 50;
const FILE_MARKERS = 630_000;
const CATALOG_COVERAGE = 0.65;
const resourcesDir = join(import.meta.dirname, '..', 'resources');

function realisticGenotype(traits: CatalogTrait[], seed: number): Genotype {
  const random = rng(seed);
  const calls = new Map<number, number>();
  // Most of the ancestry panel's markers, drawn from their European frequencies.
  const panel = loadAncestryPanel(resourcesDir);
  for (let i = 0; i < panel.size; i++) {
    if (random() > 0.8) continue;
    const p = panel.p[i * 5]; // EUR is the panel's first population
    calls.set(panel.rsid[i], makeCall(random() < p ? panel.counted[i] : panel.other[i], random() < p ? panel.counted[i] : panel.other[i]));
  }
  for (const t of traits) {
    const m = t.markers;
    for (let i = 0; i < m.rsid.length; i++) {
      if (calls.has(m.rsid[i])) continue;
      if (random() > CATALOG_COVERAGE) {
        calls.set(m.rsid[i], -1); // decided: absent
        continue;
      }
      const p = m.freq.EUR[i];
      const e = alleleFromLetter(m.effect[i]);
      const o = alleleFromLetter(m.other[i]);
      calls.set(m.rsid[i], random() < 0.005 ? 0 : makeCall(random() < p ? e : o, random() < p ? e : o));
    }
  }
  // Fill up to a chip's size with other rsIDs.
  while (calls.size < FILE_MARKERS + 30_000) {
    const rs = 1 + Math.floor(random() * 200_000_000);
    if (!calls.has(rs)) calls.set(rs, makeCall(1 + Math.floor(random() * 4), 1 + Math.floor(random() * 4)));
  }
  const entries = [...calls].filter(([, c]) => c >= 0).sort((a, b) => a[0] - b[0]);
  return {
    rsids: Uint32Array.from(entries, (e) => e[0]),
    calls: Uint8Array.from(entries, (e) => e[1]),
    chroms: new Uint8Array(entries.length),
    positions: new Uint32Array(entries.length),
  };
}

export async function run(): Promise<void> {
  let t = performance.now();
  const engine = createScienceEngine({ resourcesDir });
  const loadMs = performance.now() - t;
  const defs = readCatalogFile(resourcesDir).traits;
  const markerCount = defs.reduce((a, d) => a + d.markers.rsid.length, 0);
  const genotype = realisticGenotype(defs, 42);

  // Baseline: the same markers, bare binary-search lookups and a weighted sum.
  const flat = defs.map((d) => ({
    rsid: Uint32Array.from(d.markers.rsid),
    effect: Uint8Array.from(d.markers.effect, (c) => alleleFromLetter(c)),
    weight: Float64Array.from(d.markers.weight),
  }));
  const baselineRuns: number[] = [];
  let sink = 0;
  for (let rep = 0; rep < 7; rep++) {
    t = performance.now();
    for (const f of flat) {
      let s = 0;
      for (let i = 0; i < f.rsid.length; i++) {
        const gi = findRsid(genotype.rsids, f.rsid[i]);
        if (gi < 0) continue;
        const c = genotype.calls[gi];
        s += f.weight[i] * (((c >> 4) === f.effect[i] ? 1 : 0) + ((c & 15) === f.effect[i] ? 1 : 0));
      }
      sink += s;
    }
    baselineRuns.push(performance.now() - t);
  }

  // A profile compared with one super-population (EUR, chosen by ethnicity).
  const ctx = assessContext({ ethnicity: 1, gender: 0 }, { ancestry: null, inferredSex: null });
  const scoreAll = (g: Genotype) => {
    let computed = 0;
    for (const outcome of engine.assessMany(g, ctx).values()) if (outcome.status === 'computed') computed++;
    return computed;
  };
  // Cold: a genotype the engine has not seen (includes the join of its rsIDs with the catalog's).
  t = performance.now();
  const computed = scoreAll({ ...genotype });
  const coldMs = performance.now() - t;
  const warmRuns: number[] = [];
  for (let rep = 0; rep < 7; rep++) {
    const fresh = { ...genotype }; // a new object: per-genotype caches start empty every time
    t = performance.now();
    scoreAll(fresh);
    warmRuns.push(performance.now() - t);
  }
  t = performance.now();
  const ancestry = engine.inferAncestry(genotype);
  const ancestryMs = performance.now() - t;

  const warm = median(warmRuns);
  const base = median(baselineRuns);
  console.log(`catalog: ${engine.traits.length} traits, ${markerCount.toLocaleString('en-US')} markers; genotype: ${genotype.rsids.length.toLocaleString('en-US')} markers`);
  console.log(`engine load (catalog + ancestry model): ${loadMs.toFixed(1)} ms`);
  console.log(`baseline (bare lookup + weighted sum, all traits): median ${base.toFixed(1)} ms`);
  console.log(`assess all traits, first run (JIT cold): ${coldMs.toFixed(1)} ms, ${computed} computable`);
  console.log(`assess all traits, new genotype object each run: median ${warm.toFixed(1)} ms (min ${Math.min(...warmRuns).toFixed(1)}, max ${Math.max(...warmRuns).toFixed(1)}); ${(warm / base).toFixed(2)}× baseline`);
  console.log(`ancestry inference: ${ancestryMs.toFixed(1)} ms (${ancestry ? `${ancestry.markers_used} model SNPs` : 'too few model SNPs'})`);
  if (sink === 0) console.log('(baseline sum was 0)');
  recordTarget({
    target: `All ${engine.traits.length} catalog traits for one profile, in the engine (assessMany)`,
    figure: warm,
    unit: 'ms',
    limit: TARGET_MS,
    baseline: { name: 'bare lookup + weighted sum', value: base, unit: 'ms' },
    note: 'one super-population; admixture references do not exist yet (issue 10)',
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
