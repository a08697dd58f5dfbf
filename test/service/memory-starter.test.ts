/**
 * The service's side of the process starter a host injects (`startService({ startProcess })`,
 * processing/engine-process.ts): the desktop app passes one built on Electron's
 * utilityProcess, which cannot run here; this test passes one over child_process, the same
 * contract. The bundled service (out/main/library.js) runs in this process, as in the main
 * process; a budget of 60 MiB sends every parse to a process of its own. The real engine
 * worker runs in the injected processes, the spare one is started through the starter too,
 * and closing the service stops them through it, each closing its database and leaving.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningService } from '../../src/service/index.js';
import { forkStarter } from '../support/fork-starter.js';
import { pollUntil, ROOT, tempDir } from '../support/server.js';

type Library = typeof import('../../src/service/library.js');

const root = tempDir('traitscope-starter-');
const started: Array<{ entry: string; child: ChildProcess }> = [];
let service: RunningService | undefined;

const startProcess = forkStarter((entry, child) => started.push({ entry, child }));

/**
 * A few lines of a raw-data file: under this budget any file is parsed in a process of its
 * own, and where the job runs is what is checked here. A catalog-sized genome cost that
 * process the scoring of every trait as well.
 */
const GENOME = '# rsid\tchromosome\tposition\tgenotype\nrs4988235\t2\t136608646\tAG\nrs1801133\t1\t11856378\tCT\n';

beforeAll(async () => {
  const library = (await import(pathToFileURL(path.join(ROOT, 'out', 'main', 'library.js')).href)) as Library;
  service = await library.startService({
    dataDir: path.join(root, 'data'),
    port: 0,
    uiDir: null,
    workers: 1,
    memoryBudgetMib: 60,
    // The spare too (off by default), so that its start and stop go through the starter as well.
    spareProcess: true,
    startProcess,
  });
}, 60_000);

afterAll(async () => {
  await service?.close();
  rmSync(root, { recursive: true, force: true });
});

it('runs large jobs in processes started by the injected starter, and stops them through it', async () => {
  const s = service!;
  const stats = () => s.processor.stats();
  // The spare is started through the starter once the thread is ready.
  await pollUntil('the spare ready', async () => (stats().spare_ready ? true : undefined), 60_000, 100);
  expect(started.map((p) => path.basename(p.entry))).toEqual(['engine-worker.js']);

  const res = await fetch(`${s.origin}/api/profiles/`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${s.appToken()}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ first_name: 'Starter' }),
  });
  const profile = (await res.json()) as { id: string };
  const file = path.join(root, 'genome.txt');
  writeFileSync(file, GENOME);
  const ended = new Promise<string>((resolve) => {
    const stop = s.processor.events.subscribe((event) => {
      if (event.type !== 'job' || event.data.kind !== 'processing' || event.data.profile_id !== profile.id) return;
      if (event.data.state === 'done' || event.data.state === 'failed') {
        stop();
        resolve(event.data.state);
      }
    });
  });
  await s.ingestFile(file, profile.id);
  expect(await ended).toBe('done');
  // Processed by the spare: no process was forked any other way.
  expect(stats()).toMatchObject({ processes: 1, spares: 1, replaced: 0 });
  // Once its scoring has ended too, that process leaves on its own (the service stops it
  // through the starter) and the next spare is started through the starter.
  await pollUntil(
    'the first process gone',
    async () => (started[0].child.exitCode === null ? undefined : true),
    60_000,
    100,
  );
  expect([started[0].child.exitCode, started[0].child.signalCode]).toEqual([0, null]);
  await pollUntil('a new spare ready', async () => (stats().spare_ready ? true : undefined), 60_000, 100);
  expect(started).toHaveLength(2);

  await s.close();
  service = undefined;
  await pollUntil('the spare gone', async () => (started[1].child.exitCode === null ? undefined : true), 10_000, 50);
  expect([started[1].child.exitCode, started[1].child.signalCode]).toEqual([0, null]);
}, 180_000);
