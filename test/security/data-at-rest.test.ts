/**
 * Data at rest: the data folder, database (with its WAL and shared memory) and stored
 * uploads are the user's alone (0700/0600), also in a folder that already existed with
 * looser modes; the upload-URL key is never written down; and a database written by an
 * older version (deleted rows in free pages, the key in settings) is scrubbed on opening.
 */
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/service/db/database.js';
import { MIGRATIONS } from '../../src/service/db/migrations.js';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import {
  clientWithToken,
  request,
  startServer,
  tempDir,
  upload,
  waitProcessed,
  type TestServer,
} from '../support/server.js';
import { filesUnder } from './helpers.js';

const posix = process.platform !== 'win32';
const mode = (file: string) => statSync(file).mode & 0o777;

describe.runIf(posix)('permissions', () => {
  let server: TestServer;
  const dataDir = path.join(tempDir(), 'Traitscope');
  const orphan = path.join(dataDir, 'genotypes', 'left-by-a-crash.part');

  beforeAll(async () => {
    // A folder an older version (or the user) made with a 022 umask.
    mkdirSync(path.join(dataDir, 'genotypes'), { recursive: true, mode: 0o755 });
    chmodSync(dataDir, 0o755);
    chmodSync(path.join(dataDir, 'genotypes'), 0o755);
    writeFileSync(orphan, 'rs1\tAA\n', { mode: 0o644 });
    const db = openDatabase(path.join(dataDir, 'traitscope.db'));
    db.close();
    chmodSync(path.join(dataDir, 'traitscope.db'), 0o644);
    server = await startServer({ dataDir });
  });
  afterAll(() => server?.stop());

  it('makes an existing 0755 folder and 0644 database private, and removes files nothing refers to', () => {
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(path.join(dataDir, 'genotypes'))).toBe(0o700);
    expect(() => statSync(orphan)).toThrow(/ENOENT/);
    for (const file of filesUnder(dataDir)) expect(mode(file), file).toBe(0o600);
  });

  it('writes uploads, the WAL and the shared memory 0600', async () => {
    const { token } = await clientWithToken(server, 'perm tool');
    const id = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
    expect((await upload(server, token, id, twentyThreeAndMe(catalogMarkers(3)))).status).toBe(200);
    await waitProcessed(server, token, id);
    const files = filesUnder(dataDir);
    expect(files.some((f) => f.endsWith('-wal'))).toBe(true);
    expect(files.some((f) => path.dirname(f).endsWith('genotypes'))).toBe(true);
    for (const file of files) expect(mode(file), file).toBe(0o600);
  });
});

describe('a database written by an older version', () => {
  it('loses the stored upload-URL key and the deleted rows its free pages still held', () => {
    const file = path.join(tempDir(), 'traitscope.db');
    const old = new Database(file);
    old.pragma('journal_mode = WAL');
    for (const m of MIGRATIONS.filter((m) => m.version <= 4)) old.exec(m.sql);
    old.pragma('user_version = 4');
    const key = 'c2VjcmV0LXNpZ25pbmcta2V5LW9mLWFuLW9sZC12ZXJzaW9u';
    old.prepare("INSERT INTO settings (key, value) VALUES ('upload_url_key', ?)").run(key);
    old
      .prepare(
        "INSERT INTO clients (id, name, secret_hash, scopes, free_traits, created_at) VALUES ('c', 'c', 'x', 'read:profiles', '\"default\"', 'now')",
      )
      .run();
    // Enough rows that deleting them frees whole pages, as a real profile's assessments do.
    const insert = old.prepare(
      "INSERT INTO profiles (id, client_id, first_name, created_at, updated_at) VALUES (?, 'c', ?, 'now', 'now')",
    );
    for (let i = 0; i < 400; i++) insert.run(`p${i}`, `Legacyname Person number ${i} ${'x'.repeat(100)}`);
    old.prepare('DELETE FROM profiles').run();
    old.close(); // checkpoints: the deleted rows are now in the database file's free pages
    expect(readFileSync(file).includes('Legacyname')).toBe(true);
    expect(readFileSync(file).includes(key)).toBe(true);

    const db = openDatabase(file);
    db.close();
    const bytes = readFileSync(file);
    expect(bytes.includes('Legacyname')).toBe(false);
    expect(bytes.includes(key)).toBe(false);
  });
});
