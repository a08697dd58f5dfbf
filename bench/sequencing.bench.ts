/**
 * Whole-genome sequencing VCFs (run by `npm run bench`; alone: `npm run bench -- sequencing`).
 *
 * Generates GRCh38 VCFs of 4.5 million lines (test/support/genotypes.ts wholeGenomeVcf: a
 * person's catalog markers among filler sites), variants only (as Nebula and Dante deliver
 * them) and all sites (every marker listed, a third of the filler sites REF/REF), each
 * without rsIDs and with rsIDs on every line, plain, .gz (one gzip member) and bgzipped (BGZF,
 * as sequencing VCFs are delivered: test/support/bgzf.ts), and a 960k-line 23andMe file,
 * plain and .gz. Prints, in one run:
 *  - our parse (with the position index, as the service reads it) against
 *    `plink1.9 --vcf FILE --make-bed` on the same file (target <= 0.8, as for chip files);
 *  - time per line of the VCF against time per line of the chip file in the same container
 *    (plain against plain, .gz against .gz), timed alternately (target <= 1.0: the same
 *    speed per line; per byte of text as well, since a VCF line is twice a chip line's
 *    length), and, for the .gz files, against the plain chip file as well (inflating
 *    alone costs more per VCF line than a whole plain chip line), in wall time (what a
 *    person waits for) and in CPU time (all the process's threads: zlib inflates on the
 *    thread pool while the parser reads);
 *  - a fresh child process parsing each VCF, as the service parses a file this large (a
 *    process of its own, engine-process.ts): its parse time (the first parse of a process,
 *    what a person waits for) and its peak RSS (target <= 400 MiB, parseMemoryBound's
 *    guarantee; the chip files' 150 MiB target is for 960k markers).
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createGzip } from 'node:zlib';
import { gzipBlocks } from '../test/support/bgzf.js';
import {
  catalogMarkers,
  chipMarkers,
  combine,
  FINDING_CALLS,
  markersOf,
  vendorFile,
  wholeGenomeVcf,
} from '../test/support/genotypes.js';
import { LIBRARY, loadLibrary, ROOT } from './library.js';
import { median, recordTarget } from './report.js';

const { parseGenotypeFile, loadPositionIndex } = await loadLibrary();
const RESOURCES = join(ROOT, 'resources');
const LINES = 4_500_000;
const RUNS = 5;
const MiB = 1024 * 1024;

async function writeChunks(path: string, chunks: Iterable<string>, gzip: boolean | 'bgzf'): Promise<void> {
  const file = createWriteStream(path);
  const out = gzip === true ? createGzip({ level: 6 }) : null;
  if (out) out.pipe(file);
  const sink: NodeJS.WritableStream = out ?? file;
  for (const chunk of gzip === 'bgzf' ? gzipBlocks(chunks) : chunks) if (!sink.write(chunk)) await once(sink, 'drain');
  sink.end();
  await once(file, 'close');
}

async function ourParse(path: string): Promise<{ ms: number; cpuMs: number; markers: number; reading: string }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await parseGenotypeFile(path, { positionIndex: loadPositionIndex(RESOURCES) });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (!r.ok) throw new Error(`benchmark file refused: ${r.reason}`);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  return { ms, cpuMs, markers: r.summary.snp_count, reading: r.summary.site_reading ?? 'as_listed' };
}

function plinkMs(path: string, outPrefix: string): number | null {
  if (spawnSync('plink1.9', ['--version']).status !== 0) return null;
  const args = ['--vcf', path, '--make-bed', '--out', outPrefix, '--allow-extra-chr', '--silent'];
  const once = () => {
    const t0 = performance.now();
    const r = spawnSync('plink1.9', args, { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`plink1.9 failed: ${r.stderr || r.stdout}`);
    return performance.now() - t0;
  };
  once();
  return median(Array.from({ length: RUNS }, once));
}

/**
 * A fresh Node process parsing `path` with the position index, from the bundle: the parse's
 * wall time (ms) and its peak RSS (MiB).
 */
