/**
 * The shipped CDF tables: for every trait and super-population (and, for traits with
 * X-chromosome markers, XY people), the distribution of the fully genotyped score at
 * build resolution, compressed to knots (src/service/science/distribution/table.ts).
 * Scores with few distinct sums are exact at scoring time and need no table.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { POPULATION_ORDER, type CatalogTrait } from '../../src/service/science/format.js';
import { setMarker, STRIDE } from '../../src/service/science/distribution/markers.js';
import { BUILD, RUNTIME, scoreDistribution, supportBound } from '../../src/service/science/distribution/reference.js';
import { tableFromDistribution, type CdfTable } from '../../src/service/science/distribution/table.js';
import { encodeTables, TABLE_FILE } from '../../src/service/science/distribution/table-file.js';

/** The markers of a fully genotyped person, in a population, diploid or with X hemizygous. */
export function fullMarkers(t: CatalogTrait, pop: (typeof POPULATION_ORDER)[number], xy: boolean): Float64Array {
  const m = t.markers;
  const n = m.rsid.length;
  const x = new Set(xy ? (m.x ?? []) : []);
  const pts = new Float64Array(STRIDE * n);
  for (let i = 0; i < n; i++) {
    const w = m.weight[i];
    const c = m.dosage_weights ? m.dosage_weights.slice(3 * i, 3 * i + 3) : [0, w, 2 * w];
    setMarker(pts, i, c[0], c[1], c[2], m.freq[pop][i], x.has(i));
  }
  return pts;
}

export function buildDistributionTables(
  traits: CatalogTrait[],
  catalogDir: string,
): { tables: number; traits: number; bytes: number; exactAtRuntime: number } {
  const entries: Array<{ code: string; revision: string; tables: Map<string, CdfTable> }> = [];
  let count = 0;
  let exactAtRuntime = 0;
  const t0 = Date.now();
  traits.forEach((t, k) => {
    const tables = new Map<string, CdfTable>();
    for (const pop of POPULATION_ORDER) {
      for (const xy of t.markers.x?.length ? [false, true] : [false]) {
        const pts = fullMarkers(t, pop, xy);
        const n = t.markers.rsid.length;
        const order = Int32Array.from({ length: n }, (_, i) => i);
        if (supportBound(pts, order, n, 0) <= RUNTIME.exactBudget) {
          exactAtRuntime++;
          continue;
        }
        tables.set(xy ? `${pop}:XY` : pop, tableFromDistribution(scoreDistribution(pts, n, 0, BUILD)));
        count++;
      }
    }
    if (tables.size) entries.push({ code: t.code, revision: t.revision, tables });
    if ((k + 1) % 200 === 0)
      console.log(`  tables: ${k + 1} of ${traits.length} traits (${Math.round((Date.now() - t0) / 1000)} s)`);
  });
  const bytes = encodeTables(entries);
  writeFileSync(join(catalogDir, TABLE_FILE.split('/')[1]), bytes);
  return { tables: count, traits: entries.length, bytes: bytes.length, exactAtRuntime };
}
