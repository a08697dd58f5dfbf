/**
 * Delete means gone: after deleting a profile, revoking a client with its data, or
 * deleting all data, no byte of the data folder — database, WAL, shared memory, stored
 * files — holds the profile's name, result text, rsIDs or genotype, while the service
 * runs and after it stops. Each scan first proves it finds the data before the deletion.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientWithToken, request, startServer, tempDir, type TestServer } from '../support/server.js';
import { labelsFound, scanFolder, scoredProfile, type Needle } from './helpers.js';

let server: TestServer;
let token: string;
const dataDir = tempDir(); // kept past stop(), to scan it after the service has stopped
beforeAll(async () => {
  server = await startServer({ dataDir });
  ({ token } = await clientWithToken(server, 'deleting tool'));
});
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('deleting data leaves nothing recoverable in the data folder', () => {
  it('DELETE of a profile', async () => {
    const gone = await scoredProfile(server, token, { first: 'Quillon', last: 'Vantablack' }, 21);
    const kept = (
      await request(`${server.api}/profiles/`, {
        method: 'POST',
        token,
        json: { first_name: 'Keepsake', last_name: 'Remainder' },
      })
    ).body.id;
    const keptNeedle: Needle = { label: 'kept name', bytes: Buffer.from('Keepsake') };
    expect(labelsFound(server.dataDir, gone.needles)).toEqual(gone.needles.map((n) => n.label)); // every needle is there before
    const r = await request(`${server.api}/profiles/${gone.id}/`, { method: 'DELETE', token });
    expect(r.status).toBe(200);
    expect(scanFolder(server.dataDir, gone.needles)).toEqual([]);
    expect(scanFolder(server.dataDir, [keptNeedle])).not.toEqual([]); // the scan does see what is still stored
    expect((await request(`${server.api}/profiles/${kept}/`, { token })).status).toBe(200);
  }, 180_000);

  it('DELETE of a client with ?delete_data=true', async () => {
    const other = await clientWithToken(server, 'revoked tool');
    const gone = await scoredProfile(server, other.token, { first: 'Revocandus', last: 'Ossifrage' }, 22);
    const url = (await request(`${server.api}/profiles/${gone.id}/genotype/upload/`, { token: other.token })).body
      .url as string;
    expect(labelsFound(server.dataDir, gone.needles)).toEqual(gone.needles.map((n) => n.label));
    const r = await request(`${server.api}/app/clients/${other.creds.client_id}/?delete_data=true`, {
      method: 'DELETE',
      token: server.appToken,
    });
    expect(r.status).toBe(200);
    expect(r.body.deleted_profiles).toBe(1);
    expect(scanFolder(server.dataDir, gone.needles)).toEqual([]);
    // Its outstanding upload URL and token stop working.
    expect(
      (await request(url, { method: 'PUT', body: 'rs1\tAA\n', headers: { 'content-type': 'text/plain' } })).status,
    ).toBe(404);
    expect((await request(`${server.api}/profiles/`, { token: other.token })).status).toBe(401);
  }, 180_000);

  it('DELETE /api/app/data, and still after the service stops', async () => {
    const a = await scoredProfile(server, token, { first: 'Omnibus', last: 'Everything' }, 23);
    const other = await clientWithToken(server, 'another tool');
    const b = await scoredProfile(server, other.token, { first: 'Secondus', last: 'Allgone' }, 24);
    const needles = [...a.needles, ...b.needles];
    expect(labelsFound(server.dataDir, needles)).toEqual(needles.map((n) => n.label));
    const r = await request(`${server.api}/app/data/`, { method: 'DELETE', token: server.appToken });
    expect(r.status).toBe(200);
    const remaining = [...needles, { label: 'kept name', bytes: Buffer.from('Keepsake') }];
    expect(scanFolder(server.dataDir, remaining)).toEqual([]);
    await server.stop();
    expect(scanFolder(server.dataDir, remaining)).toEqual([]);
  }, 180_000);
});
