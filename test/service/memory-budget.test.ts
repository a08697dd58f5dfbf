/**
 * The service-wide memory budget for parses (processing/memory-budget.ts): with a budget
 * smaller than two parses, a second upload waits until the first parse has ended, both
 * finish, and each parse of a file larger than an eighth of the budget runs in a process of
 * its own (its memory goes back to the system when it exits), a thread taking its place after.
 */
import http from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { catalogMarkers, chipMarkers, combine, twentyThreeAndMe } from '../support/genotypes.js';
import {
  clientWithToken,
  openEvents,
  pollUntil,
  request,
  startServer,
  upload,
  type EventStream,
  type TestServer,
} from '../support/server.js';

let server: TestServer;
let token: string;
let events: EventStream;
beforeAll(async () => {
  // Two workers, so only the budget keeps the second parse from running beside the first.
  // 60 MiB: one parse of a 1.5 MB file is expected at about 56 MiB (48 MiB of buffers).
  server = await startServer({ env: { TRAITSCOPE_WORKERS: '2', TRAITSCOPE_MEMORY_BUDGET_MIB: '60' } });
  ({ token } = await clientWithToken(server, 'memory budget'));
  events = await openEvents(server, token);
});
afterAll(async () => {
  events?.close();
  await server?.stop();
});

const file = (seed: number) =>
  Buffer.from(twentyThreeAndMe(combine([catalogMarkers(seed), chipMarkers(60_000, seed)])));
const newProfile = async (): Promise<string> =>
  (await request(`${server.api}/profiles/`, { method: 'POST', token, json: { ethnicity: 1 } })).body.id;
const workers = async () =>
  (await request(`${server.api}/app/diagnostics`, { token: server.appToken })).body.workers as Record<string, number>;
const jobState = (id: string, state: string) =>
  events.next(
    (e) => e.event === 'job' && e.data.profile_id === id && e.data.kind === 'processing' && e.data.state === state,
    120_000,
  );
const firstIndex = (id: string, state: string) =>
  events.received.findIndex(
    (e) => e.event === 'job' && e.data.profile_id === id && e.data.kind === 'processing' && e.data.state === state,
  );

it('runs a second large parse only after the first, finishes both, each in a process of its own', async () => {
  await pollUntil('both workers ready', async () => ((await workers()).ready === 2 ? true : undefined), 60_000);
  const before = await workers();
  expect(before).toMatchObject({ memory_budget_mib: 60, parse_memory_mib: 0 });

  // The first upload is parsed while it arrives, and held half-sent: its parse keeps running.
  const first = await newProfile();
  const a = file(41);
  const url = (await request(`${server.api}/profiles/${first}/genotype/upload/`, { token })).body.url as string;
  const put = http.request(url, {
    method: 'PUT',
    headers: { 'content-type': 'text/plain', 'content-length': a.length },
  });
  const putDone = new Promise<number>((resolve, reject) => {
    put.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    put.once('error', reject);
  });
  put.write(a.subarray(0, a.length >> 1));
  await pollUntil('the first parse running', async () => ((await workers()).busy === 1 ? true : undefined), 60_000, 20);
  expect((await workers()).parse_memory_mib).toBeGreaterThan(0);

  // The second upload is complete and queued, but a worker is free and does not take it.
  const second = await newProfile();
  expect((await upload(server, token, second, file(42))).status).toBe(200);
  await jobState(second, 'queued');
  expect(await workers()).toMatchObject({ busy: 1, queued: 1 });
  expect(firstIndex(second, 'running')).toBe(-1);

  put.end(a.subarray(a.length >> 1));
  expect(await putDone).toBe(200);
  await jobState(first, 'done');
  await jobState(second, 'done');
  // The second parse started after the first had ended.
  expect(firstIndex(second, 'running')).toBeGreaterThan(firstIndex(first, 'done'));

  // Both ran in processes (not after a crash), and threads are back in their places.
  const after = await pollUntil(
    'the processes gone and the threads ready',
    async () => {
      const w = await workers();
      return w.processes >= before.processes + 2 && w.ready === 2 && w.busy === 0 ? w : undefined;
    },
    120_000,
  );
  expect(after).toMatchObject({ replaced: before.replaced, parse_memory_mib: 0 });
});
