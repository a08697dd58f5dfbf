/**
 * Memory given back after a large parse (processing/pool.ts): the worker that parsed it is
 * replaced once the job has ended, and its replacement starts only after the old thread has
 * exited, so the old thread's heap and WebAssembly memory are unmapped and the new thread
 * reuses the malloc arena the old one freed its buffers into. Measured through the service's
 * own diagnostics (`memory.rss_mib`, the process's resident memory), each time after the
 * file's background scoring, so the one live worker has its engine loaded both times.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { catalogMarkers, chipMarkers, combine, twentyThreeAndMe } from '../support/genotypes.js';
import {
  clientWithToken,
  jobEnded,
  newProfile,
  openEvents,
  pollUntil,
  request,
  startServer,
  upload,
  type EventStream,
  type TestServer,
} from '../support/server.js';

/** How far above its RSS after a small file the service may stay after a large one (docs/performance.md). */
const RETURNED_WITHIN_MIB = 96;

let server: TestServer;
let token: string;
let events: EventStream;
beforeAll(async () => {
  // One worker; a 512 MiB budget replaces workers after parses expected above 64 MiB: the
  // 1.2-million-marker file's, not the small file's.
  server = await startServer({ env: { TRAITSCOPE_WORKERS: '1', TRAITSCOPE_MEMORY_BUDGET_MIB: '512' } });
  ({ token } = await clientWithToken(server, 'memory returned'));
  events = await openEvents(server, token);
}, 60_000);
afterAll(async () => {
  events?.close();
  await server?.stop();
});

const diagnostics = async () => (await request(`${server.api}/app/diagnostics`, { token: server.appToken })).body;

/** Uploads a file to a new profile and waits until it is processed, scored and the pool idle; the diagnostics then. */
async function processed(file: Buffer, recycled: number) {
  const id = await newProfile(server, token);
  const processing = jobEnded(events, id, 'processing');
  const scoring = jobEnded(events, id, 'scoring');
  expect((await upload(server, token, id, file)).status).toBe(200);
  expect((await processing).data.state).toBe('done');
  expect((await scoring).data.state).toBe('done');
  return pollUntil(
    'the pool idle and its worker ready',
    async () => {
      const d = await diagnostics();
      return d.workers.busy === 0 && d.workers.ready === 1 && d.workers.recycled === recycled ? d : undefined;
    },
    60_000,
  );
}

it(`after a large parse and its worker's replacement, the service's RSS is back within ${RETURNED_WITHIN_MIB} MiB of its RSS after a small file`, async () => {
  const small = Buffer.from(twentyThreeAndMe(combine([catalogMarkers(51), chipMarkers(60_000, 51)])));
  const large = Buffer.from(twentyThreeAndMe(combine([catalogMarkers(52), chipMarkers(1_200_000, 52)])));
  const before = await processed(small, 0);
  const after = await processed(large, 1);
  console.log(
    `RSS after a ${(small.length / 1e6).toFixed(1)} MB file ${before.memory.rss_mib} MiB; after a ${(large.length / 1e6).toFixed(1)} MB file ${after.memory.rss_mib} MiB (peak ${after.memory.peak_rss_mib} MiB)`,
  );
  // The large parse took more, and some of it went back to the system.
  expect(after.memory.peak_rss_mib - after.memory.rss_mib).toBeGreaterThanOrEqual(16);
  expect(after.memory.rss_mib - before.memory.rss_mib).toBeLessThanOrEqual(RETURNED_WITHIN_MIB);
}, 240_000);
