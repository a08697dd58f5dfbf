/** The headless commands exactly as decisions.md gives them, and the database version guard. */
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BUNDLE } from '../support/bundle.js';
import { ROOT, getToken, request, runCli, startServer, tempDir, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.stop());

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
    const listed = runCli(['clients', 'list', '--data-dir', server.dataDir]);
    expect(listed.status).toBe(0);
    const cli = JSON.parse(listed.stdout) as Array<{ is_app: boolean }>;
    const api = (await request(`${server.api}/app/clients/`, { token: server.appToken })).body;
    expect(api.length).toBeGreaterThan(0);
    expect(cli.filter((c) => !c.is_app)).toEqual(api);
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

describe('serve', () => {
  it('prints the API address and listens only on 127.0.0.1', () => {
    expect(server.output()).toContain(`http://127.0.0.1:${server.port}/api`);
  });

  it('refuses to start on a database written by a newer version, and leaves it untouched', () => {
    const dir = tempDir();
    const first = runCli(['clients', 'create', '--data-dir', dir, '--name', 'old']);
    expect(first.status).toBe(0);
    const file = path.join(dir, 'traitscope.db');
    const db = new Database(file);
    db.pragma('user_version = 999');
    db.close();
    // The bundle users run; a time limit, since a service that wrongly starts would never exit.
    const r = spawnSync(process.execPath, [CLI_BUNDLE, 'serve', '--port', '0', '--data-dir', dir], {
      cwd: ROOT,
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
