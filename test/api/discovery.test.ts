/**
 * Local tools find the running service: service.json in the data folder, and `traitscope status`.
 * Read on the shared service while it runs; that a service removes the file when it stops, and
 * what `status` says then, is checked across the restart of test/api/restart.test.ts.
 */
import { createHmac, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newClient, request, runCli, tempDir } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

describe('service discovery', () => {
  it('publishes origin, pid and versions while running; status reads them', async () => {
    const dataDir = tempDir();
    expect(runCli(['status', '--data-dir', dataDir]).status).toBe(1); // no service has run there
    rmSync(dataDir, { recursive: true, force: true });

    const server = sharedServer();
    const file = path.join(server.dataDir, 'service.json');
    const info = JSON.parse(readFileSync(file, 'utf8'));
    expect(info).toMatchObject({
      origin: server.origin,
      api: server.api,
      docs: `${server.api}/docs`,
      version: expect.any(String),
      api_version: expect.any(String),
    });
    expect(info.pid).toBeGreaterThan(0);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);

    const json = runCli(['status', '--data-dir', server.dataDir, '--json']);
    expect(json.status, json.stdout + json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      running: true,
      answering: true,
      origin: server.origin,
      pid: info.pid,
      catalog: { traits: expect.any(Number) },
    });
    const text = runCli(['status', '--data-dir', server.dataDir]);
    expect(text.stdout).toContain(`${server.api}/docs`);
  });

  it(
    'proves its identity to a tool holding a client secret, as docs/api.md describes',
    { timeout: 240_000 },
    async () => {
      // The shared service: the proof needs a client of its own and nothing of the service's.
      const server = sharedServer();
      const { client_id, client_secret } = await newClient(server, 'checks the service');
      // The tool's side, exactly as documented: nothing of the service's code.
      const expectedProof = (origin: string, salt: string, challenge: string) =>
        createHmac('sha256', scryptSync(client_secret, Buffer.from(salt, 'base64url'), 32, { N: 16384, r: 8, p: 1 }))
          .update(`traitscope-service-proof\n${origin}\n${client_id}\n${challenge}`)
          .digest();
      const challenge = randomBytes(32).toString('base64url');
      const r = await request(`${server.api}/version?challenge=${challenge}&client_id=${client_id}`);
      expect(r.status).toBe(200);
      const { identity } = r.body;
      expect(identity).toMatchObject({ origin: server.origin, client_id });
      const proof = Buffer.from(identity.proof, 'base64url');
      expect(timingSafeEqual(proof, expectedProof(server.origin, identity.salt, challenge))).toBe(true);
      // Bound to the challenge and to the origin: a relayed answer for another address fails.
      expect(proof.equals(expectedProof('http://127.0.0.1:4780', identity.salt, challenge))).toBe(false);
      const again = await request(`${server.api}/version?challenge=${'A'.repeat(32)}&client_id=${client_id}`);
      expect(again.body.identity.proof).not.toBe(identity.proof);
      // Someone without the secret gets a decoy it cannot tell apart, and a wrong secret cannot check it.
      const unknown = await request(`${server.api}/version?challenge=${challenge}&client_id=not-a-client`);
      expect(unknown.status).toBe(200);
      expect(unknown.body.identity).toMatchObject({ salt: expect.any(String), proof: expect.any(String) });
      for (const query of [
        `challenge=${challenge}`,
        `client_id=${client_id}`,
        `challenge=short&client_id=${client_id}`,
      ]) {
        const bad = await request(`${server.api}/version?${query}`);
        expect(bad.status, query).toBe(400);
        expect(bad.body.detail).toMatch(/challenge/);
      }
      expect((await request(`${server.api}/version`)).body.identity).toBeUndefined();
    },
  );
});
