/**
 * Security figures (run by `npm run bench`; standalone: `npx tsx bench/security.bench.ts`):
 *  - peak RSS of a fresh process parsing the worst inputs for memory: a gzip of 30 million
 *    of the shortest marker lines (refused at the 10-million-marker limit) and a file of
 *    just under 10 million markers (accepted), beside a 960k-line 23andMe-shaped file;
 *    target: parse memory (peak minus the process's peak before parsing) <= 400 MiB;
 *  - the token endpoint's answer time for a known and an unknown client id with a wrong
 *    secret (they should not differ: no existence leak by timing), and the API's median
 *    answer time with and without 8 concurrent secret guessers (target: guessers add no
 *    more than a few ms: scrypt runs one check at a time, off the event loop).
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createGzip } from 'node:zlib';
import { createClient } from '../src/service/auth/clients.js';
import { startService } from '../src/service/index.js';

const MiB = 1024 * 1024;
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Writes `lines` lines made by `line` to `path`, gzipped or not. */
async function writeLines(path: string, lines: number, line: (i: number) => string, gzip: boolean): Promise<void> {
  const file = createWriteStream(path);
  const out = gzip ? createGzip({ level: 9 }) : file;
  if (gzip) (out as ReturnType<typeof createGzip>).pipe(file);
  let chunk = '';
  for (let i = 0; i < lines; i++) {
    chunk += line(i);
    if (chunk.length >= MiB) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(file, 'close');
}

interface ChildResult {
  beforeKiB: number;
  peakKiB: number;
  outcome: string;
}

/** Parses `path` in a fresh process; its peak RSS before and after parsing, and the outcome. */
function parseInChild(path: string): ChildResult {
  const parser = pathToFileURL(join(ROOT, 'src/service/genotype/parse/index.ts')).href;
  const script = `
    const { readFileSync } = await import('node:fs');
    const hwm = () => Number(/VmHWM:\\s+(\\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))[1]);
    const { parseGenotypeFile } = await import(${JSON.stringify(parser)});
    const beforeKiB = hwm();
    const r = await parseGenotypeFile(process.argv[1]);
    const outcome = r.ok ? 'read ' + r.summary.snp_count.toLocaleString('en-US') + ' markers' : 'refused: ' + r.reason.slice(0, 70) + '…';
    console.log(JSON.stringify({ beforeKiB, peakKiB: hwm(), outcome }));
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, path], {
    encoding: 'utf8',
    cwd: ROOT,
  });
  if (r.status !== 0) throw new Error(`child parse failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as ChildResult;
}

async function parseMemory(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'traitscope-security-bench-'));
  try {
    const calls = ['AA', 'AG', 'GG', 'CC', 'CT', 'TT'];
    const cases: Array<[string, string, number, (i: number) => string, boolean]> = [
      [
        '960k-line 23andMe-shaped file',
        'genome.txt',
        960_000,
        (i) => `rs${1000 + i * 3}\t${(i % 22) + 1}\t${10_000 + i * 7}\t${calls[(i * 7919) % 6]}\n`,
        false,
      ],
      [
        'gzip of 30 million "rsN A" lines (past the limit)',
        'short-lines.txt.gz',
        30_000_000,
        (i) => `rs${i + 1} A\n`,
        true,
      ],
      [
        '9,999,999 markers, plain (just under the limit)',
        'max-markers.txt',
        9_999_999,
        (i) => `rs${i + 1}\t${(i % 22) + 1}\t${i + 1}\t${calls[(i * 7919) % 6]}\n`,
        false,
      ],
    ];
    console.log('Parse memory, each in a fresh process (peak RSS before parsing, peak after, the difference):');
    for (const [label, name, lines, line, gzip] of cases) {
      const path = join(dir, name);
      await writeLines(path, lines, line, gzip);
      const r = parseInChild(path);
      const parse = (r.peakKiB - r.beforeKiB) / 1024;
      console.log(
        `  ${label.padEnd(52)} ${(r.beforeKiB / 1024).toFixed(0).padStart(5)} → ${(r.peakKiB / 1024).toFixed(0).padStart(5)} MiB   parse ${parse.toFixed(0).padStart(4)} MiB ${parse <= 400 ? 'OK' : 'OVER 400'}   ${r.outcome}`,
      );
      await rm(path, { force: true });
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function tokenGuessing(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'traitscope-security-bench-'));
  const service = await startService({ dataDir, port: 0, uiDir: null });
  try {
    const clients = await Promise.all(
      [1, 2, 3].map(async (n) => (await createClient(service.db, { name: `bench ${n}` })).client),
    );
    const appToken = service.appToken();
    const tokenUrl = `${service.origin}/oauth/token`;
    const wrong = 'A'.repeat(43);
    const attempt = async (id: string) => {
      const t0 = performance.now();
      await fetch(tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: id,
          client_secret: wrong,
          grant_type: 'client_credentials',
          audience: `${service.origin}/api/profiles`,
        }),
      });
      return performance.now() - t0;
    };
    // At most 9 failures per client id (10 a minute are checked), in alternating order.
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 27; i++) {
      const id = clients[i % 3].id;
      if (i % 2) {
        known.push(await attempt(id));
        unknown.push(await attempt(randomUUID()));
      } else {
        unknown.push(await attempt(randomUUID()));
        known.push(await attempt(id));
      }
    }
    console.log(
      `\nToken endpoint, wrong secret: known client id median ${median(known).toFixed(1)} ms, unknown id ${median(unknown).toFixed(1)} ms (should not differ)`,
    );

    const apiTimes = async (n: number) => {
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        await fetch(`${service.origin}/api/profiles/`, { headers: { authorization: `Bearer ${appToken}` } });
        times.push(performance.now() - t0);
      }
      return median(times);
    };
    const quiet = await apiTimes(100);
    let guessing = true;
    let guesses = 0;
    const guessers = Array.from({ length: 8 }, async () => {
      while (guessing) {
        await attempt(randomUUID());
        guesses++;
      }
    });
    const busy = await apiTimes(100);
    guessing = false;
    await Promise.all(guessers);
    console.log(
      `API GET /api/profiles/ median: ${quiet.toFixed(1)} ms alone, ${busy.toFixed(1)} ms beside 8 secret guessers (${guesses} guesses answered meanwhile)`,
    );
  } finally {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  console.log(
    `(load average now: ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; figures under load are inflated)`,
  );
  if (process.env.SECURITY_BENCH !== 'tokens') await parseMemory();
  await tokenGuessing();
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
