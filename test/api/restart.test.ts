/**
 * What a restart of the service on the same data folder changes:
 * - after an app update changes the catalog, assessments stored with an older trait revision
 *   are recomputed in the background when the service starts (and never listed meanwhile),
 *   and those of traits that left the catalog are removed (simulated by editing the stored
 *   revisions while the service is stopped);
 * - upload URLs issued before the restart stop working: the key that signs them is made at
 *   each start and lives in memory only;
 * - in between, nothing says a service runs on the folder: the stopped one removed its
 *   service.json, and `traitscope status` says so (what both say while it runs is
 *   test/api/discovery.test.ts's, on the shared service).
 * One restart serves these tests (a service start is most of each one's cost): what each needs
 * from before it is made first, once, by whichever test runs first, so each runs alone too.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import {
  clientWithToken,
  getToken,
  request,
  runCli,
  startServer,
  tempDir,
  traitsWhen,
  upload,
  waitProcessed,
  type Credentials,
  type TestServer,
} from '../support/server.js';

const dataDir = tempDir();
let server: TestServer | undefined;
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface BeforeRestart {
  creds: Credentials;
  profileId: string;
  /** The profile's scored traits before the restart. */
  scored: any[];
  /** The trait whose stored result was made stale. */
  stale: string;
  /** An upload URL issued by the service before the restart. */
  uploadUrl: URL;
  /** Whether service.json was in the folder while the first service ran, and once it had stopped. */
  serviceJson: { running: boolean; stopped: boolean };
  /** `traitscope status --json` once the first service had stopped. */
  statusStopped: ReturnType<typeof runCli>;
}

let restarted: Promise<{ server: TestServer; before: BeforeRestart }> | undefined;
/** The service started again on the folder, and what was made before. */
const afterRestart = () => (restarted ??= restart());

async function restart(): Promise<{ server: TestServer; before: BeforeRestart }> {
  server = await startServer({ dataDir });
  const { creds, token } = await clientWithToken(server, 'restarted tool');
  const profileId = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
  // The markers of two free traits: one result is made stale, the other's trait retired.
  const twoTraits = catalogMarkers(21, { traits: (t) => t.code === 'type_2_diabetes' || t.code === 'migraine' });
  await upload(server, token, profileId, twentyThreeAndMe(twoTraits));
  await waitProcessed(server, token, profileId);
  const scored = (await request(`${server.api}/profiles/${profileId}/traits/?score`, { token })).body;
  expect(scored.length).toBeGreaterThan(1);
  const uploadUrl = new URL(
    (await request(`${server.api}/profiles/${profileId}/genotype/upload/`, { token })).body.url,
  );
  const serviceJsonFile = path.join(dataDir, 'service.json');
  const running = existsSync(serviceJsonFile);
  await server.stop();
  const serviceJson = { running, stopped: existsSync(serviceJsonFile) };
  const statusStopped = runCli(['status', '--data-dir', dataDir, '--json']);

  const db = new Database(path.join(dataDir, 'traitscope.db'));
  const [stale, retiredFrom] = scored.map((t: any) => t.trait.code);
  db.prepare(
    "UPDATE assessments SET revision = 'from-an-older-catalog', result = json_set(result, '$.percentile', -1) WHERE trait_code = ?",
  ).run(stale);
  db.prepare(
    "INSERT INTO assessments (profile_id, trait_code, revision, result, computed_at) SELECT profile_id, 'retired_trait', 'x', result, computed_at FROM assessments WHERE trait_code = ?",
  ).run(retiredFrom);
  db.close();

  server = await startServer({ dataDir });
  return { server, before: { creds, profileId, scored, stale, uploadUrl, serviceJson, statusStopped } };
}

describe('catalog updates', () => {
  it('recompute stale assessments at start-up and drop those of removed traits', async () => {
    const { server, before } = await afterRestart();
    const { profileId: id } = before;
    const t2 = await getToken(server, before.creds);
    const listed = (await request(`${server.api}/profiles/${id}/traits/?score`, { token: t2 })).body;
    expect(listed.every((t: any) => t.percentile >= 0)).toBe(true); // the stale result is never shown
    const after = await traitsWhen(server, t2, id, (list) => list.length === before.scored.length);
    expect(after.map((t: any) => t.trait.code)).toEqual(before.scored.map((t: any) => t.trait.code));
    const refreshed = after.find((t: any) => t.trait.code === before.stale);
    expect(refreshed.percentile).toBe(before.scored.find((t: any) => t.trait.code === before.stale).percentile);
    const check = new Database(path.join(dataDir, 'traitscope.db'), { readonly: true });
    expect(
      check
        .prepare(
          "SELECT count(*) AS n FROM assessments WHERE trait_code = 'retired_trait' OR revision = 'from-an-older-catalog'",
        )
        .get(),
    ).toEqual({ n: 0 });
    check.close();
  });
});

describe('upload URLs across a restart', () => {
  it('stop working when the service restarts (the signing key lives in memory only)', async () => {
    const { server, before } = await afterRestart();
    const url = new URL(before.uploadUrl);
    url.port = String(server.port);
    // A few lines of a raw-data file: the URL is what is checked, not the file.
    const genome = '# rsid\tchromosome\tposition\tgenotype\nrs4988235\t2\t136608646\tAG\n';
    const r = await request(String(url), { method: 'PUT', body: genome, headers: { 'content-type': 'text/plain' } });
    expect(r.status).toBe(403);
    expect(r.body.detail).toMatch(/signature/);
  });
});

describe('service discovery between two services', () => {
  it('a stopped service has removed its service.json, and status says none runs on the folder', async () => {
    const { before } = await afterRestart();
    expect(before.serviceJson).toEqual({ running: true, stopped: false });
    expect(before.statusStopped.status).toBe(1);
    expect(JSON.parse(before.statusStopped.stdout)).toEqual({ running: false, data_dir: dataDir });
  });
});
