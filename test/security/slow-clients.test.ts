/**
 * Slow or stuck clients cannot hold sockets, upload slots or partial files: headers must
 * arrive in time, a body must keep arriving, and uploads are capped in all and per
 * profile. The service runs with 0.3 s for headers and 1 s for body stalls here (the
 * defaults are 20 s and 30 s).
 */
import { connect, type Socket } from 'node:net';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import { clientWithToken, request, startServer, upload, type TestServer } from '../support/server.js';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer({
    env: {
      TRAITSCOPE_HEADERS_TIMEOUT_SECONDS: '0.3',
      TRAITSCOPE_BODY_IDLE_SECONDS: '1',
      TRAITSCOPE_MAX_CONCURRENT_UPLOADS: '3',
    },
  });
  ({ token } = await clientWithToken(server, 'slow tool'));
});
afterAll(() => server?.stop());

function open(): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect(server.port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
}
const closed = (s: Socket) =>
  new Promise<void>((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));

async function newProfile(): Promise<string> {
  return (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
}
async function uploadTarget(id: string): Promise<URL> {
  return new URL((await request(`${server.api}/profiles/${id}/genotype/upload/`, { token })).body.url);
}

/** Starts a PUT that declares `length` bytes and sends only `sent`, then stalls. */
async function stalledUpload(
  url: URL,
  length: number,
  sent: string,
): Promise<{ socket: Socket; response: () => string }> {
  const socket = await open();
  let response = '';
  socket.on('data', (d: Buffer) => (response += d.toString()));
  socket.write(
    `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: text/plain\r\nContent-Length: ${length}\r\n\r\n${sent}`,
  );
  return { socket, response: () => response };
}

const genotypeFiles = () => {
  try {
    return readdirSync(path.join(server.dataDir, 'genotypes'));
  } catch {
    return [];
  }
};

describe('slow clients', () => {
  it('a socket trickling its headers, or sending nothing, is closed', async () => {
    const trickling = await Promise.all(Array.from({ length: 20 }, () => open()));
    const silent = await Promise.all(Array.from({ length: 5 }, () => open()));
    for (const s of trickling) s.write('GET /api/profiles/ HTTP/1.1\r\nHost: 127.0.0.1');
    const trickle = setInterval(() => trickling.forEach((s) => !s.destroyed && s.write('x')), 200);
    await Promise.all([...trickling, ...silent].map(closed));
    clearInterval(trickle);
  });

  it('a stalled upload is closed and its partial file removed; the profile keeps no record of it', async () => {
    const id = await newProfile();
    const before = genotypeFiles().length;
    const { socket } = await stalledUpload(await uploadTarget(id), 100_000, 'rs1\t1\t100\tAA\n'.repeat(100));
    await closed(socket);
    // The route removes the partial file once the broken transfer has unwound.
    for (let i = 0; i < 50 && genotypeFiles().length > before; i++) await new Promise((r) => setTimeout(r, 100));
    expect(genotypeFiles().length).toBe(before);
    expect((await request(`${server.api}/profiles/${id}/genotype/`, { token })).body).toEqual({});
  });

  it('caps concurrent uploads per profile and in all with 429', async () => {
    const first = await newProfile();
    const held = [
      await stalledUpload(await uploadTarget(first), 1000, 'rs1'),
      await stalledUpload(await uploadTarget(first), 1000, 'rs1'),
    ];
    const perProfile = await request(String(await uploadTarget(first)), {
      method: 'PUT',
      body: 'rs1\tAA\n',
      headers: { 'content-type': 'text/plain' },
    });
    expect(perProfile.status).toBe(429);
    expect(perProfile.body.detail).toMatch(/Too many uploads/);
    expect(perProfile.headers.get('retry-after')).toBeTruthy();
    const second = await newProfile();
    held.push(await stalledUpload(await uploadTarget(second), 1000, 'rs1'));
    const third = await newProfile();
    const total = await request(String(await uploadTarget(third)), {
      method: 'PUT',
      body: 'rs1\tAA\n',
      headers: { 'content-type': 'text/plain' },
    });
    expect(total.status).toBe(429);
    // Once the stalled ones are cut off, uploads are accepted again.
    await Promise.all(held.map((h) => closed(h.socket)));
    const later = await request(String(await uploadTarget(third)), {
      method: 'PUT',
      body: 'rs1\t1\t100\tAA\n',
      headers: { 'content-type': 'text/plain' },
    });
    expect(later.status).toBe(200);
  });

  it('a request the service takes long to answer is not cut off (synchronous processing)', async () => {
    const id = await newProfile();
    expect((await upload(server, token, id, twentyThreeAndMe(catalogMarkers(9)))).status).toBe(200);
    // Queued behind the upload's own processing, then a worker start, a parse and scoring: far longer than 0.3 s.
    const r = await request(`${server.api}/profiles/${id}/genotype/upload/`, { method: 'POST', token });
    expect(r.status).toBe(200);
  });

  it('a body that arrives slowly but steadily is not cut off', async () => {
    const id = await newProfile();
    const body = 'rs4988235\t2\t136608646\tAG\n'.repeat(400);
    const url = await uploadTarget(id);
    const socket = await open();
    let response = '';
    socket.on('data', (d: Buffer) => (response += d.toString()));
    socket.write(
      `PUT ${url.pathname}${url.search} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
    );
    // 2 KiB every 250 ms: more than 1 KiB per idle window (1 s) for about 1.5 s.
    for (let i = 0; i < body.length; i += 2048) {
      socket.write(body.slice(i, i + 2048));
      await new Promise((r) => setTimeout(r, 250));
    }
    await closed(socket);
    expect(response).toMatch(/^HTTP\/1\.1 200/);
  });
});
