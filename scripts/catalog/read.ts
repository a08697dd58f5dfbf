/** Reading the source tables of ../shared/data: plain or gzipped TSV with a header row. */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

export type Row = Record<string, string>;

export function readText(path: string, encoding: BufferEncoding = 'utf8'): string {
  const raw = readFileSync(path);
  const bytes = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
  return bytes.toString(encoding);
}

/** Strip one pair of surrounding double quotes (R's write.table quoting). */
function unquote(v: string): string {
  return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
}

/** Rows of a tab-separated table keyed by header name. Empty header cells become "rowname". */
export function readTsv(path: string, encoding: BufferEncoding = 'utf8'): Row[] {
  const lines = readText(path, encoding).split(/\r?\n/);
  const header = lines[0].split('\t').map((h) => unquote(h) || 'rowname');
  const rows: Row[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line === '') continue;
    const cells = line.split('\t');
    const row: Row = {};
    for (let j = 0; j < header.length; j++) row[header[j]] = unquote(cells[j] ?? '');
    rows.push(row);
  }
  return rows;
}

/** A number from a source cell, or null for NA/empty/non-numeric. */
export function num(v: string | undefined): number | null {
  if (v === undefined) return null;
  const t = v.trim();
  if (t === '' || t === 'NA' || t === 'NaN') return null;
  const x = Number(t);
  return Number.isFinite(x) ? x : null;
}
