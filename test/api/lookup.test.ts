/** The genotype look-up at scale: 10,000 rsIDs per request, and a clear answer when a URL is too long. */
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import { clientWithToken, request, upload, waitProcessed, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

let server: TestServer;
let token: string;
let profileId: string;
const markers = catalogMarkers(3);

beforeAll(async () => {
  server = sharedServer();
  ({ token } = await clientWithToken(server, 'look-up tool', { scopes: ['read:profiles', 'write:profiles'] }));
  profileId = (await request(`${server.api}/profiles/`, { method: 'POST', token, json: {} })).body.id;
  await upload(server, token, profileId, twentyThreeAndMe(markers));
  await waitProcessed(server, token, profileId);
});

/** 10,000 rsIDs: every marker of the file, then ones no file has. */
function tenThousand(): string[] {
  const ids = markers.slice(0, 5000).map((m) => `rs${m.rsid}`);
  for (let i = 0; ids.length < 10_000; i++) ids.push(`rs${3_000_000_000 + i}`);
  return ids;
}

describe('genotype look-up', () => {
  it('answers 10,000 rsIDs in one POST, found ones in request order', async () => {
    const ids = tenThousand();
    const found = ids.filter((id) => id.length < 12);
    const r = await request(`${server.api}/profiles/${profileId}/genotype/snps/`, { method: 'POST', token, json: ids });
    expect(r.status).toBe(200);
    expect(r.body.map((s: { rsid: string }) => s.rsid)).toEqual(found);
    const byKey = await request(`${server.api}/profiles/${profileId}/genotype/snps/`, {
      method: 'POST',
      token,
      json: { rsids: ids.slice(0, 3) },
    });
    expect(byKey.body).toEqual(r.body.slice(0, 3));
  });

  it('needs only the read scope for the POST form', async () => {
    const { token: reader } = await clientWithToken(server, 'reader', { scopes: ['read:profiles'] });
    const r = await request(`${server.api}/profiles/${profileId}/genotype/snps/`, {
      method: 'POST',
      token: reader,
      json: ['rs1'],
    });
    expect(r.status).toBe(404); // the profile belongs to another client: not found, but not refused for scope
    const write = await request(`${server.api}/profiles/`, { method: 'POST', token: reader, json: {} });
    expect(write.status).toBe(403);
  });

  it('refuses more than 10,000 rsIDs, or bodies that are not rsID lists, saying why', async () => {
    const over = await request(`${server.api}/profiles/${profileId}/genotype/snps/`, {
      method: 'POST',
      token,
      json: [...tenThousand(), 'rs1'],
    });
    expect(over.status).toBe(400);
    expect(over.body.detail).toMatch(/10000/);
    for (const json of [{ ids: [] }, 'rs1', [1], ['rs1', 'x1']]) {
      const r = await request(`${server.api}/profiles/${profileId}/genotype/snps/`, { method: 'POST', token, json });
      expect(r.status, JSON.stringify(json)).toBe(400);
      expect(r.body.detail).toMatch(/rsID/);
    }
  });

  it('answers a query string that is too long with 431 and a detail that points to the POST form', async () => {
    const r = await request(`${server.api}/profiles/${profileId}/genotype/snps/?rsid=${tenThousand().join(',')}`, {
      token,
    });
    expect(r.status).toBe(431);
    expect(r.body.detail).toMatch(/POST/);
    const short = await request(
      `${server.api}/profiles/${profileId}/genotype/snps/?rsid=${tenThousand().slice(0, 1000).join(',')}`,
      { token },
    );
    expect(short.status).toBe(200);
  });
});
