/**
 * An upload is parsed while it arrives (when a worker is free): the processing job starts
 * with the PUT and follows the file as it is written. What must hold: the processing call
 * joins that job (one parse), nothing is announced or stored before the upload is complete
 * and recorded, and an upload that breaks off, stalls or turns out unreadable leaves the
 * stored genotype and results as they were and the worker free for the next file.
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogMarkers, chipMarkers, combine, twentyThreeAndMe } from '../support/genotypes.js';
import {
  clientWithToken,
  jobEnded,
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
  // One worker, so "the worker is busy" means "busy with this upload", and no job may wait for
  // it: an upload sent while it works is refused (each test sends its uploads once it is free).
  // Stalls end after 3 s.
  server = await startServer({
    env: { TRAITSCOPE_WORKERS: '1', TRAITSCOPE_MAX_QUEUED_JOBS: '0', TRAITSCOPE_BODY_IDLE_SECONDS: '3' },
  });
  ({ token } = await clientWithToken(server, 'arriving uploads'));
  events = await openEvents(server, token);
});
afterAll(async () => {
  events?.close();
  await server?.stop();
});

/**
 * A chip-like file of 3,000 markers (74 kB; each rsID once, as the parser counts them), made
 * once per seed for the file. Its size is not the point: the worker takes the job with the
 * PUT and waits for each byte it reads, so any file whose first half is sent on its own is
 * parsed while it arrives (a larger one cost each parse more and checked nothing more). It
 * carries no trait's markers: what is checked here is its processing, not its scores.
 */
const bigFiles = new Map<number, { file: Buffer; markers: number }>();
function bigFile(seed: number): { file: Buffer; markers: number } {
  let made = bigFiles.get(seed);
  if (!made) {
    const file = Buffer.from(twentyThreeAndMe(combine([chipMarkers(3_000, seed)])));
    const markers = file
      .toString('latin1')
      .split('\n')
      .filter((l) => /^rs\d/.test(l)).length;
    bigFiles.set(seed, (made = { file, markers }));
  }
  return made;
}

async function newProfile(): Promise<string> {
  return (await request(`${server.api}/profiles/`, { method: 'POST', token, json: { ethnicity: 1 } })).body.id;
}

const uploadUrl = async (id: string) =>
  (await request(`${server.api}/profiles/${id}/genotype/upload/`, { token })).body.url as string;

/** A PUT whose body the test sends piece by piece, with the full length declared up front. */
function openPut(url: string, size: number) {
  const req = http.request(url, {
    method: 'PUT',
    headers: { 'content-type': 'text/plain', 'content-length': size },
  });
  const reply = new Promise<{ status: number; body: any }>((resolve, reject) => {
    req.once('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') }));
    });
    req.once('error', reject);
  });
  return { req, reply };
}

const busyWorkers = async () =>
  (await request(`${server.api}/app/diagnostics`, { token: server.appToken })).body.workers.busy as number;
// Nothing announces a job that follows an upload before it is complete, so the pool is read
// (every 100 ms: the worker stays busy with a held upload until its rest arrives).
const workerBusy = () =>
  pollUntil('the worker taking the upload', async () => ((await busyWorkers()) > 0 ? true : undefined), 20_000, 100);
const workerFree = () =>
  pollUntil('the worker becoming free', async () => ((await busyWorkers()) === 0 ? true : undefined), 60_000, 100);

const jobEnd = (id: string, kind: 'processing' | 'scoring') =>
  events.next(
    (e) => e.event === 'job' && e.data.profile_id === id && e.data.kind === kind && e.data.state === 'done',
    120_000,
  );
const jobsOf = (id: string, kind = 'processing') =>
  new Set(
    events.received
      .filter((e) => e.event === 'job' && e.data.profile_id === id && e.data.kind === kind)
      .map((e) => e.data.job_id),
  );

/**
 * The markers of two traits, which profileWithGenotype's results hold (a whole catalog's
 * markers would have all featured traits scored again for each profile).
 */
const twoTraits = () =>
  twentyThreeAndMe(catalogMarkers(3, { traits: (t) => t.code === 'type_2_diabetes' || t.code === 'migraine' }));

