/**
 * Every trait is scored and stored in the background after processing, while API clients
 * keep the spec's pricing: a basic trait is `computed` for a client only once it asked, and
 * asking answers from the stored result. Trait lists carry an ETag; synchronous processing
 * joins the upload's own processing; a profile change rescores everything before the answer.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import {
  clientWithToken,
  jobEnded,
  newProfile,
  openEvents,
  request,
  upload,
  type EventStream,
  type TestServer,
} from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
let token: string;
let events: EventStream;
const file = twentyThreeAndMe(catalogMarkers(31));

beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'background tool'));
  events = await openEvents(server, token);
});
afterAll(() => events?.close());

const db = () => new Database(path.join(server.dataDir, 'traitscope.db'), { readonly: true });

describe('background scoring', () => {
  let id: string;
  let pricing: Map<string, string>;

  beforeAll(async () => {
    id = await newProfile(server, token);
    pricing = new Map((await request(`${server.api}/traits/`, { token })).body.map((t: any) => [t.trait.code, t.type]));
    await upload(server, token, id, file);
    expect((await jobEnded(events, id, 'processing')).data.state).toBe('done');
    expect((await jobEnded(events, id, 'scoring')).data).toMatchObject({ state: 'done' });
  });

  it('stores an outcome for every trait of the catalog without anyone asking', () => {
    const check = db();
    const computed = (
      check.prepare('SELECT count(*) AS n FROM assessments WHERE profile_id = ?').get(id) as { n: number }
    ).n;
    const unavailable = (
      check.prepare('SELECT count(*) AS n FROM unavailable_traits WHERE profile_id = ?').get(id) as { n: number }
    ).n;
    check.close();
    expect(computed).toBeGreaterThan(0);
    expect(computed + unavailable).toBe(pricing.size);
  });

  it('shows a third-party client its free traits as computed and stored basic ones as available', async () => {
    const list = (await request(`${server.api}/profiles/${id}/traits/`, { token })).body;
    const computed = list.filter((t: any) => t.status === 'computed').map((t: any) => t.trait.code);
    expect(computed.length).toBeGreaterThan(0);
    expect(computed.every((code: string) => pricing.get(code) === 'free')).toBe(true);
    const scored = (await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body;
    expect(scored.map((t: any) => t.trait.code).sort()).toEqual([...computed].sort());
    const basic = list.find((t: any) => t.status === 'available' && pricing.get(t.trait.code) === 'basic');
    expect(basic).toBeDefined();
    expect((await request(`${server.api}/profiles/${id}/traits/${basic.trait.code}/`, { token })).body).toEqual({
      trait: basic.trait,
      status: 'available',
    });
  });

  it('answers a compute request from the stored result and counts the trait as asked for', async () => {
    const list = (await request(`${server.api}/profiles/${id}/traits/`, { token })).body;
    const codes = list.filter((t: any) => t.status === 'available').map((t: any) => t.trait.code);
    expect(codes.length).toBeGreaterThan(50);
    const check = db();
    const storedAt = new Map(
      (
        check.prepare('SELECT trait_code, computed_at FROM assessments WHERE profile_id = ?').all(id) as Array<{
          trait_code: string;
          computed_at: string;
        }>
      ).map((r) => [r.trait_code, r.computed_at]),
    );
    check.close();
    // Every available trait at once, in one request: no batching needed for speed.
    const r = await request(`${server.api}/profiles/${id}/traits/`, { method: 'POST', token, json: codes });
    expect(r.status).toBe(200);
    expect(r.body.map((t: any) => t.trait.code)).toEqual(codes);
    for (const t of r.body) expect(t.computed_at).toBe(storedAt.get(t.trait.code)); // taken as stored, not scored again
    const after = (await request(`${server.api}/profiles/${id}/traits/`, { token })).body;
    expect(after.filter((t: any) => t.status === 'available')).toEqual([]);
    const full = (await request(`${server.api}/profiles/${id}/traits/${codes[0]}/`, { token })).body;
    expect(full).toMatchObject({ status: 'computed', computed_at: storedAt.get(codes[0]) });
    expect(full.markers.length).toBeGreaterThan(0);
    expect(full.distribution.density.length).toBeGreaterThan(0);
  });

  it('shows the desktop app its results all computed, without a compute request', async () => {
    const app = await openEvents(server, server.appToken);
    try {
      const own = await newProfile(server, server.appToken, { first_name: 'App' });
      await upload(server, server.appToken, own, file);
      await jobEnded(app, own, 'scoring');
      const list = (await request(`${server.api}/profiles/${own}/traits/`, { token: server.appToken })).body;
      expect(list.filter((t: any) => t.status === 'available')).toEqual([]);
      expect(list.filter((t: any) => t.status === 'computed').length).toBeGreaterThan(computedFree());
    } finally {
      app.close();
    }
    function computedFree() {
      return [...pricing.values()].filter((type) => type === 'free').length;
    }
  });

  it('stores a trait asked for alone (PUT) exactly as the background stored it', async () => {
    type Outcome = { table: string; trait_code: string; revision: string; result: string };
    const outcomes = () => {
      const check = db();
      const rows = check
        .prepare(
          `SELECT 'assessments' AS "table", trait_code, revision, result FROM assessments WHERE profile_id = ?
           UNION ALL SELECT 'unavailable_traits', trait_code, revision, reason FROM unavailable_traits WHERE profile_id = ?`,
        )
        .all(id, id) as Outcome[];
      check.close();
      return new Map(rows.map((r) => [r.trait_code, r]));
    };
    const background = outcomes();
    const computed = [...background.values()].find((o) => o.table === 'assessments')!;
    const unavailable = [...background.values()].find((o) => o.table === 'unavailable_traits')!;
    const url = `${server.api}/profiles/${id}/traits/`;
    const tag = (await request(url, { token })).headers.get('etag');
    // As if the background had not reached these two traits yet.
    const writable = new Database(path.join(server.dataDir, 'traitscope.db'));
    writable.prepare('DELETE FROM assessments WHERE profile_id = ? AND trait_code = ?').run(id, computed.trait_code);
    writable
      .prepare('DELETE FROM unavailable_traits WHERE profile_id = ? AND trait_code = ?')
      .run(id, unavailable.trait_code);
    writable.close();

    const put = await request(`${url}${computed.trait_code}/`, { method: 'PUT', token });
    expect(put.status).toBe(200);
    expect(put.body.markers.length).toBeGreaterThan(0);
    const refused = await request(`${url}${unavailable.trait_code}/`, { method: 'PUT', token });
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain(JSON.parse(unavailable.result).detail);
    const after = outcomes();
    expect(after.get(computed.trait_code)).toEqual(computed);
    expect(after.get(unavailable.trait_code)).toEqual(unavailable);
    expect(after.size).toBe(background.size);
    // Stored results changed, so the list's tag did too.
    expect((await request(url, { token })).headers.get('etag')).not.toBe(tag);
  });

  it('rescores every stored result, asked for or not, when the ethnicity changes', async () => {
    const r = await request(`${server.api}/profiles/${id}/`, { method: 'PATCH', token, json: { ethnicity: 4 } });
    expect(r.status).toBe(200);
    const check = db();
    const rows = check
      .prepare("SELECT json_extract(result, '$.population') AS population FROM assessments WHERE profile_id = ?")
      .all(id) as Array<{ population: string }>;
    check.close();
    expect(rows.length).toBeGreaterThan(100);
    expect(new Set(rows.map((x) => x.population))).toEqual(new Set(['EAS']));
  });
});

describe('trait list ETag', () => {
  it('answers 304 while the list is unchanged and a new tag once it changes', async () => {
    const id = await newProfile(server, token);
    // The markers of a free trait and of a basic one (adhd), which is then available to ask for.
    const genotype = catalogMarkers(31, { traits: (t) => t.code === 'migraine' || t.code === 'adhd' });
    await upload(server, token, id, twentyThreeAndMe(genotype));
    await jobEnded(events, id, 'scoring');
    const url = `${server.api}/profiles/${id}/traits/`;
    const first = await request(url, { token });
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await request(url, { token, headers: { 'if-none-match': tag! } });
    expect(again.status).toBe(304);
    expect(again.body).toBeUndefined();
    expect((await request(url, { token, headers: { 'if-none-match': `W/${tag}` } })).status).toBe(304);
    const scoredTag = (await request(`${url}?score`, { token })).headers.get('etag');
    expect(scoredTag).not.toBe(tag);
    // Asking for a basic trait changes what the client gets: the tag changes.
    const code = first.body.find((t: any) => t.status === 'available').trait.code;
    await request(url, { method: 'POST', token, json: [code] });
    const changed = await request(url, { token, headers: { 'if-none-match': tag! } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(tag);
    expect(changed.body.find((t: any) => t.trait.code === code).status).toBe('computed');
  });
});

describe('synchronous processing', () => {
  it('joins the processing an upload started instead of reading the file again', async () => {
    const id = await newProfile(server, token);
    // The markers of two free traits: which job reads the file is the point, not how many traits it scores.
    await upload(
      server,
      token,
      id,
      twentyThreeAndMe(catalogMarkers(31, { traits: (t) => t.code === 'type_2_diabetes' || t.code === 'migraine' })),
    );
    const sync = await request(`${server.api}/profiles/${id}/genotype/upload/`, { method: 'POST', token });
    expect(sync.status).toBe(200);
    expect(sync.body.detail).toMatch(/Processing finished: \d+ markers read/);
    await jobEnded(events, id, 'scoring'); // the background job is queued after every processing job of the profile
    const processing = new Set(
      events.received
        .filter((e) => e.event === 'job' && e.data.profile_id === id && e.data.kind === 'processing')
        .map((e) => e.data.job_id),
    );
    expect(processing.size).toBe(1);

    // Once processed, it answers from the finished state at once: the stored results stay as they are.
    const before = (await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body;
    expect(before.length).toBeGreaterThan(0);
    expect((await request(`${server.api}/profiles/${id}/genotype/upload/`, { method: 'POST', token })).status).toBe(
      200,
    );
    expect((await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body).toEqual(before);
  });
});
