/**
 * The service's HTTP server (src/service/http/slow-clients.ts) gives each request and
 * response the express application's prototypes from birth, so express's per-request
 * Object.setPrototypeOf finds nothing to change (switching them made every request's
 * objects survive young-generation collections: docs/performance.md).
 */
import { once } from 'node:events';
import { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../src/service/http/slow-clients.js';

const app = express();
app.get('/hello', (req, res) => res.json({ query: req.query, path: req.path }));
app.put('/echo', express.text(), (req, res) => res.type('text/plain').send(req.body as string));
const server = createHttpServer(app, { headersTimeoutSeconds: 5, bodyIdleSeconds: 5 });
const born: Array<[boolean, boolean]> = [];
server.prependListener('request', (req, res) => {
  born.push([Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response]);
});
let base = '';

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the HTTP server', () => {
  it('creates requests and responses with the express app prototypes, and express works on them', async () => {
    born.length = 0;
    const got = await fetch(`${base}/hello?x=1`);
    expect(await got.json()).toEqual({ query: { x: '1' }, path: '/hello' });
    const echoed = await fetch(`${base}/echo`, {
      method: 'PUT',
      body: 'some text',
      headers: { 'content-type': 'text/plain' },
    });
    expect(await echoed.text()).toBe('some text');
    expect(born).toEqual([
      [true, true],
      [true, true],
    ]);
  });

  it("keeps Node's own request and response for a plain listener", async () => {
    const protos: boolean[] = [];
    const plain = createHttpServer(
      (req, res) => {
        protos.push(
          Object.getPrototypeOf(req) === IncomingMessage.prototype,
          Object.getPrototypeOf(res) === ServerResponse.prototype,
        );
        res.end('ok');
      },
      { headersTimeoutSeconds: 5, bodyIdleSeconds: 5 },
    );
    plain.listen(0, '127.0.0.1');
    await once(plain, 'listening');
    const res = await fetch(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/`);
    expect(await res.text()).toBe('ok');
    expect(protos).toEqual([true, true]);
    await new Promise((resolve) => plain.close(resolve));
  });
});
