/**
 * Slow or stuck clients cannot hold sockets, upload slots or partial files: headers must
 * arrive in time, a body must keep arriving, and uploads are capped in all and per
 * profile. The service runs with 1 s for headers and 1 s for body stalls here (the
 * defaults are 20 s and 30 s), and answers a wrong client secret after 2 s (twice those
 * deadlines: a request the service takes long to answer, for no CPU).
 *
 * Nothing here depends on how fast the machine is: sockets' ends are 'close' events, an
 * upload is known to hold its slot once the route has answered 100 Continue, and held
 * uploads keep sending (20 times the idle threshold) until the test lets them stall. The
 * one assumption is that this process is never stalled for a whole second: a client that
 * connects and then says nothing for longer is, to the service, a slow client (0.3 s for
 * headers once made the helper's own sign-in request get 408 on a loaded machine).
 */
import { once } from 'node:events';
import { readdirSync, watch } from 'node:fs';
import type { Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replyToClientErrors } from '../../src/service/http/client-errors.js';
import { createHttpServer } from '../../src/service/http/slow-clients.js';
import { clientWithToken, request, startServer, type Credentials, type TestServer } from '../support/server.js';

let server: TestServer;
let creds: Credentials;
let token: string;
/** How long the service holds back its answer to a wrong client secret here. */
const FAILURE_DELAY_MS = 2000;
beforeAll(async () => {
  server = await startServer({
    env: {
      TRAITSCOPE_HEADERS_TIMEOUT_SECONDS: '1',
      TRAITSCOPE_BODY_IDLE_SECONDS: '1',
      TRAITSCOPE_MAX_CONCURRENT_UPLOADS: '3',
      TRAITSCOPE_AUTH_FAILURE_DELAY_MS: String(FAILURE_DELAY_MS),
    },
  });
  ({ creds, token } = await clientWithToken(server, 'slow tool'));
});
afterAll(() => server?.stop());

interface Connection {
  socket: Socket;
  /** Everything the service sent so far. */
  received: () => string;
}

/** A raw connection that reads what it is sent: a socket that never reads would never see its end. */
function open(port = server.port): Promise<Connection> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () => resolve({ socket, received: () => received }));
    socket.on('data', (d: Buffer) => (received += d.toString()));
    socket.once('error', reject);
  });
}
const closed = (s: Socket) =>
  new Promise<void>((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));
/** Resolves once the service has sent something that matches; rejects if the connection ends first. */
const receivedMatch = (c: Connection, pattern: RegExp) =>
  new Promise<void>((resolve, reject) => {
    const check = () => {
      if (pattern.test(c.received())) resolve();
      else if (c.socket.destroyed) reject(new Error(`connection closed after ${JSON.stringify(c.received())}`));
      else return;
      c.socket.off('data', check).off('close', check);
    };
    c.socket.on('data', check).on('close', check);
    check();
  });

