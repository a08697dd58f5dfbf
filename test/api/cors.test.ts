/**
 * CORS for browser-based tools: only listed origins (environment, --cors-origin, Settings)
 * get CORS headers; their preflights are answered before authentication; the Host check
 * stays. Proven with raw requests and with real cross-origin fetches in Chromium.
 */
import http, { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import net, { type AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium.js';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import { clientWithToken, request, startServer, type TestServer } from '../support/server.js';

const FROM_ENV = 'http://tool.example:3000';
const FROM_FLAG = 'http://127.0.0.1:5999';
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startServer({
    env: { TRAITSCOPE_CORS_ORIGINS: `${FROM_ENV}, https://other.example` },
    args: ['--cors-origin', FROM_FLAG],
  });
  ({ token } = await clientWithToken(server, 'browser tool'));
});
afterAll(() => server?.stop());

const preflight = (path: string, origin: string, extra: Record<string, string> = {}) =>
  request(`${server.origin}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
      ...extra,
    },
  });

describe('CORS for listed origins', () => {
  it('answers preflights before authentication, Private Network Access included', async () => {
    for (const origin of [FROM_ENV, FROM_FLAG]) {
      const r = await preflight('/api/profiles/', origin, { 'access-control-request-private-network': 'true' });
      expect(r.status).toBe(204);
      expect(r.headers.get('access-control-allow-origin')).toBe(origin);
      expect(r.headers.get('access-control-allow-methods')).toMatch(/POST/);
      expect(r.headers.get('access-control-allow-headers')?.toLowerCase()).toMatch(/authorization.*content-type/);
      expect(r.headers.get('access-control-allow-private-network')).toBe('true');
      expect(r.headers.get('vary')).toMatch(/Origin/i);
    }
  });

  it('adds CORS headers to responses, errors included, and exposes the challenge', async () => {
    const ok = await request(`${server.api}/profiles/`, { token, headers: { origin: FROM_ENV } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(FROM_ENV);
    const denied = await request(`${server.api}/profiles/`, { headers: { origin: FROM_ENV } });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe(FROM_ENV);
    expect(denied.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('www-authenticate');
  });

  it('covers the token endpoint and the upload URL', async () => {
    expect((await preflight('/oauth/token', FROM_ENV)).headers.get('access-control-allow-origin')).toBe(FROM_ENV);
    const profile = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
    const url = (await request(`${server.api}/profiles/${profile}/genotype/upload/`, { token })).body.url as string;
    const path = new URL(url).pathname + new URL(url).search;
    const pre = await request(`${server.origin}${path}`, {
      method: 'OPTIONS',
      headers: {
        origin: FROM_ENV,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toBe('PUT');
    const put = await request(url, {
      method: 'PUT',
      body: twentyThreeAndMe(catalogMarkers(2).slice(0, 50)),
      headers: { 'content-type': 'text/plain', origin: FROM_ENV },
    });
    expect(put.status).toBe(200);
    expect(put.headers.get('access-control-allow-origin')).toBe(FROM_ENV);
  });
});

/** A raw request (fetch refuses some of these), its status and headers. */
function rawRequest(
  path: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: server.port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('errors made before or outside the routes', () => {
  it('431 (headers too large) carries CORS headers for a listed origin, and none for others', async () => {
    const big = 'x'.repeat(20_000);
    const listed = await rawRequest('/api/profiles/', 'GET', { origin: FROM_ENV, 'x-big': big });
    expect(listed.status).toBe(431);
    expect(listed.headers['access-control-allow-origin']).toBe(FROM_ENV);
    expect(JSON.parse(listed.body)).toMatchObject({ code: 'headers_too_large' });
    const other = await rawRequest('/api/profiles/', 'GET', { origin: 'http://evil.example', 'x-big': big });
    expect(other.status).toBe(431);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('431 carries CORS headers for a listed origin also when the Origin arrived chunks before the oversized header', async () => {
    /** Sends a request head in parts, each read by the service before the next; the raw answer. */
    const headInParts = async (origin: string): Promise<string> => {
      const socket = net.connect(server.port, '127.0.0.1');
      socket.setNoDelay(true);
      socket.on('error', () => {}); // the service closes the connection after its 431
      const received: Buffer[] = [];
      socket.on('data', (d: Buffer) => received.push(d));
      const closed = once(socket, 'close');
      await once(socket, 'connect');
      // Another connection's answer comes after the service read what this one sent before it.
      const readByService = () => request(`${server.api}/version`);
      const parts = [
        `GET /api/profiles/ HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nOrigin: ${origin}\r\n`,
        ...Array.from({ length: 4 }, (_, i) => `X-Part-${i}: ${'x'.repeat(6000)}\r\n`),
        '\r\n',
      ];
      for (const part of parts) {
        if (socket.destroyed || !socket.writable) break;
        socket.write(part);
        await readByService();
      }
      await closed;
      return Buffer.concat(received).toString('latin1');
    };
    const listed = await headInParts(FROM_ENV);
    expect(listed).toMatch(/^HTTP\/1\.1 431 /);
    expect(listed).toContain(`\r\nAccess-Control-Allow-Origin: ${FROM_ENV}\r\n`);
    expect(listed).toContain('"code":"headers_too_large"');
    const other = await headInParts('http://evil.example');
    expect(other).toMatch(/^HTTP\/1\.1 431 /);
    expect(other).not.toMatch(/Access-Control-Allow-Origin/i);
  });

  it('413 (body too large) carries CORS headers for a listed origin, on the API and the token endpoint', async () => {
    const body = JSON.stringify({ first_name: 'x'.repeat(2_000_000) });
    const api = await rawRequest(
      '/api/profiles/',
      'POST',
      { origin: FROM_ENV, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body,
    );
    expect(api.status).toBe(413);
    expect(api.headers['access-control-allow-origin']).toBe(FROM_ENV);
    expect(JSON.parse(api.body)).toMatchObject({ code: 'too_large' });
    const oauth = await rawRequest(
      '/oauth/token',
      'POST',
      { origin: FROM_ENV, 'content-type': 'application/x-www-form-urlencoded' },
      `client_id=${'x'.repeat(2_000_000)}`,
    );
    expect(oauth.status).toBe(413);
    expect(oauth.headers['access-control-allow-origin']).toBe(FROM_ENV);
  });
});

describe('unlisted origins and hosts', () => {
  it('get no CORS headers at all', async () => {
    const pre = await preflight('/api/profiles/', 'http://evil.example');
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expect(pre.headers.get('access-control-allow-methods')).toBeNull();
    const r = await request(`${server.api}/profiles/`, { token, headers: { origin: 'http://evil.example' } });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('keeps the Host check for listed origins too', async () => {
    // fetch cannot set Host: a raw request, as a DNS-rebinding page would make the browser send.
    const headers = await new Promise<{ status: number; allow: unknown }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: server.port,
          path: '/api/profiles/',
          method: 'OPTIONS',
          headers: { host: 'tool.example:3000', origin: FROM_ENV, 'access-control-request-method': 'GET' },
        },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode!, allow: res.headers['access-control-allow-origin'] });
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(headers).toEqual({ status: 403, allow: undefined });
  });

  it('answers OPTIONS alike for every profile id, so it reveals nothing', async () => {
    const mine = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
    const a = await request(`${server.api}/profiles/${mine}/`, { method: 'OPTIONS' });
    const b = await request(`${server.api}/profiles/00000000-0000-4000-8000-000000000000/`, { method: 'OPTIONS' });
    expect(a.status).toBe(b.status);
    expect(a.headers.get('allow')).toBe(b.headers.get('allow'));
    expect(a.body).toEqual(b.body);
  });
});

describe('the Settings list', () => {
  it('is read and replaced by the app, validated, and takes effect at once', async () => {
    const app = server.appToken;
    const before = await request(`${server.api}/app/cors`, { token: app });
    expect(before.body).toEqual({ origins: [], fixed: [FROM_ENV, 'https://other.example', FROM_FLAG] });
    const bad = await request(`${server.api}/app/cors`, {
      method: 'PUT',
      token: app,
      json: { origins: ['localhost:3000'] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/scheme:\/\/host/);
    const set = await request(`${server.api}/app/cors`, {
      method: 'PUT',
      token: app,
      json: { origins: ['http://LOCALHOST:5173/'] },
    });
    expect(set.body.origins).toEqual(['http://localhost:5173']);
    expect((await preflight('/api/traits/', 'http://localhost:5173')).headers.get('access-control-allow-origin')).toBe(
      'http://localhost:5173',
    );
    expect((await request(`${server.api}/app/cors`, { token })).status).toBe(403);
    await request(`${server.api}/app/cors`, { method: 'PUT', token: app, json: { origins: [] } });
    expect(
      (await preflight('/api/traits/', 'http://localhost:5173')).headers.get('access-control-allow-origin'),
    ).toBeNull();
  });
});

describe('a page on another origin, in Chromium', () => {
  let pages: Server;
  beforeAll(async () => {
    pages = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>tool</title>'),
    );
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise((resolve) => pages.close(resolve)));

  it('can call the API when its origin is listed, and cannot when not', async () => {
    const port = (pages.address() as AddressInfo).port;
    const listed = `http://localhost:${port}`;
    await request(`${server.api}/app/cors`, { method: 'PUT', token: server.appToken, json: { origins: [listed] } });
    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    });
    try {
      const call = async (pageOrigin: string) => {
        const page = await browser.newPage();
        await page.goto(pageOrigin);
        const result = await page.evaluate(
          async ({ api, token }) => {
            try {
              const created = await fetch(`${api}/profiles/`, {
                method: 'POST',
                headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
                body: '{"first_name":"Ada"}',
              });
              const noToken = await fetch(`${api}/profiles/`);
              return { created: created.status, challenge: noToken.headers.get('www-authenticate') };
            } catch (err) {
              return { error: String(err) };
            }
          },
          { api: server.api, token },
        );
        await page.close();
        return result;
      };
      expect(await call(listed)).toEqual({ created: 201, challenge: expect.stringMatching(/^Bearer/) });
      expect(await call(`http://127.0.0.1:${port}`)).toEqual({ error: expect.stringMatching(/Failed to fetch/) });
    } finally {
      await browser.close();
      await request(`${server.api}/app/cors`, { method: 'PUT', token: server.appToken, json: { origins: [] } });
    }
  });
});
