/**
 * The targets of `npm run bench`, each with its figure, the baseline measured in the same
 * run and their ratio; bench/index.ts prints them all at the end (docs/performance.md keeps
 * the table).
 */
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
  console.log('\n=== Targets (issue 12), this run ===');
  for (const r of results) console.log(`- ${line(r)}`);
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
