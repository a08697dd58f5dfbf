/**
 * The headless commands exactly as decisions.md gives them, and the database version guard.
 * The commands run against the shared service's data folder while it runs (other files add
 * clients to it meanwhile: the list is compared when it held still).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/service/auth/clients.js';
import { openDatabase } from '../../src/service/db/database.js';
import { CLI_BUNDLE } from '../support/bundle.js';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import { ROOT, childEnv, getToken, newClient, request, runCli, tempDir, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
beforeAll(() => {
  server = sharedServer();
});

describe('npm run --silent cli -- clients create', () => {
  it('prints exactly one JSON object with usable credentials while the service runs', async () => {
    const out = execFileSync(
      'npm',
      [
        'run',
        '--silent',
        'cli',
        '--',
        'clients',
        'create',
        '--data-dir',
        server.dataDir,
        '--name',
        'npm tool',
        '--scopes',
        'read:profiles,write:profiles',
        '--free-traits',
        'all',
      ],
      {
        cwd: ROOT,
        env: childEnv(),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    const creds = JSON.parse(out);
    expect(Object.keys(creds).sort()).toEqual(['client_id', 'client_secret']);
    const token = await getToken(server, creds);
    const traits = (await request(`${server.api}/traits/`, { token })).body;
    expect(traits.every((t: { type: string }) => t.type === 'free')).toBe(true);
  });

  it('lists clients in the same shape as the API', async () => {
    await newClient(server, 'listed tool'); // the list has one at least, whatever ran before
    const apiList = async () => (await request(`${server.api}/app/clients/`, { token: server.appToken })).body;
    // Read between two API reads that agree, so no client created by another file comes between.
    for (let attempt = 1; ; attempt++) {
      const before = await apiList();
      const listed = runCli(['clients', 'list', '--data-dir', server.dataDir]);
      expect(listed.status).toBe(0);
      const cli = JSON.parse(listed.stdout) as Array<{ is_app: boolean }>;
      const after = await apiList();
      if (JSON.stringify(after) !== JSON.stringify(before) && attempt < 5) continue;
      expect(after).toEqual(before);
      expect(after.length).toBeGreaterThan(0);
      expect(cli.filter((c) => !c.is_app)).toEqual(after);
      return;
    }
  });

  it('explains bad options and exits non-zero', () => {
    const badScope = runCli(['clients', 'create', '--data-dir', server.dataDir, '--name', 'x', '--scopes', 'admin']);
    expect(badScope.status).toBe(2);
    expect(badScope.stderr).toMatch(/Unknown scope "admin"/);
    const noName = runCli(['clients', 'create', '--data-dir', server.dataDir]);
    expect(noName.status).toBe(2);
    expect(noName.stderr).toMatch(/--name is required/);
    const badTrait = runCli([
      'clients',
      'create',
      '--data-dir',
      server.dataDir,
      '--name',
      'x',
      '--free-traits',
      'no_such_trait',
    ]);
    expect(badTrait.status).toBe(2);
    expect(badTrait.stderr).toMatch(/no_such_trait/);
  });
});

describe('analyze', () => {
  it('writes its whole JSON document into a pipe, far past the 64 KiB a pipe holds', () => {
    const file = path.join(tempDir(), 'genome.txt');
    writeFileSync(file, twentyThreeAndMe(catalogMarkers(5)));
    const r = runCli(['analyze', file, '--json']);
    expect(r.status).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(256 * 1024);
    const doc = JSON.parse(r.stdout);
    expect(doc.traits.length).toBe(doc.traits_computed);
  });
});

describe('serve', () => {
  it('prints the API address and listens only on 127.0.0.1', () => {
    expect(server.output()).toContain(`http://127.0.0.1:${server.port}/api`);
  });

  it('refuses to start on a database written by a newer version, and leaves it untouched', async () => {
    // A data folder of this version with one client (made in-process: the command is not what
    // is tested here), then marked as written by a newer one.
    const dir = tempDir();
    const file = path.join(dir, 'traitscope.db');
    const current = openDatabase(file);
    await createClient(current, { name: 'old' });
    current.close();
    const db = new Database(file);
    db.pragma('user_version = 999');
    db.close();
    // The bundle users run; a time limit, since a service that wrongly starts would never exit.
    const r = spawnSync(process.execPath, [CLI_BUNDLE, 'serve', '--port', '0', '--data-dir', dir], {
      cwd: ROOT,
      env: childEnv(),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/newer version of Traitscope/);
    const after = new Database(file, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(999);
    expect(after.prepare('SELECT count(*) AS n FROM clients').get()).toEqual({ n: 1 });
    after.close();
  });

  it('explains a bad port', () => {
    const r = runCli(['serve', '--port', 'abc', '--data-dir', tempDir()]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--port/);
  });
});
