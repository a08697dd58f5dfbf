/**
 * What the startup dialog says for each way the service can fail to start, from the errors
 * those failures really raise: a file where the data folder should be, a damaged database,
 * a database of a newer Traitscope, a port that cannot be listened on.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { describeStartupFailure, ServiceAlreadyRunningError } from '../../src/main/startup-failure.js';
import { databasePath } from '../../src/service/config.js';
import { startService } from '../../src/service/index.js';
import { tempDir } from '../support/server.js';

const root = tempDir('traitscope-startup-');
afterAll(async () => (await import('node:fs')).rmSync(root, { recursive: true, force: true }));

async function failureOf(dataDir: string, port = 0): Promise<unknown> {
  try {
    const service = await startService({ dataDir, port, uiDir: null });
    await service.close();
  } catch (err) {
    return err;
  }
  throw new Error('the service started');
}

describe('describeStartupFailure', () => {
  it('says the data folder cannot be used when a file is in its way', async () => {
    const blocker = path.join(root, 'blocker');
    writeFileSync(blocker, 'not a folder');
    const dataDir = path.join(blocker, 'Traitscope');
    const problem = describeStartupFailure(await failureOf(dataDir), dataDir);
    expect(problem.message).toBe('Traitscope cannot use its data folder');
    expect(problem.detail).toContain(dataDir);
    expect(problem.detail).toContain('A file is in the way');
    expect(problem.detail).toContain('--data-dir=FOLDER');
  });

  it('says the database is damaged, and that it is left alone', async () => {
    const dataDir = path.join(root, 'damaged');
    mkdirSync(dataDir);
    writeFileSync(
      databasePath(dataDir),
      'this is not an SQLite database, but it is long enough to have a header page.'.repeat(20),
    );
    const problem = describeStartupFailure(await failureOf(dataDir), dataDir);
    expect(problem.message).toBe('The database in the data folder is damaged');
    expect(problem.detail).toContain('leaves it as it is');
  });

  it('passes on what the service says about a database of a newer Traitscope', async () => {
    const dataDir = path.join(root, 'newer');
    mkdirSync(dataDir);
    const db = new Database(databasePath(dataDir));
    db.pragma('user_version = 100000');
    db.close();
    const problem = describeStartupFailure(await failureOf(dataDir), dataDir);
    expect(problem.message).toBe('This data folder belongs to a newer Traitscope');
    expect(problem.detail).toMatch(/newer version of Traitscope/);
  });

  it('explains a port that cannot be listened on', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const dataDir = path.join(root, 'port');
      const problem = describeStartupFailure(await failureOf(dataDir, port), dataDir);
      expect(problem.message).toBe('Traitscope could not open its local connection');
      expect(problem.detail).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(problem.detail).not.toContain('--port'); // the command line's advice, not the app's
    } finally {
      blocker.close();
    }
  });

  it('names the other service that holds the data folder', () => {
    const problem = describeStartupFailure(new ServiceAlreadyRunningError('http://127.0.0.1:4780'), '/data/Traitscope');
    expect(problem.message).toBe('Traitscope is already running for this data folder');
    expect(problem.detail).toContain('http://127.0.0.1:4780');
    expect(problem.detail).toContain('Quit that one');
  });
});
