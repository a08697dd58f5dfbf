/**
 * After an app update changes the catalog, assessments stored with an older trait revision
 * are recomputed in the background when the service starts (and never listed meanwhile),
 * and those of traits that left the catalog are removed. Simulated by editing the stored
 * revisions and restarting on the same folder.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import {
  clientWithToken,
  getToken,
  request,
  startServer,
  tempDir,
  traitsWhen,
  upload,
  waitProcessed,
} from '../support/server.js';

describe('catalog updates', () => {
  it('recompute stale assessments at start-up and drop those of removed traits', async () => {
    const dataDir = tempDir();
    let server = await startServer({ dataDir });
    const { creds, token } = await clientWithToken(server, 'updater');
    const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
    // The markers of two free traits: one result is made stale, the other's trait retired.
    const twoTraits = catalogMarkers(21, { traits: (t) => t.code === 'type_2_diabetes' || t.code === 'migraine' });
    await upload(server, token, id, twentyThreeAndMe(twoTraits));
    await waitProcessed(server, token, id);
    const before = (await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body;
    expect(before.length).toBeGreaterThan(1);
    await server.stop();

    const db = new Database(path.join(dataDir, 'traitscope.db'));
    const [first, second] = before.map((t: any) => t.trait.code);
    db.prepare(
      "UPDATE assessments SET revision = 'from-an-older-catalog', result = json_set(result, '$.percentile', -1) WHERE trait_code = ?",
    ).run(first);
    db.prepare(
      "INSERT INTO assessments (profile_id, trait_code, revision, result, computed_at) SELECT profile_id, 'retired_trait', 'x', result, computed_at FROM assessments WHERE trait_code = ?",
    ).run(second);
    db.close();

    server = await startServer({ dataDir });
    try {
      const t2 = await getToken(server, creds);
      const listed = (await request(`${server.api}/profiles/${id}/traits/?score`, { token: t2 })).body;
      expect(listed.every((t: any) => t.percentile >= 0)).toBe(true); // the stale result is never shown
      const after = await traitsWhen(server, t2, id, (list) => list.length === before.length);
      expect(after.map((t: any) => t.trait.code)).toEqual(before.map((t: any) => t.trait.code));
      const refreshed = after.find((t: any) => t.trait.code === first);
      expect(refreshed.percentile).toBe(before.find((t: any) => t.trait.code === first).percentile);
      const check = new Database(path.join(dataDir, 'traitscope.db'), { readonly: true });
      expect(
        check
          .prepare(
            "SELECT count(*) AS n FROM assessments WHERE trait_code = 'retired_trait' OR revision = 'from-an-older-catalog'",
          )
          .get(),
      ).toEqual({ n: 0 });
      check.close();
    } finally {
      await server.stop();
    }
  });
});
