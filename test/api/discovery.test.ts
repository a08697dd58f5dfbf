/** Local tools find the running service: service.json in the data folder, and `traitscope status`. */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, startServer, tempDir } from '../support/server.js';

describe('service discovery', () => {
  it('publishes origin, pid and versions while running, and removes them on exit', { timeout: 240_000 }, async () => {
    const dataDir = tempDir();
    const file = path.join(dataDir, 'service.json');
    expect(runCli(['status', '--data-dir', dataDir]).status).toBe(1);
    const server = await startServer({ dataDir });
    try {
      const info = JSON.parse(readFileSync(file, 'utf8'));
      expect(info).toMatchObject({
        origin: server.origin,
        api: server.api,
        docs: `${server.api}/docs`,
        version: expect.any(String),
        api_version: expect.any(String),
      });
      expect(info.pid).toBeGreaterThan(0);

      const json = runCli(['status', '--data-dir', dataDir, '--json']);
      expect(json.status, json.stdout + json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({
        running: true,
        answering: true,
        origin: server.origin,
        pid: info.pid,
        catalog: { traits: expect.any(Number) },
      });
      const text = runCli(['status', '--data-dir', dataDir]);
      expect(text.stdout).toContain(`${server.api}/docs`);
    } finally {
      await server.stop();
    }
    expect(existsSync(file)).toBe(false);
    const after = runCli(['status', '--data-dir', dataDir, '--json']);
    expect(after.status).toBe(1);
    expect(JSON.parse(after.stdout)).toEqual({ running: false, data_dir: dataDir });
    rmSync(dataDir, { recursive: true, force: true });
  });
});
