/**
 * Deletion never lies and never freezes when another program holds the database: while a
 * second SQLite connection (a database browser, a backup tool) keeps a read transaction
 * open, the erase waits on its own thread (db/eraser.ts) and the service answers other
 * requests meanwhile; DELETE then answers that the data is deleted from Traitscope but still
 * in the data folder until that program closes; the service finishes the erase as soon as the
 * reader lets go, and an erase a crash interrupted is finished at the next start.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { clientWithToken, pollUntil, request, startServer, tempDir, type TestServer } from '../support/server.js';
import { labelsFound, scanFolder, scoredProfile } from './helpers.js';

let server: TestServer;
let token = '';
const dataDir = tempDir();
beforeAll(async () => {
  server = await startServer({ dataDir });
  ({ token } = await clientWithToken(server, 'erase-blocked tool'));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Another program's read-only connection in the middle of a read transaction. */
function openReader(): Database.Database {
  // Read-only: closing it never checkpoints the WAL, so it cannot do the service's erase for it.
  const reader = new Database(path.join(dataDir, 'traitscope.db'), { readonly: true });
  reader.exec('BEGIN');
  reader.prepare('SELECT count(*) FROM profiles').get();
  return reader;
}

it('a reader holding the database: the service answers while the erase waits, the answer says so, and the erase finishes once it lets go', async () => {
  const gone = await scoredProfile(server, token, { first: 'Obstinata', last: 'Readerheld' }, 31);
  const reader = openReader();
  try {
    let deleteAnswered = false;
    const deletion = request(`${server.api}/profiles/${gone.id}/`, { method: 'DELETE', token }).finally(
      () => (deleteAnswered = true),
    );
    // Other requests are answered after the deletion committed, while its answer still waits
    // for the erase thread's bounded wait on the reader: the event loop is not the one waiting.
    await pollUntil(
      'the deletion committed',
      async () => ((await request(`${server.api}/profiles/${gone.id}/`, { token })).status === 404 ? true : undefined),
      60_000,
      10,
    );
    const list = await request(`${server.api}/profiles/`, { token });
    expect(list.status).toBe(200);
    expect(deleteAnswered).toBe(false);

    const r = await deletion;
    expect(r.status).toBe(200);
    expect(r.body.detail).toMatch(
      /were deleted from Traitscope\. Another program .* stay in the data folder until it closes/,
    );
    // Still in the files, as the answer said (the service did not claim more than it did).
    expect(labelsFound(dataDir, gone.needles)).not.toEqual([]);
    reader.exec('COMMIT');
    await pollUntil('the erase after the reader let go', async () =>
      scanFolder(dataDir, gone.needles).length === 0 ? true : undefined,
    );
  } finally {
    reader.close();
  }
}, 180_000);

it('an erase a crash interrupted is finished at the next start', async () => {
  const gone = await scoredProfile(server, token, { first: 'Interrupta', last: 'Crashwell' }, 32);
  const reader = openReader();
  const r = await request(`${server.api}/profiles/${gone.id}/`, { method: 'DELETE', token });
  expect(r.body.detail).toMatch(/deleted from Traitscope/);
  await server.kill();
  reader.close();
  expect(labelsFound(dataDir, gone.needles)).not.toEqual([]); // what the crash left
  server = await startServer({ dataDir });
  await pollUntil('the erase at start-up', async () =>
    scanFolder(dataDir, gone.needles).length === 0 ? true : undefined,
  );
  ({ token } = await clientWithToken(server, 'erase-blocked tool after restart'));
  expect((await request(`${server.api}/profiles/`, { token })).status).toBe(200);
}, 180_000);