async function newProfile(): Promise<string> {
  return (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
}
async function uploadTarget(id: string): Promise<URL> {
  return new URL((await request(`${server.api}/profiles/${id}/genotype/upload/`, { token })).body.url);
}
const putHead = (url: URL, length: number, extra = '') =>
  `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: text/plain\r\nContent-Length: ${length}\r\n${extra}\r\n`;

/** Starts a PUT that declares `length` bytes and sends only `sent`, then stalls. */
async function stalledUpload(url: URL, length: number, sent: string): Promise<Connection> {
  const c = await open();
  c.socket.write(putHead(url, length) + sent);
  return c;
}

/**
 * Starts a PUT and waits for its 100 Continue, which the route sends once the upload holds
 * its slot; it then keeps sending about 2 KiB per 100 ms (the service cuts a body that
 * brings less than 1 KiB per second) until `stall()`.
 */
async function heldUpload(url: URL): Promise<Connection & { stall: () => void }> {
  const c = await open();
  c.socket.write(putHead(url, 100_000_000, 'Expect: 100-continue\r\n'));
  await receivedMatch(c, /^HTTP\/1\.1 100 Continue\r\n\r\n/);
  const chunk = 'rs1\t1\t100\tAA\n'.repeat(150);
  const feed = setInterval(() => {
    if (!c.socket.destroyed) c.socket.write(chunk);
  }, 100);
  c.socket.once('close', () => clearInterval(feed));
  return { ...c, stall: () => clearInterval(feed) };
}

const genotypesDir = () => path.join(server.dataDir, 'genotypes');
const genotypeFiles = () => {
  try {
    return readdirSync(genotypesDir());
  } catch {
    return [];
  }
};
/** Resolves once `done()` holds, looking again at each change in the genotypes folder (no polling). */
const genotypesUntil = (done: () => boolean) =>
  new Promise<void>((resolve, reject) => {
    if (done()) return resolve();
    const watcher = watch(genotypesDir());
    const check = () => {
      if (!done()) return;
      watcher.close();
      resolve();
    };
    watcher.on('change', check).on('error', reject);
    check();
  });

describe('slow clients', () => {
  it('a socket trickling its headers, or sending nothing, is closed; one that sends nothing is told why (408)', async () => {
    const trickling = await Promise.all(Array.from({ length: 20 }, () => open()));
    const silent = await Promise.all(Array.from({ length: 5 }, () => open()));
    for (const { socket } of trickling) socket.write('GET /api/profiles/ HTTP/1.1\r\nHost: 127.0.0.1');
    const trickle = setInterval(() => {
      for (const { socket } of trickling) if (!socket.destroyed) socket.write('x');
    }, 200);
    try {
      await Promise.all([...trickling, ...silent].map((c) => closed(c.socket)));
    } finally {
      clearInterval(trickle);
    }
    for (const c of silent) expect(c.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n[^]*"detail"/);
  });

  it('a stalled upload is closed and its partial file removed; the profile keeps no record of it', async () => {
    const id = await newProfile();
    const before = genotypeFiles().length;
    const { socket } = await stalledUpload(await uploadTarget(id), 100_000, 'rs1\t1\t100\tAA\n'.repeat(100));
    await closed(socket);
    // The route removes the partial file once the broken transfer has unwound.
    await genotypesUntil(() => genotypeFiles().length === before);
    expect((await request(`${server.api}/profiles/${id}/genotype/`, { token })).body).toEqual({});
  });

  it('caps concurrent uploads per profile and in all with 429, and frees a slot when its upload is cut off', async () => {
    const put = async (id: string, body: string) =>
      request(String(await uploadTarget(id)), { method: 'PUT', body, headers: { 'content-type': 'text/plain' } });
    const first = await newProfile();
    const held = [await heldUpload(await uploadTarget(first)), await heldUpload(await uploadTarget(first))];
    const perProfile = await put(first, 'rs1\tAA\n');
    expect(perProfile.status).toBe(429);
    expect(perProfile.body.detail).toMatch(/Too many uploads/);
    expect(perProfile.headers.get('retry-after')).toBeTruthy();
    held.push(await heldUpload(await uploadTarget(await newProfile())));
    const third = await newProfile();
    expect((await put(third, 'rs1\tAA\n')).status).toBe(429);
    // Once the held ones stall and are cut off, uploads are accepted again.
    for (const h of held) h.stall();
    await Promise.all(held.map((h) => closed(h.socket)));
    expect((await put(third, 'rs1\t1\t100\tAA\n')).status).toBe(200);
  });

  it('a request the service takes long to answer is not cut off (a wrong secret answered after 2 s)', async () => {
    // Answered after twice the headers and body deadlines: a layer that cut requests the
    // service is still working on would have closed it. Unlike a genome's processing, the
    // wait is the same on any machine and costs one scrypt check.
    const started = performance.now();
    const r = await request(`${server.origin}/oauth/token`, {
      method: 'POST',
      json: {
        ...creds,
        client_secret: 'A'.repeat(43),
        grant_type: 'client_credentials',
        audience: `${server.api}/profiles`,
      },
    });
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('invalid_client');
    expect(performance.now() - started).toBeGreaterThanOrEqual(FAILURE_DELAY_MS);
  });

  it('a body that arrives slowly but steadily is not cut off', async () => {
    const id = await newProfile();
    const body = 'rs4988235\t2\t136608646\tAG\n'.repeat(1200);
    const url = await uploadTarget(id);
    const c = await open();
    c.socket.write(putHead(url, body.length, 'Connection: close\r\n'));
    // A slow client's pace: 2 KiB every 100 ms, 20 times the 1 KiB per idle window (1 s), for about 1.5 s.
    for (let i = 0; i < body.length; i += 2048) {
      c.socket.write(body.slice(i, i + 2048));
      await new Promise((r) => setTimeout(r, 100));
    }
    await closed(c.socket);
    expect(c.received()).toMatch(/^HTTP\/1\.1 200/);
  });
});

/**
 * The HTTP layer in this process, so the test can make the service busy: the event loop
 * blocked for twice a deadline (past the deadline and Node's next check) while a client's
 * bytes wait unread. Timers run before the service reads them; the verdict must wait
 * until it has.
 */
describe("the service's own busy time does not count against a client", () => {
  let http: Server;
  let port: number;
  const HEADERS_MS = 500;
  const BODY_IDLE_MS = 500;
  const busyFor = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  beforeAll(async () => {
    http = createHttpServer(
      (req, res) => {
        req.resume();
        req.on('end', () => res.end('ok'));
      },
      { headersTimeoutSeconds: HEADERS_MS / 1000, bodyIdleSeconds: BODY_IDLE_MS / 1000 },
    );
    replyToClientErrors(http);
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    port = (http.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => http.close(resolve)));

  async function openAccepted(): Promise<Connection> {
    const accepted = once(http, 'connection');
    const c = await open(port);
    await accepted;
    return c;
  }

  it('headers that arrived while the service was busy get their answer, not 408', async () => {
    const c = await openAccepted();
    c.socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    busyFor(2 * HEADERS_MS);
    await closed(c.socket);
    expect(c.received()).toMatch(/^HTTP\/1\.1 200 [^]*ok$/);
  });

  it('body bytes that arrived while the service was busy count as progress', async () => {
    const c = await openAccepted();
    const requestStarted = once(http, 'request');
    c.socket.write('PUT / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 4096\r\n\r\n');
    await requestStarted;
    c.socket.write('x'.repeat(2048));
    busyFor(2 * BODY_IDLE_MS);
    // Sent after the service's pause, once it has had a chance to cut the connection.
    await new Promise((r) => setImmediate(r));
    c.socket.write('x'.repeat(2048));
    await closed(c.socket);
    expect(c.received()).toMatch(/^HTTP\/1\.1 200 [^]*ok$/);
  });
});
