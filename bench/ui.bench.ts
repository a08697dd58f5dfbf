/**
 * The person's path: from choosing a 640k-line 23andMe file in the web UI's file chooser
 * (Debian's Chromium, driven by Playwright, against the service started from the bundle; the
 * browser reads the file from disk as it does for a person) to every result listed: the
 * trait list's header counts as many phenotypes with a result as the service stored for the
 * same file, and its rows are on the page. Baseline in the same run: the same file through
 * the API alone (upload URL, upload, processing and background scoring, followed by events),
 * without a browser. Targets: median at most 1.5 s idle, at most 3 s under background load.
 *
 * Twice: idle, then under background load: one busy process per core (`node -e 'for(;;);'`
 * at the ordinary priority of a person's other programs; TRAITSCOPE_BENCH_LOAD_PROCESSES
 * sets how many), started before the phase and stopped after it. Each phase runs
 * TRAITSCOPE_BENCH_UI_RUNS (default 5) UI runs alternating with API runs, so both see the
 * same load. One file goes through the API first, untimed, so that neither side pays the
 * workers' first job. Each UI run's file differs by a first comment line, of another length
 * each time, so the UI never finds it already imported (it would stop and ask) and, as with
 * two people's real files, no other stored file has its size (only then does the page hash
 * the file).
 *
 * TRAITSCOPE_BENCH_REDUCED_MOTION=1 runs the page with prefers-reduced-motion (no animations),
 * to see what its animations cost. Also printed: where the UI's time went, from the page's own marks (src/renderer/src/lib/
 * timeline.ts), and the CPU time the browser's processes and the service used meanwhile
 * (Linux), since on a 2-core machine every millisecond the browser spends is taken from the
 * service's parsing and scoring.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openBrowser, startApp, type Browser, type RunningApp } from '../test/e2e/support/app.js';
import { openEvents, tempDir, type EventStream } from '../test/support/server.js';
import { chipFile, putBytes } from './service.bench.js';
import { median, recordTarget } from './report.js';

type Scored = Array<{ trait: { code: string; group?: { code: string } } }>;

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const LINES = 640_000;
const RUNS = Number(process.env.TRAITSCOPE_BENCH_UI_RUNS ?? 5);
const LOAD_PROCESSES = Number(process.env.TRAITSCOPE_BENCH_LOAD_PROCESSES ?? cpus().length);
/** The steps the page marks, in order (src/renderer/src/lib/timeline.ts). */
const STEPS = [
  'dropped',
  'profile-created',
  'upload-started',
  'uploaded',
  'processed',
  'scored',
  'results-received',
  'results-shown',
] as const;

const PHASES = [
  { name: 'idle', busyProcesses: 0, limitMs: 1500 },
  { name: 'under background load', busyProcesses: LOAD_PROCESSES, limitMs: 3000 },
] as const;

interface Bench {
  app: RunningApp;
  browser: Browser;
  events: EventStream;
  text: Buffer;
  dir: string;
  phenotypes: number;
  cpu: () => Map<string, number>;
  /** Counts UI runs over both phases: every run's file and name are new. */
  uiRuns: number;
}

