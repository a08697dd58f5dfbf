/**
 * Every hostile file, uploaded over a profile's good genome, gets a clear error and leaves
 * the genome, its source file and its results as they were. A file that parses but is much
 * smaller than the genome waits for a confirmation before it replaces it.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE } from '../fixtures/hostile/corpus.js';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import { clientWithToken, request, upload, waitProcessed, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'hostile tool'));
});

const storedFiles = () => readdirSync(path.join(server.dataDir, 'genotypes'));

async function profileWithGenome(seed: number) {
  const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id as string;
  await upload(server, token, id, twentyThreeAndMe(catalogMarkers(seed)));
  const meta = await waitProcessed(server, token, id);
  expect(meta.metadata.status).toBe('processed');
  const scored = (await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body;
  expect(scored.length).toBeGreaterThan(0);
  return { id, meta, scored };
}

describe('hostile uploads over a good genome', () => {
  it('are refused, and the genome, its source file and its results are kept', async () => {
    const { id, meta, scored } = await profileWithGenome(71);
    const source = storedFiles().filter((f) => f.startsWith(id));
    expect(source).toHaveLength(1);
    for (const file of HOSTILE.filter((f) => f.refused)) {
      const bytes = await file.bytes();
      const put = await upload(server, token, id, bytes);
      if (bytes.length === 0) {
        expect(put.status).toBe(400); // refused at the upload already
        continue;
      }
      expect(put.status, file.name).toBe(200);
      const now = await waitProcessed(server, token, id);
      expect(now.metadata, file.name).toMatchObject({
        status: 'failed',
        error: expect.stringMatching(file.refused!),
        snp_count: meta.metadata.snp_count,
        format: meta.metadata.format,
      });
      // The genotype in use still has its source file (and only the latest refused upload is kept beside it).
      expect(
        storedFiles().filter((f) => f.startsWith(id)),
        file.name,
      ).toContain(source[0]);
      expect(storedFiles().filter((f) => f.startsWith(id)).length, file.name).toBe(2);
    }
    expect((await request(`${server.api}/profiles/${id}/traits/?score`, { token })).body).toEqual(scored);
  }, 180_000);
});

describe('an unlikely replacement', () => {
  it('waits for ?confirm_replace=true, then replaces the genome and drops the old source file', async () => {
    const { id, meta } = await profileWithGenome(72);
    const source = storedFiles().filter((f) => f.startsWith(id))[0];
    const small = twentyThreeAndMe(catalogMarkers(73).slice(0, 3));
    await upload(server, token, id, small);
    const sync = await request(`${server.api}/profiles/${id}/genotype/upload/`, { method: 'POST', token });
    expect(sync.status).toBe(422);
    expect(sync.body.detail).toMatch(/has 3 markers, far fewer than the [\d,]+ of the genotype in use/);
    expect(sync.body.detail).toContain(`/api/profiles/${id}/genotype/upload/?confirm_replace=true`);
    const waiting = (await request(`${server.api}/profiles/${id}/genotype/`, { token })).body;
    expect(waiting.metadata).toMatchObject({
      status: 'failed',
      needs_confirmation: true,
      snp_count: meta.metadata.snp_count,
    });
    expect(storedFiles()).toContain(source);

    expect(
      (await request(`${server.api}/profiles/${id}/genotype/upload/?confirm_replace=yes`, { method: 'POST', token }))
        .status,
    ).toBe(400);
    const confirmed = await request(`${server.api}/profiles/${id}/genotype/upload/?confirm_replace=true`, {
      method: 'POST',
      token,
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const after = (await request(`${server.api}/profiles/${id}/genotype/`, { token })).body;
    expect(after.metadata).toMatchObject({ status: 'processed', snp_count: 3 });
    expect(after.metadata.needs_confirmation).toBeUndefined();
    expect(storedFiles()).not.toContain(source);
    expect(storedFiles().filter((f) => f.startsWith(id))).toHaveLength(1);
  });

  it('is never held back on a first upload', async () => {
    const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
    await upload(server, token, id, twentyThreeAndMe(catalogMarkers(74).slice(0, 3)));
    expect((await waitProcessed(server, token, id)).metadata).toMatchObject({ status: 'processed', snp_count: 3 });
  });
});
