/**
 * Memory given back after a large parse (processing/engine-process.ts): a parse expected
 * above an eighth of the budget, and then the scoring of the genotype it stored, run in a
 * child process of their own, so everything they took goes back when it exits; a thread
 * takes the worker's place after it. Measured through the service's own diagnostics (`memory.rss_mib`,
 * the service's resident memory), each time after a small file has been processed and scored
 * on the pool's one thread, so the thread has its engine loaded and a small genotype in
 * memory both times. Both times come after an upload as large as the large file: receiving
 * any upload leaves up to ~30 MiB of freed socket buffers in the service's own C heap, which
 * the next upload reuses (docs/performance.md, "Memory"); this test measures what the parse
 * and the scoring leave, so the first one is a file of that size that is no genotype.
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

/**
 * How far above its RSS after a small file the service may stay once a large file has been
 * processed (docs/performance.md): +11 to +20 MiB measured; +49 MiB with the large parse and
 * its scoring on threads (the parsing one replaced afterwards), what glibc kept of their freed buffers.
 */
const RETURNED_WITHIN_MIB = 32;

let server: TestServer;
let token: string;
let events: EventStream;
beforeAll(async () => {
  // One worker; a 512 MiB budget runs parses expected above 64 MiB in a process of their
  // own: the 2-million-marker file's, not the small file's.
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
async function processed(file: Buffer, outcome: 'done' | 'failed' = 'done') {
  const id = await newProfile(server, token);
  const processing = jobEnded(events, id, 'processing');
  const scoring = outcome === 'done' ? jobEnded(events, id, 'scoring') : null;
  expect((await upload(server, token, id, file)).status).toBe(200);
  expect((await processing).data.state).toBe(outcome);
  if (scoring) expect((await scoring).data.state).toBe('done');
  return pollUntil(
    'the pool idle and its worker ready',
    async () => {
      const d = await diagnostics();
      const w = d.workers;
      return w.busy === 0 && w.ready === 1 && w.queued === 0 && w.background === 0 ? d : undefined;
    },
    60_000,
  );
}

it(`after a large file, the service's RSS is back within ${RETURNED_WITHIN_MIB} MiB of its RSS after a small file`, async () => {
  const small = (seed: number) =>
    Buffer.from(twentyThreeAndMe(combine([catalogMarkers(seed), chipMarkers(60_000, seed)])));
  const large = Buffer.from(twentyThreeAndMe(combine([catalogMarkers(52), chipMarkers(2_000_000, 52)])));
  // Refused at once ("No genotype lines found"): received, but no large parse.
  const notAGenotype = Buffer.alloc(large.length, 'this line is no genotype\n');
  expect((await processed(notAGenotype, 'failed')).workers.processes).toBe(1);
  const before = await processed(small(51));
  await processed(large);
  const after = await processed(small(53));
  console.log(
    `RSS after a ${(small(51).length / 1e6).toFixed(1)} MB file ${before.memory.rss_mib} MiB; after a ${(large.length / 1e6).toFixed(1)} MB file and another small one ${after.memory.rss_mib} MiB (service's peak ${after.memory.peak_rss_mib} MiB)`,
  );
  expect(after.memory.rss_mib - before.memory.rss_mib).toBeLessThanOrEqual(RETURNED_WITHIN_MIB);
  // The large file's parse and then its scoring ran in a process of its own; the small files' on the thread.
  expect(after.workers).toMatchObject({ processes: 2, replaced: 0 });
}, 300_000);