function childParse(path: string): { ms: number; peakMiB: number } {
  const script = `
    const { parseGenotypeFile, loadPositionIndex } = await import(${JSON.stringify(pathToFileURL(LIBRARY).href)});
    const index = loadPositionIndex(process.argv[2]);
    const t0 = performance.now();
    const r = await parseGenotypeFile(process.argv[1], { positionIndex: index });
    const ms = performance.now() - t0;
    if (!r.ok) { console.error(r.reason); process.exit(2); }
    const { readFileSync } = await import('node:fs');
    const hwm = /VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    console.log(JSON.stringify({ ms, peakKiB: hwm ? Number(hwm[1]) : process.resourceUsage().maxRSS }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script, path, RESOURCES], {
    encoding: 'utf8',
    cwd: fileURLToPath(new URL('..', import.meta.url)),
  });
  if (r.status !== 0) throw new Error(`child parse failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { ms: number; peakKiB: number };
  return { ms: out.ms, peakMiB: out.peakKiB / 1024 };
}

const fmt = (x: number, d = 1) => x.toFixed(d);

export async function run(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'traitscope-sequencing-bench-'));
  try {
    console.log('\n== Whole-genome sequencing VCFs ==');
    const person = combine([markersOf(FINDING_CALLS), catalogMarkers(7, { traits: 'all' })]);
    const files: Array<{ name: string; path: string; layout: string }> = [];
    // Plain files first: the .gz rows also compare with the plain chip file's runs.
    for (const gz of [false, true, 'bgzf'] as const)
      for (const sites of ['variants_only', 'all'] as const)
        for (const ids of ['none', 'rsid'] as const) {
          const layout = `${ids === 'none' ? 'no_rsids' : 'rsids'}${sites === 'all' ? '_all_sites' : ''}`;
          const name = `wgs_${LINES / 1e6}M_${layout}${gz === 'bgzf' ? '.bgzf' : ''}.vcf${gz ? '.gz' : ''}`;
          const path = join(dir, name);
          await writeChunks(path, wholeGenomeVcf(person, LINES, 31, { build: 38, ids, sites }), gz);
          files.push({ name, path, layout });
        }
    const chipText = vendorFile('23andme', chipMarkers(960_000, 5, { internalIds: true }), 'full');
    const chipPlain = join(dir, 'chip_960k.txt');
    const chipGz = join(dir, 'chip_960k.txt.gz');
    await writeChunks(chipPlain, [chipText], false);
    await writeChunks(chipGz, [chipText], true);
    const chipLines = 960_000;
    const chipTextBytes = Buffer.byteLength(chipText);
    // The text a layout holds: its plain file's size (the plain files come first).
    const textBytes = new Map<string, number>();
    const plainChipMs: number[] = [];
    const plainChipCpuMs: number[] = [];

    console.log(
      `temp dir: ${dir}; medians of ${RUNS} runs after a warm-up, alternating with the 960k chip file of the same container\n`,
    );
    const rows: string[][] = [];
    let worstPlink = 0;
    let worstPerLine = 0;
    let worstBgzfPerLine = 0;
    let worstCpuPerLine = 0;
    let worstRss = 0;
    for (const f of files) {
      const gz = f.name.endsWith('.gz');
      const chipPath = gz ? chipGz : chipPlain;
      await ourParse(f.path);
      await ourParse(chipPath);
      const vcf: number[] = [];
      const chip: number[] = [];
      const vcfCpu: number[] = [];
      const chipCpu: number[] = [];
      let markers = 0;
      let reading = '';
      for (let i = 0; i < RUNS; i++) {
        const v = await ourParse(f.path);
        vcf.push(v.ms);
        vcfCpu.push(v.cpuMs);
        markers = v.markers;
        reading = v.reading;
        const c = await ourParse(chipPath);
        chip.push(c.ms);
        chipCpu.push(c.cpuMs);
      }
      const ours = median(vcf);
      const perLine = ours / LINES / (median(chip) / chipLines);
      if (!gz) textBytes.set(f.layout, (await stat(f.path)).size);
      const perByte = ours / textBytes.get(f.layout)! / (median(chip) / chipTextBytes);
      if (!gz) plainChipMs.push(...chip);
      if (!gz) plainChipCpuMs.push(...chipCpu);
      const perPlainLine = ours / LINES / (median(plainChipMs) / chipLines);
      const cpuPerLine = median(vcfCpu) / LINES / (median(chipCpu) / chipLines);
      const cpuPerPlainLine = median(vcfCpu) / LINES / (median(plainChipCpuMs) / chipLines);
      if (f.name.includes('.bgzf.')) worstBgzfPerLine = Math.max(worstBgzfPerLine, perLine);
      const plink = plinkMs(f.path, join(dir, 'plink_out'));
      const child = childParse(f.path);
      const rss = child.peakMiB;
      worstPerLine = Math.max(worstPerLine, perLine);
      worstCpuPerLine = Math.max(worstCpuPerLine, cpuPerLine);
      worstRss = Math.max(worstRss, rss);
      if (plink !== null) worstPlink = Math.max(worstPlink, ours / plink);
      rows.push([
        f.name,
        fmt((await stat(f.path)).size / MiB),
        reading,
        String(markers),
        fmt(ours, 0),
        fmt((ours / LINES) * 1e6, 0),
        gz ? 'chip .gz' : 'chip',
        fmt((median(chip) / chipLines) * 1e6, 0),
        fmt(perLine, 2),
        fmt(perByte, 2),
        fmt(perPlainLine, 2),
        fmt((median(vcfCpu) / LINES) * 1e6, 0),
        fmt(cpuPerLine, 2),
        fmt(cpuPerPlainLine, 2),
        plink === null ? 'n/a' : fmt(plink, 0),
        plink === null ? 'n/a' : fmt(ours / plink, 2),
        fmt(child.ms, 0),
        fmt((child.ms / LINES) * 1e6, 0),
        fmt(rss, 0),
      ]);
      console.log(`  ${rows[rows.length - 1].join('  ')}`); // as measured: a slow run still shows its figures
    }
    const header = [
      'file',
      'MiB',
      'read as',
      'markers',
      'parse ms',
      'ns/line',
      'against',
      'chip ns/line',
      'per-line ratio',
      'per-byte ratio',
      'vs plain chip',
      'CPU ns/line',
      'CPU ratio',
      'CPU vs plain chip',
      'plink ms',
      'ours/plink',
      'fresh process ms',
      'fresh ns/line',
      'peak RSS MiB',
    ];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) =>
      cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
    console.log(line(header));
    console.log(widths.map((w) => '-'.repeat(w)).join('  '));
    for (const r of rows) console.log(line(r));
    console.log(
      '\nplink1.9 --vcf --make-bed is timed as a whole process; ours is the parse in this process (position index loaded once);' +
        ' "fresh process" is the parse alone in a new process, as the service parses a file this large.',
    );
    recordTarget({
      target: '4.5M-line VCF, time per line / 960k chip file (same container) time per line (worst file)',
      figure: worstPerLine,
      unit: '×',
      limit: 1,
    });
    recordTarget({
      target: '4.5M-line BGZF VCF, time per line / 960k chip .gz time per line (worst layout)',
      figure: worstBgzfPerLine,
      unit: '×',
      limit: 1,
    });
    recordTarget({
      target: '4.5M-line VCF, CPU per line / 960k chip file (same container) CPU per line (worst file)',
      figure: worstCpuPerLine,
      unit: '×',
      limit: 1,
    });
    if (worstPlink > 0)
      recordTarget({
        target: '4.5M-line VCF parse / plink1.9 --vcf --make-bed (worst file)',
        figure: worstPlink,
        unit: '×',
        limit: 0.8,
      });
    recordTarget({
      target: '4.5M-line VCF, peak RSS of a child parse (worst file)',
      figure: worstRss,
      unit: 'MiB',
      limit: 400,
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
