/**
 * Guessing client secrets slows only the guesser: made-up client ids are refused before any
 * hashing, known ones take fair turns per id and origin (one scrypt check at a time, off
 * the event loop), failed checks are answered after a growing delay, and the rightful
 * client's token request succeeds whatever others send. The rest of the API keeps answering.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptLimiter } from '../../src/service/auth/attempt-limits.js';
import { resolveConfig } from '../../src/service/config.js';
import {
  clientWithToken,
  newClient,
  request,
  startServer,
  type Credentials,
  type TestServer,
} from '../support/server.js';

describe('AttemptLimiter', () => {
  const options = {
    windowMs: 60_000,
    failureDelayMs: 250,
    maxDelayMs: 1000,
    concurrent: 1,
    perKey: 2,
    queued: 3,
    maxTracked: 4,
  };

  it('holds back the answers of a failing key longer with each failure, up to a bound, and forgets them on success', () => {
    const limiter = new AttemptLimiter(options);
    expect([1, 2, 3, 4, 5].map(() => limiter.failed('a', 1000))).toEqual([250, 500, 750, 1000, 1000]);
    expect(limiter.failed('b', 1000)).toBe(250); // another key is not slowed
    expect(limiter.failed('a', 61_001)).toBe(250); // the window ended
    limiter.succeeded('a');
    expect(limiter.failed('a', 61_002)).toBe(250);
    expect(limiter.admit('a').ok).toBe(true); // never locked out
  });

  it('lets keys take turns, so a flooding key never makes another wait for more than one of its checks', async () => {
    const limiter = new AttemptLimiter(options);
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = limiter.check('flood', async () => {
      await gate;
      order.push('flood0');
    });
    const queued = [
      limiter.check('flood', async () => void order.push('flood1')),
      limiter.check('flood', async () => void order.push('flood2')),
    ];
    // The flooding key has its two waiting; a third is refused, another key is admitted.
    expect(limiter.admit('flood')).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(limiter.admit('owner').ok).toBe(true);
    queued.push(limiter.check('owner', async () => void order.push('owner')));
    expect(limiter.admit('third')).toEqual({ ok: false, retryAfterSeconds: 1 }); // all keys together: 3
    release();
    await Promise.all([first, ...queued]);
    expect(order).toEqual(['flood0', 'flood1', 'owner', 'flood2']);
  });
});

describe('TRAITSCOPE_AUTH_FAILURE_DELAY_MS', () => {
  const resolveWith = (value: string | undefined) => {
    const before = process.env.TRAITSCOPE_AUTH_FAILURE_DELAY_MS;
    if (value === undefined) delete process.env.TRAITSCOPE_AUTH_FAILURE_DELAY_MS;
    else process.env.TRAITSCOPE_AUTH_FAILURE_DELAY_MS = value;
    try {
      return resolveConfig().authFailureDelayMs;
    } finally {
      if (before === undefined) delete process.env.TRAITSCOPE_AUTH_FAILURE_DELAY_MS;
      else process.env.TRAITSCOPE_AUTH_FAILURE_DELAY_MS = before;
    }
  };

  it('sets the step of the delays (100 ms unless set) and refuses what is not a number of milliseconds from above 0 to 10,000', () => {
    expect(resolveWith(undefined)).toBe(100);
    expect(resolveWith('20')).toBe(20);
    expect(() => resolveWith('0')).toThrow(/TRAITSCOPE_AUTH_FAILURE_DELAY_MS must be a positive number \(got "0"\)/);
    expect(() => resolveWith('fast')).toThrow(/must be a positive number \(got "fast"\)/);
    expect(() => resolveWith('60000')).toThrow(/TRAITSCOPE_AUTH_FAILURE_DELAY_MS must be at most 10000 \(got 60000\)/);
  });
});

/** The step of the service's delays, smaller than the 100 ms default so the guesses below take less waiting. */
const STEP_MS = 20;

describe('the token endpoint under guessing', () => {
  let server: TestServer;
  let victim: Credentials;
  let bystander: { creds: Credentials; token: string };
  beforeAll(async () => {
    server = await startServer({ env: { TRAITSCOPE_AUTH_FAILURE_DELAY_MS: String(STEP_MS) } });
    // Clients whose tokens are not used are created without one: each token is a scrypt check.
    victim = await newClient(server, 'victim');
    bystander = await clientWithToken(server, 'bystander');
  });
  afterAll(() => server?.stop());

  const guess = (client_id: string, client_secret = 'A'.repeat(43)) =>
    request(`${server.origin}/oauth/token`, {
      method: 'POST',
      json: { client_id, client_secret, grant_type: 'client_credentials', audience: `${server.api}/profiles` },
    });

  it('never locks the owner out: after many wrong secrets the right one gets a token at once', async () => {
    for (let i = 0; i < 11; i++) expect((await guess(victim.client_id)).status).toBe(401);
    const owner = await guess(victim.client_id, victim.client_secret);
    expect(owner.status).toBe(200);
    expect(owner.body.access_token).toBeTruthy();
  }, 60_000);

  it('slows a guesser of a known id: each wrong secret is answered later than the one before', async () => {
    const other = await newClient(server, 'slowed');
    const times: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      expect((await guess(other.client_id)).status).toBe(401);
      times.push(performance.now() - started);
    }
    // The delays are 1, 2, … 10 steps after each check: at least that, whatever the load.
    // Delays that stopped growing would leave the tenth answer at one step and a check (~40 ms).
    times.forEach((t, i) => expect(t).toBeGreaterThanOrEqual((i + 1) * STEP_MS));
  }, 60_000);

  it('refuses a flood of made-up client ids without hashing, while the rightful client gets its token', async () => {
    let flooding = true;
    const flooders = Array.from({ length: 16 }, async () => {
      const seen = new Set<number>();
      while (flooding) seen.add((await guess(randomUUID())).status);
      return seen;
    });
    const owner: number[] = [];
    const api: number[] = [];
    for (let i = 0; i < 5; i++) {
      owner.push((await guess(bystander.creds.client_id, bystander.creds.client_secret)).status);
      api.push((await request(`${server.api}/profiles/`, { token: bystander.token })).status);
    }
    flooding = false;
    const flooded = new Set((await Promise.all(flooders)).flatMap((s) => [...s]));
    expect(owner).toEqual([200, 200, 200, 200, 200]);
    expect(api.every((s) => s === 200)).toBe(true);
    expect([...flooded]).toEqual([401]); // never queued, so never "busy"
  }, 60_000);

  it('a web page posting wrong secrets (no-cors form posts) has its own turn and does not slow the owner', async () => {
    const form = (secret: string) =>
      request(`${server.origin}/oauth/token`, {
        method: 'POST',
        headers: { origin: 'https://attacker.example', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: victim.client_id,
          client_secret: secret,
          grant_type: 'client_credentials',
          audience: `${server.api}/profiles`,
        }).toString(),
      });
    const posts = Array.from({ length: 8 }, () => form('B'.repeat(43)));
    const owner = await guess(victim.client_id, victim.client_secret);
    expect(owner.status).toBe(200);
    const statuses = new Set((await Promise.all(posts)).map((r) => r.status));
    expect([...statuses].every((s) => s === 401 || s === 429 || s === 403)).toBe(true);
  }, 60_000);
});
