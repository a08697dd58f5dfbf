/**
 * Job progress pushed as Server-Sent Events, authenticated like the rest of /api: by the
 * Authorization header, or for EventSource by a one-time ticket URL (never the token). A
 * client hears only about its own profiles. (A full queue's 503 and the diagnostics are
 * test/api/upload-arriving.test.ts's, on its one-worker service.)
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import {
  clientWithToken,
  jobEnded,
  newProfile,
  openEvents,
  request,
  upload,
  type TestServer,
} from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';
import { conformance } from './support/conformance.js';

// The markers of two free traits: a job's events are the point, not how many traits it scores.
const markers = catalogMarkers(41, { traits: (t) => t.code === 'type_2_diabetes' || t.code === 'migraine' });
const file = twentyThreeAndMe(markers);

describe('GET /api/events', () => {
  let server: TestServer;
  let token: string;
  beforeAll(async () => {
    server = sharedServer();
    ({ token } = await clientWithToken(server, 'events tool'));
  });

  it('needs a token like the rest of /api', async () => {
    const r = await request(`${server.api}/events`);
    expect(r.status).toBe(401);
    expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(r.body.detail).toMatch(/Authorization/);
  });

  it('pushes a job from queued to done with its stages, then the results change', async () => {
    const stream = await openEvents(server, token);
    try {
      const id = await newProfile(server, token);
      await upload(server, token, id, file);
      const done = await jobEnded(stream, id, 'processing');
      expect(done.data).toMatchObject({ kind: 'processing', state: 'done', snp_count: markers.length });
      const states = stream.received
        .filter((e) => e.event === 'job' && e.data.job_id === done.data.job_id)
        .map((e) => e.data.stage ?? e.data.state);
      expect(states[0]).toBe('queued');
      expect(states).toEqual(expect.arrayContaining(['running', 'parsing', 'scoring', 'storing', 'done']));
      await stream.next((e) => e.event === 'traits' && e.data.profile_id === id);
      const scoring = await jobEnded(stream, id, 'scoring');
      expect(scoring.data.computed).toBeGreaterThan(0);
      // Every message is one the OpenAPI document describes (its event type and data shape).
      expect(new Set(stream.received.map((e) => e.event))).toEqual(new Set(['ready', 'job', 'traits']));
      for (const message of stream.received)
        expect(conformance().streamMessageProblems('streamEvents', message), JSON.stringify(message)).toEqual([]);
      expect(
        conformance().streamMessageProblems('streamEvents', { event: 'job', data: { profile_id: id } }),
      ).not.toEqual([]);
    } finally {
      stream.close();
    }
  });

  it('opens for EventSource with a one-time ticket URL that never carries the token', async () => {
    const r = await request(`${server.api}/events/url`, { token });
    expect(r.status).toBe(200);
    expect(r.body.expires_in).toBe(60);
    const url = new URL(r.body.url);
    expect(url.origin + url.pathname).toBe(`${server.api}/events`);
    expect(r.body.url).not.toContain(token);
    const controller = new AbortController();
    const stream = await fetch(url, { signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    controller.abort();
    const reused = await request(url.href);
    expect(reused.status).toBe(401);
    expect(reused.body.detail).toMatch(/already used or has expired/);
    expect((await request(`${server.api}/events?ticket=made-up`)).status).toBe(401);
  });

  it('tells a client only about its own profiles', async () => {
    const other = await clientWithToken(server, 'another tool');
    const mine = await openEvents(server, token);
    const theirs = await openEvents(server, other.token);
    try {
      const id = await newProfile(server, token);
      await upload(server, token, id, file);
      await jobEnded(mine, id, 'scoring');
      // Their own job's events come after anything the stream was sent before them.
      const own = await newProfile(server, other.token);
      await upload(server, other.token, own, file);
      await jobEnded(theirs, own, 'processing');
      expect(theirs.received.filter((e) => JSON.stringify(e.data).includes(id))).toEqual([]);
    } finally {
      mine.close();
      theirs.close();
    }
  });
});
