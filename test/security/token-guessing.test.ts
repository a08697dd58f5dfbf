/**
 * Guessing client secrets cannot slow the API or probe for client ids: failed checks are
 * limited per client id (429 slow_down with Retry-After, in RFC 6749's error format), run
 * one at a time off the event loop, and the rest of the API keeps answering.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AttemptLimiter } from '../../src/service/auth/attempt-limits.js';
import { clientWithToken, request, startServer, type Credentials, type TestServer } from '../support/server.js';

describe('AttemptLimiter', () => {
  const options = { failures: 3, windowMs: 60_000, concurrent: 1, queued: 2, maxTracked: 4 };

  it('refuses a client id after its failures until the window ends, and forgets it on success', () => {
    const limiter = new AttemptLimiter(options);
    for (let i = 0; i < 3; i++) {
      expect(limiter.admit('a', 1000).ok).toBe(true);
      limiter.failed('a', 1000);
    }
    expect(limiter.admit('a', 2000)).toEqual({ ok: false, reason: 'client', retryAfterSeconds: 59 });
    expect(limiter.admit('b', 2000).ok).toBe(true);
    expect(limiter.admit('a', 61_000).ok).toBe(true);
    limiter.failed('c', 0);
    limiter.succeeded('c');
    for (let i = 0; i < 2; i++) limiter.failed('c', 0);
    expect(limiter.admit('c', 0).ok).toBe(true);
  });

  it('remembers a bounded number of ids, forgetting the oldest', () => {
    const limiter = new AttemptLimiter(options);
    for (let i = 0; i < 3; i++) limiter.failed('first', 0);
    for (let id = 0; id < 4; id++) limiter.failed(`other${id}`, 0);
    expect(limiter.admit('first', 0).ok).toBe(true); // evicted: the table stays at maxTracked
  });

  it('runs one check at a time and refuses when the queue is full', async () => {
    const limiter = new AttemptLimiter(options);
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = limiter.check(async () => {
      await gate;
      order.push('first');
    });
    const queued = [
      limiter.check(async () => void order.push('second')),
      limiter.check(async () => void order.push('third')),
    ];
    expect(limiter.admit('x')).toEqual({ ok: false, reason: 'busy', retryAfterSeconds: 1 });
    release();
    await Promise.all([first, ...queued]);
    expect(order).toEqual(['first', 'second', 'third']);
    expect(limiter.admit('x').ok).toBe(true);
  });
});

describe('the token endpoint under guessing', () => {
  let server: TestServer;
  let victim: Credentials;
  let bystander: { creds: Credentials; token: string };
  beforeAll(async () => {
    server = await startServer();
    ({ creds: victim } = await clientWithToken(server, 'victim'));
    bystander = await clientWithToken(server, 'bystander');
  });
  afterAll(() => server?.stop());

  const guess = (client_id: string, client_secret = 'A'.repeat(43)) =>
    request(`${server.origin}/oauth/token`, {
      method: 'POST',
      json: { client_id, client_secret, grant_type: 'client_credentials', audience: `${server.api}/profiles` },
    });

  it('answers 429 slow_down with Retry-After after ten failures for one client id', async () => {
    for (let i = 0; i < 10; i++) expect((await guess(victim.client_id)).status).toBe(401);
    const limited = await guess(victim.client_id);
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: 'slow_down',
      error_description: expect.stringMatching(/try again in \d+ s/),
    });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('cache-control')).toBe('no-store');
    // Other clients are not affected.
    const other = await guess(bystander.creds.client_id, bystander.creds.client_secret);
    expect(other.status).toBe(200);
  });

  it('treats unknown client ids like known ones, and keeps the API answering while guessers run', async () => {
    const unknown = randomUUID();
    const statuses = new Set<number>();
    for (let i = 0; i < 11; i++) statuses.add((await guess(unknown)).status);
    expect([...statuses].sort()).toEqual([401, 429]); // the same limit as for a real id: nothing tells them apart

    let guessing = true;
    const guessers = Array.from({ length: 8 }, async () => {
      const seen = new Set<number>();
      while (guessing) seen.add((await guess(randomUUID())).status);
      return seen;
    });
    const api: number[] = [];
    for (let i = 0; i < 20; i++)
      api.push((await request(`${server.api}/profiles/`, { token: bystander.token })).status);
    guessing = false;
    const guesserStatuses = new Set((await Promise.all(guessers)).flatMap((s) => [...s]));
    expect(api.every((s) => s === 200)).toBe(true);
    expect([...guesserStatuses].every((s) => s === 401 || s === 429)).toBe(true);
  });
});