/** A profile with a processed genotype whose background scoring has ended, and what the API shows of it. */
async function profileWithGenotype() {
  await workerFree();
  const id = await newProfile();
  expect((await upload(server, token, id, twoTraits())).status).toBe(200);
  expect((await request(`${server.api}/profiles/${id}/genotype/upload/`, { method: 'POST', token })).status).toBe(200);
  await jobEnd(id, 'scoring');
  await workerFree();
  const shown = async () => ({
    genotype: (await request(`${server.api}/profiles/${id}/genotype/`, { token })).body,
    scored: (await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body,
  });
  const before = await shown();
  expect(before.scored.length).toBeGreaterThan(0);
  return { id, before, shown };
}

describe('an upload parsed while it arrives', () => {
  it('is processed once: the processing call joins the job that started with the upload', async () => {
    await workerFree();
    const id = await newProfile();
    const { file, markers } = bigFile(21);
    const { req, reply } = openPut(await uploadUrl(id), file.length);
    req.write(file.subarray(0, file.length >> 1));
    await workerBusy(); // the job runs before the upload is complete …
    // … unseen: no job is announced and nothing is recorded until the file is complete.
    expect(jobsOf(id).size).toBe(0);
    expect((await request(`${server.api}/profiles/${id}/genotype/`, { token })).body).toEqual({});
    req.end(file.subarray(file.length >> 1));
    const put = await reply;
    expect(put.status).toBe(200);
    expect(put.body.size).toBe(String(file.length));
    const sync = await request(`${server.api}/profiles/${id}/genotype/upload/`, { method: 'POST', token });
    expect(sync.status).toBe(200);
    expect(sync.body.detail).toBe(`Processing finished: ${markers} markers read.`);
    const done = await jobEnd(id, 'processing');
    expect(jobsOf(id)).toEqual(new Set([done.data.job_id])); // one processing job: parsed once
    const states = events.received
      .filter((e) => e.event === 'job' && e.data.job_id === done.data.job_id)
      .map((e) => e.data.stage ?? e.data.state);
    expect(states[0]).toBe('queued');
    expect(states).toEqual(expect.arrayContaining(['running', 'parsing', 'storing', 'done']));
    const meta = (await request(`${server.api}/profiles/${id}/genotype/`, { token })).body;
    expect(meta).toMatchObject({
      md5_hash: put.body.md5_hash,
      metadata: { status: 'processed', snp_count: markers },
    });
    await jobEnd(id, 'scoring');
  });

  for (const [how, breakOff] of [
    ['is broken off', (req: http.ClientRequest) => req.destroy()],
    ['stalls (the service closes it)', () => undefined],
  ] as const) {
    it(`${how}: nothing is stored or announced, and the worker is free for the next file`, async () => {
      const { id, before, shown } = await profileWithGenotype();
      const { file, markers } = bigFile(22);
      const { req, reply } = openPut(await uploadUrl(id), file.length);
      reply.catch(() => undefined); // a broken-off request has no reply
      const jobsBefore = jobsOf(id);
      req.write(file.subarray(0, file.length >> 1));
      await workerBusy();
      breakOff(req);
      await workerFree(); // the job that followed the upload ended
      expect(jobsOf(id)).toEqual(jobsBefore);
      expect(await shown()).toEqual(before);
      // The same file, sent whole, is processed.
      expect((await upload(server, token, id, file)).status).toBe(200);
      const sync = await request(`${server.api}/profiles/${id}/genotype/upload/`, { method: 'POST', token });
      expect(sync.body.detail).toBe(`Processing finished: ${markers} markers read.`);
      await jobEnd(id, 'scoring');
      req.destroy();
    });
  }

  it('turns out unreadable early: the processing call says why once it is complete, and the genotype stays', async () => {
    const { id, before, shown } = await profileWithGenotype();
    // A PDF's first bytes are refused at once; the rest still arrives and is recorded.
    const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(3 << 20, 0x41)]);
    const { req, reply } = openPut(await uploadUrl(id), pdf.length);
    req.write(pdf.subarray(0, 1 << 20));
    await workerBusy();
    req.end(pdf.subarray(1 << 20));
    expect((await reply).status).toBe(200);
    const sync = await request(`${server.api}/profiles/${id}/genotype/upload/`, { method: 'POST', token });
    expect(sync.status).toBe(422);
    expect(sync.body.detail).toMatch(/PDF document, not genotype data/);
    const after = await shown();
    expect(after.genotype.metadata).toMatchObject({ status: 'failed', error: sync.body.detail });
    expect(after.genotype.metadata.snp_count).toBe(before.genotype.metadata.snp_count); // the genotype in use is the first file's
    expect(after.scored).toEqual(before.scored);
  });
});

describe('GET /api/app/diagnostics', () => {
  it('reports the event loop, memory and the worker pool to the app, and to no one else', async () => {
    const r = await request(`${server.api}/app/diagnostics?reset`, { token: server.appToken });
    expect(r.status).toBe(200);
    expect(r.body.event_loop.max_ms).toBeGreaterThan(0);
    expect(r.body.memory.peak_rss_mib).toBeGreaterThanOrEqual(r.body.memory.rss_mib);
    expect(r.body.workers).toMatchObject({
      workers: expect.any(Number),
      busy: expect.any(Number),
      replaced: 0,
      queued: 0,
    });
    expect(r.body.workers.workers).toBeGreaterThanOrEqual(1);
    const { token } = await clientWithToken(server, 'curious tool');
    expect((await request(`${server.api}/app/diagnostics`, { token })).status).toBe(403);
  });
});

describe('a full queue', () => {
  it('answers 503 with Retry-After, keeps nothing, and accepts the upload again later', async () => {
    await workerFree();
    const held = await newProfile();
    const small = await newProfile();
    // An upload held half-sent keeps the one worker busy until the test sends the rest: a few
    // lines of a raw-data file, whose processing then fails for too few markers, so no scoring
    // follows it.
    const lines = Buffer.from(
      '# rsid\tchromosome\tposition\tgenotype\nrs4988235\t2\t136608646\tAG\nrs1801133\t1\t11856378\tCT\n',
    );
    const { req, reply } = openPut(await uploadUrl(held), lines.length);
    req.write(lines.subarray(0, lines.length >> 1));
    await workerBusy();
    const file = twoTraits();
    const refused = await upload(server, token, small, file);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body.detail).toMatch(/busy.*Try again in \d+ s/);
    expect((await request(`${server.api}/profiles/${small}/genotype/`, { token })).body).toEqual({}); // nothing kept
    req.end(lines.subarray(lines.length >> 1));
    expect((await reply).status).toBe(200);
    await jobEnded(events, held, 'processing');
    await workerFree();
    expect((await upload(server, token, small, file)).status).toBe(200);
    expect((await jobEnded(events, small, 'processing')).data.state).toBe('done');
  });
});