export async function run(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    console.log(`Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH): the UI target is skipped.`);
    return;
  }
  const text = chipFile(LINES, 11);
  const dir = tempDir('traitscope-ui-bench-');
  const app = await startApp();
  const browser = await openBrowser();
  const events = await openEvents({ api: `${app.origin}/api` }, app.token);
  try {
    const phenotypes = await throughApi(app, events, text, 'warm-up');
    // A diagnosis: how much of the browser's CPU its animations take while the person waits.
    if (process.env.TRAITSCOPE_BENCH_REDUCED_MOTION === '1')
      await browser.page.emulateMedia({ reducedMotion: 'reduce' });
    await browser.page.goto(app.signInUrl);
    await browser.page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
    const bench: Bench = { app, browser, events, text, dir, phenotypes, cpu: processCpu(app.dataDir), uiRuns: 0 };
    console.log(
      `${LINES.toLocaleString('en-US')}-line file, ${(text.length / 2 ** 20).toFixed(1)} MiB; ${RUNS} runs a phase; background load: ${LOAD_PROCESSES} busy processes`,
    );
    for (const phase of PHASES) await runPhase(bench, phase);
  } finally {
    events.close();
    await browser.close();
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runPhase(bench: Bench, phase: (typeof PHASES)[number]): Promise<void> {
  const { app, events, text, phenotypes } = bench;
  const { page } = bench.browser;
  console.log(`
--- ${phase.name} ---`);
  const busy = startBusyProcesses(phase.busyProcesses);
  try {
    const viaApi: number[] = [];
    const inUi: number[] = [];
    const steps: Array<Record<string, number>> = [];
    const cpuInUi: Array<Map<string, number>> = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await throughApi(app, events, text, `api ${phase.name} ${i}`);
      viaApi.push(performance.now() - t0);

      const n = bench.uiRuns++;
      // A name of its own each run: a second file for a name that exists would stop and ask.
      const file = path.join(bench.dir, `genome_Bench_Run${runName(n)}_v5_Full_20240314.txt`);
      writeFileSync(file, Buffer.concat([Buffer.from(`#${'#'.repeat(n)} run\n`), text]));
      await page.goto(`${app.origin}/`);
      await page.getByRole('heading', { name: 'Your genome, read privately' }).waitFor();
      const chooser = page.waitForEvent('filechooser');
      await page.getByRole('button', { name: 'Choose file…' }).click();
      const picker = await chooser;
      const before = bench.cpu();
      const start = performance.now();
      await picker.setFiles(file);
      await everyResultListed(page, phenotypes);
      inUi.push(performance.now() - start);
      cpuInUi.push(difference(bench.cpu(), before));
      steps.push(await stepTimes(page));
      rmSync(file);
      if (n === 0) {
        const shown = await page.getByTestId('trait-browser').locator('header').textContent();
        console.log(`UI after choosing the file: ${shown?.replace(/\s+/g, ' ').trim()}`);
      }
    }
    console.log(
      `load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      `chosen → every result listed: ${inUi.map((x) => x.toFixed(0)).join(', ')} ms; API alone (upload → every trait stored): ${viaApi.map((x) => x.toFixed(0)).join(', ')} ms (alternating)`,
    );
    console.log(
      `in the page, from the choice (median of ${RUNS}): ${STEPS.slice(1)
        .map((step) => `${step} ${median(steps.map((s) => s[step] ?? NaN)).toFixed(0)}`)
        .join(', ')} ms`,
    );
    const kinds = [...new Set(cpuInUi.flatMap((m) => [...m.keys()]))].sort();
    if (kinds.length > 0)
      console.log(
        `CPU time while the UI ran (median of ${RUNS}): ${kinds.map((k) => `${k} ${median(cpuInUi.map((m) => m.get(k) ?? 0)).toFixed(0)}`).join(', ')} ms`,
      );
    recordTarget({
      target: `From choosing a ${LINES / 1000}k-line file in the UI to all results listed (Chromium), ${phase.name}`,
      figure: median(inUi),
      unit: 'ms',
      limit: phase.limitMs,
      baseline: { name: 'the same through the API alone', value: median(viaApi), unit: 'ms' },
      note: phase.busyProcesses > 0 ? `${phase.busyProcesses} busy processes` : undefined,
    });
  } finally {
    await stopBusyProcesses(busy);
  }
}

/** a, b, …, z, ba, bb, …: letters only, as a person's name in a file name is. */
function runName(n: number): string {
  let out = '';
  do {
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26);
  } while (n > 0);
  return out;
}

/** One endless loop per process, at the priority of the person's other programs. */
function startBusyProcesses(n: number): ChildProcess[] {
  return Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'for(;;);'], { stdio: 'ignore' }));
}

async function stopBusyProcesses(children: ChildProcess[]): Promise<void> {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/**
 * A new profile, then the clock: upload URL, upload and every trait scored and stored (the
 * service's `done` event of the background scoring). Returns how many phenotypes have a
 * result: what the UI's list must count.
 */
async function throughApi(app: RunningApp, events: EventStream, bytes: Buffer, name: string): Promise<number> {
  const id = (await app.api<{ id: string }>('POST', '/profiles/', { first_name: name })).body.id;
  const { body } = await app.api<{ url: string }>('GET', `/profiles/${id}/genotype/upload/?content-type=text/plain`);
  // node:http, as the service bench: Node 20's fetch spends up to seconds of its own on a
  // 24 MiB body before the service sees it, which made this baseline slower than the browser.
  const put = await putBytes(body.url, bytes, 'text/plain');
  if (put.status >= 300) throw new Error(`upload failed: ${put.status} ${put.body}`);
  await events.next(
    (e) => e.event === 'job' && e.data.profile_id === id && e.data.kind === 'scoring' && e.data.state === 'done',
    120_000,
  );
  // What "every result listed" means in the UI: one row per phenotype with a result.
  const scored = (await app.api<Scored>('GET', `/profiles/${id}/traits/?score&view=compact`)).body as unknown as Array<{
    trait_code: string;
  }>;
  const catalog = (await app.api<Scored>('GET', '/traits/')).body;
  const group = new Map(catalog.map(({ trait }) => [trait.code, trait.group?.code ?? trait.code]));
  return new Set(scored.map((r) => group.get(r.trait_code))).size;
}

/**
 * Until the list's header counts every phenotype with a result and its rows are on the page,
 * checked whenever the page's DOM changes (a MutationObserver) by reading those two elements.
 * Polling in every animation frame instead kept Chromium drawing frames the page did not
 * need, CPU taken from the service on a 2-core machine; a text search of the whole page on
 * every frame cost its main thread up to 130 ms in a profiled run.
 */
async function everyResultListed(page: Page, phenotypes: number): Promise<void> {
  // Source text, not a function: tsx names the inner functions with a helper the page lacks.
  const expected = JSON.stringify(`${phenotypes.toLocaleString('en-US')} phenotypes with a result`);
  const listed = await page.evaluate<boolean>(`new Promise((resolve) => {
    const done = () => {
      const browser = document.querySelector('[data-testid=trait-browser]');
      const header = browser?.querySelector('.traits-header p')?.textContent ?? '';
      return header.startsWith(${expected}) && !!browser?.querySelector('.trait-list > li');
    };
    if (done()) return resolve(true);
    const observer = new MutationObserver(() => {
      if (!done()) return;
      observer.disconnect();
      clearTimeout(timer);
      resolve(true);
    });
    const timer = setTimeout(() => (observer.disconnect(), resolve(false)), 120000);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  })`);
  if (listed) return;
  const shown = await page
    .locator('main')
    .innerText()
    .catch(() => '(nothing)');
  throw new Error(
    `The page never listed ${phenotypes} phenotypes with a result within 120 s. It shows:\n${shown.slice(0, 1500)}`,
  );
}

/** Each step's time after this run's drop, from the page's marks. */
async function stepTimes(page: Page): Promise<Record<string, number>> {
  return page.evaluate(() => {
    const marks = performance.getEntriesByType('mark').filter((m) => m.name.startsWith('traitscope:'));
    const drop = marks.filter((m) => m.name === 'traitscope:dropped').pop();
    const out: Record<string, number> = {};
    if (!drop) return out;
    for (const m of marks)
      if (m.startTime >= drop.startTime && !(m.name.slice(11) in out))
        out[m.name.slice(11)] = m.startTime - drop.startTime;
    return out;
  });
}

/**
 * A reader of the CPU time (ms) used so far by the service (the process whose command line
 * names its data folder) and by this browser's processes by type (its main process, a child
 * of this one, and every descendant): Linux's /proc; empty elsewhere.
 */
function processCpu(serviceDataDir: string): () => Map<string, number> {
  return () => {
    const out = new Map<string, number>();
    if (!existsSync('/proc/self/stat')) return out;
    const procs = new Map<number, { ppid: number; cpu: number; cmd: string }>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cmd = readFileSync(`/proc/${name}/cmdline`, 'latin1').replace(/\0/g, ' ');
        // utime + stime, in clock ticks of 10 ms (USER_HZ on Linux).
        procs.set(Number(name), { ppid: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) * 10, cmd });
      } catch {
        // gone meanwhile
      }
    }
    const browserPids = new Set<number>();
    for (const [pid, p] of procs) if (p.ppid === process.pid && p.cmd.includes('chrom')) browserPids.add(pid);
    for (const [pid, p] of procs) {
      let kind: string | null = null;
      if (p.cmd.includes(serviceDataDir)) kind = 'service';
      else {
        for (let up: number | undefined = pid; up && procs.has(up); up = procs.get(up)!.ppid)
          if (browserPids.has(up)) {
            kind = `chromium ${/--type=(\S+)/.exec(p.cmd)?.[1] ?? 'browser'}`;
            break;
          }
      }
      if (kind) out.set(kind, (out.get(kind) ?? 0) + p.cpu);
    }
    return out;
  };
}

function difference(after: Map<string, number>, before: Map<string, number>): Map<string, number> {
  return new Map([...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)]));
}
