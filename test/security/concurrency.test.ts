/**
 * No request fails with "database is locked" while worker threads write: uploads, profile
 * edits and token requests run while "compute all" scoring jobs and file processing write
 * from worker threads. (Before, an upload's deferred read-then-write transaction could not
 * wait for a worker's write and answered 500.)
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/service/db/database.js';
import { recordUpload } from '../../src/service/genotype/genotype-store.js';
import { ancestryDna, catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import {
  clientWithToken,
  getToken,
  request,
  startServer,
  tempDir,
  upload,
  waitProcessed,
  type Credentials,
  type TestServer,
} from '../support/server.js';

let server: TestServer;
let token: string;
let creds: Credentials;
beforeAll(async () => {
  server = await startServer();
  ({ token, creds } = await clientWithToken(server, 'busy tool', { free_traits: 'none' }));
});
afterAll(() => server?.stop());

/** A worker thread that takes the write lock, says so, holds it for `ms`, then commits. */
function holdWriteLock(file: string, ms: number): Promise<Worker> {
  const worker = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
     const db = new (require(workerData.module))(workerData.file);
     db.exec('BEGIN IMMEDIATE');
     db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('probe', 'x')").run();
     parentPort.postMessage('locked');
     setTimeout(() => { db.exec('COMMIT'); db.close(); parentPort.postMessage('done'); }, workerData.ms);`,
    { eval: true, workerData: { file, ms, module: createRequire(import.meta.url).resolve('better-sqlite3') } },
  );
  return new Promise((resolve) => worker.once('message', () => resolve(worker)));
}

describe('concurrent writers', () => {
  it("an upload record waits for a worker thread's write, without failing and without blocking the event loop", async () => {
    const file = path.join(tempDir(), 'traitscope.db');
    const db = openDatabase(file);
    db.prepare(
      "INSERT INTO clients (id, name, secret_hash, scopes, free_traits, created_at) VALUES ('c', 'c', 'x', '', '\"default\"', 'now')",
    ).run();
    db.prepare("INSERT INTO profiles (id, client_id, created_at, updated_at) VALUES ('p', 'c', 'now', 'now')").run();
    const worker = await holdWriteLock(file, 300);
    const done = new Promise((resolve) => worker.once('message', resolve));
    // Reads first, then writes: as a deferred transaction this failed at once while the lock was held.
    const recording = recordUpload(db, 'p', {
      fileName: 'f',
      contentType: 'text/plain',
      size: 1,
      md5: 'm',
      crc32c: 'c',
    });
    // The lock is held for 300 ms: a timer of 20 ms runs meanwhile (the busy handler's wait blocked it).
    const timer = new Promise((resolve) => setTimeout(() => resolve('the event loop ran'), 20));
    expect(await Promise.race([timer, recording.then(() => 'recorded')])).toBe('the event loop ran');
    expect(await recording).toBeUndefined();
    await done;
    expect(db.prepare('SELECT file_name FROM genotype_files').get()).toEqual({ file_name: 'f' });
    db.close();
  });

  it('answer no request with a 500 while worker threads write', async () => {
    const scored = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
    await upload(server, token, scored, twentyThreeAndMe(catalogMarkers(31, { traits: 'all' })));
    await waitProcessed(server, token, scored);
    const codes = (
      (await request(`${server.api}/profiles/${scored}/traits/`, { token })).body as Array<{
        trait: { code: string };
        status: string;
      }>
    )
      .filter((t) => t.status === 'available')
      .map((t) => t.trait.code);
    expect(codes.length).toBeGreaterThan(40); // more than the inline limit: scored in a worker thread

    const uploads = await Promise.all(
      Array.from(
        { length: 2 },
        async () => (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id as string,
      ),
    );
    const statuses: number[] = [];
    const record = (r: { status: number }) => statuses.push(r.status);
    const computeAll = async () => {
      for (let round = 0; round < 2; round++) {
        // Drop the results so that each round scores (and writes) everything again.
        await request(`${server.api}/profiles/${scored}/`, {
          method: 'PATCH',
          token,
          json: { ethnicity: round % 2 },
        }).then(record);
        await request(`${server.api}/profiles/${scored}/traits/`, { method: 'POST', token, json: codes }).then(record);
      }
    };
    const uploader = async (id: string, seed: number) => {
      for (let i = 0; i < 4; i++) {
        const file = i % 2 ? ancestryDna(catalogMarkers(seed + i)) : twentyThreeAndMe(catalogMarkers(seed + i));
        await upload(server, token, id, file).then(record);
        await request(`${server.api}/profiles/${id}/`, { method: 'PATCH', token, json: { first_name: `n${i}` } }).then(
          record,
        );
      }
    };
    const tokens = async () => {
      for (let i = 0; i < 3; i++) statuses.push((await getToken(server, creds)) ? 200 : 500);
    };
    await Promise.all([computeAll(), ...uploads.map((id, k) => uploader(id, 100 * (k + 1))), tokens()]);
    expect(statuses.length).toBe(4 + 2 * 8 + 3);
    expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
    for (const id of uploads) expect((await waitProcessed(server, token, id)).metadata.status).toBe('processed');
  }, 240_000);
});
