/**
 * The targets of `npm run bench`, each with its figure, the baseline measured in the same
 * run and their ratio; bench/index.ts prints them all at the end and keeps them in a dated
 * file under bench/results/ (the history of the figures; docs/performance.md has the method
 * and the current table).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
export interface TargetResult {
  /** What is measured, e.g. "960k file, sync processing through the API". */
  target: string;
  figure: number;
  unit: 'ms' | 'MiB' | '×';
  /** The target: figure (or ratio, when `on` is 'ratio') at most this. */
  limit: number;
  on?: 'figure' | 'ratio';
  baseline?: { name: string; value: number; unit: 'ms' | 'MiB' };
  note?: string;
}

const results: TargetResult[] = [];

export function recordTarget(result: TargetResult): void {
  results.push(result);
  console.log(`  → ${line(result)}`);
}

function ratioOf(r: TargetResult): number | undefined {
  return r.baseline && r.baseline.value > 0 ? r.figure / r.baseline.value : undefined;
}

function line(r: TargetResult): string {
  const ratio = ratioOf(r);
  const value = r.on === 'ratio' ? ratio : r.figure;
  const met = value === undefined || Number.isNaN(value) ? 'n/a' : value <= r.limit ? 'met' : 'NOT met';
  const base = r.baseline
    ? `; ${r.baseline.name} ${fmt(r.baseline.value)} ${r.baseline.unit}, ratio ${ratio === undefined ? 'n/a' : fmt(ratio, 2)}×`
    : '';
  return `${r.target}: ${fmt(r.figure)} ${r.unit}${base}; target ≤ ${r.limit}${r.on === 'ratio' ? '×' : ` ${r.unit}`}: ${met}${r.note ? ` (${r.note})` : ''}`;
}

const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : String(x));

export function printTargets(): void {
  if (results.length === 0) return;
  console.log('\n=== Targets, this run ===');
  for (const r of results) console.log(`- ${line(r)}`);
}

/**
 * Writes this run's targets to bench/results/<UTC date and time>-<commit>.md with the machine
 * they were measured on, and returns the file's path (undefined when nothing was measured).
 */
export function writeResultsFile(startLoad: number[], benches: string[]): string | undefined {
  if (results.length === 0) return undefined;
  const stamp = new Date().toISOString().slice(0, 16).replace(/[-:]/g, '').replace('T', '-');
  let commit = 'uncommitted';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    if (execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim() !== '') {
      commit += '-modified';
    }
  } catch {
    // Not a git checkout: the file says so.
  }
  const cpu = cpus();
  const load = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
  const text = [
    `# npm run bench, ${new Date().toISOString()}`,
    '',
    `- Commit: ${commit}; benches: ${benches.join(', ')}`,
    `- Machine: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB, ${process.platform}, Node ${process.version}`,
    `- Load average at the start ${load(startLoad)}, at the end ${load(loadavg())}`,
    '',
    ...results.map((r) => `- ${line(r)}`),
    '',
  ].join('\n');
  const dir = path.join(import.meta.dirname, 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${stamp}-${commit}.md`);
  writeFileSync(file, text);
  return file;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
