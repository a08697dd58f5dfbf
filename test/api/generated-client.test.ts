/**
 * A third-party client generated from the OpenAPI document (openapi-typescript types +
 * openapi-fetch) walks the whole workflow against a real server. It is written without a
 * single cast: if the document's types did not fit the service, this file would not
 * type-check (npm run typecheck), and every exchange is validated against the document
 * (test/api/support/conformance-setup.ts). generated-types.test.ts checks that the
 * committed types are current.
 */
import createClient from 'openapi-fetch';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalogMarkers, twentyThreeAndMe } from '../support/genotypes.js';
import { newClient, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';
import type { components, paths } from './generated/traitscope-api.js';

type Schemas = components['schemas'];

let server: TestServer;
beforeAll(async () => {
  server = sharedServer();
});

describe('a client generated from the document', () => {
  it('walks the whole workflow with no casts', { timeout: 240_000 }, async () => {
    const creds = await newClient(server, 'generated client');
    const client = createClient<paths>({ baseUrl: server.origin });

    const version = await client.GET('/api/version');
    expect(version.data?.api_version).toMatch(/^\d+\.\d+\.\d+$/);

    const token = await client.POST('/oauth/token', {
      body: { ...creds, audience: `${server.api}/profiles`, grant_type: 'client_credentials' },
    });
    if (!token.data) throw new Error(`token: ${JSON.stringify(token.error)}`);
    const auth = { Authorization: `Bearer ${token.data.access_token}` };
    expect(token.data.token_type).toBe('Bearer');

    const created = await client.POST('/api/profiles/', {
      headers: auth,
      body: { first_name: 'Grace', age: 45, ethnicity: 1 },
    });
    if (!created.data) throw new Error(`create: ${JSON.stringify(created.error)}`);
    const profile: Schemas['Profile'] = created.data;
    const profile_id = profile.id;
    expect(created.response.status).toBe(201);

    // Sending back a profile just read is accepted (id and email are ignored).
    const replaced = await client.PUT('/api/profiles/{profile_id}/', {
      headers: auth,
      params: { path: { profile_id } },
      body: { ...profile, last_name: 'Hopper' },
    });
    expect(replaced.data?.last_name).toBe('Hopper');
    const patched = await client.PATCH('/api/profiles/{profile_id}/', {
      headers: auth,
      params: { path: { profile_id } },
      body: { gender: 2 },
    });
    expect(patched.data?.gender).toBe(2);
    const listed = await client.GET('/api/profiles/', { headers: auth });
    expect(listed.data?.map((p) => p.id)).toContain(profile_id);

    const empty = await client.GET('/api/profiles/{profile_id}/genotype/', {
      headers: auth,
      params: { path: { profile_id } },
    });
    expect(empty.data).toEqual({});

    const upload = await client.GET('/api/profiles/{profile_id}/genotype/upload/', {
      headers: auth,
      params: { path: { profile_id }, query: { 'content-type': 'text/plain' } },
    });
    if (!upload.data) throw new Error(`upload URL: ${JSON.stringify(upload.error)}`);
    const url = new URL(upload.data.url);
    const markers = catalogMarkers(11);
    const stored = await client.PUT('/storage/genotypes/{profile_id}', {
      params: {
        path: { profile_id },
        query: {
          expires: url.searchParams.get('expires') ?? '',
          content_type: 'text/plain',
          signature: url.searchParams.get('signature') ?? '',
        },
      },
      body: twentyThreeAndMe(markers),
      bodySerializer: (body) => body,
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(stored.data?.size).toMatch(/^\d+$/);

    const processed = await client.POST('/api/profiles/{profile_id}/genotype/upload/', {
      headers: auth,
      params: { path: { profile_id } },
    });
    expect(processed.data?.detail).toMatch(/Processing finished/);
    const metadata = await client.GET('/api/profiles/{profile_id}/genotype/', {
      headers: auth,
      params: { path: { profile_id } },
    });
    const file = metadata.data;
    if (!file || !('metadata' in file)) throw new Error('no genotype metadata after processing');
    expect(file.metadata.status).toBe('processed');
    expect(file.metadata.snp_count).toBe(markers.length);

    const traits = await client.GET('/api/traits/', {
      headers: auth,
      params: { query: { view: 'compact', featured: true } },
    });
    if (!traits.data) throw new Error('no traits');
    expect(traits.data.length).toBeGreaterThan(0);
    const etag = traits.response.headers.get('etag') ?? '';
    const again = await client.GET('/api/traits/', {
      headers: auth,
      params: { query: { view: 'compact', featured: true }, header: { 'If-None-Match': etag } },
    });
    expect(again.response.status).toBe(304);
    const one = await client.GET('/api/traits/{trait_code}/', {
      headers: auth,
      params: { path: { trait_code: traits.data[0].trait.code } },
    });
    expect(one.data?.trait.code).toBe(traits.data[0].trait.code);

    const statuses = await client.GET('/api/profiles/{profile_id}/traits/', {
      headers: auth,
      params: { path: { profile_id }, query: { view: 'compact' } },
    });
    if (!statuses.data) throw new Error('no statuses');
    const codesWith = (status: Schemas['TraitStatus']) =>
      statuses.data.flatMap((t) => ('trait_code' in t && t.status === status ? [t.trait_code] : []));
    const available = codesWith('available');
    expect(codesWith('computed').length).toBeGreaterThan(0);
    expect(available.length).toBeGreaterThan(1);

    const scored = await client.GET('/api/profiles/{profile_id}/traits/', {
      headers: auth,
      params: { path: { profile_id }, query: { score: '' } },
    });
    expect((scored.data ?? []).filter((t) => t.status !== 'computed')).toEqual([]);

    const computed = await client.POST('/api/profiles/{profile_id}/traits/', {
      headers: auth,
      params: { path: { profile_id } },
      body: { trait_codes: [available[0]] },
    });
    const first = computed.data?.[0];
    if (!first || !('assessment_level' in first)) throw new Error('no assessment computed');
    expect(first.assessment_level).toBeGreaterThanOrEqual(1);

    const full = await client.PUT('/api/profiles/{profile_id}/traits/{trait_code}/', {
      headers: auth,
      params: { path: { profile_id, trait_code: available[1] } },
    });
    if (!full.data) throw new Error(`compute one: ${JSON.stringify(full.error)}`);
    expect(full.data.markers.length).toBeGreaterThan(0);
    expect(full.data.distribution?.density[0]).toHaveLength(2);

    const read = await client.GET('/api/profiles/{profile_id}/traits/{trait_code}/', {
      headers: auth,
      params: { path: { profile_id, trait_code: available[1] } },
    });
    const detail = read.data;
    if (!detail || detail.status !== 'computed') throw new Error('the computed trait does not read back as computed');
    expect(detail.percentile).toBe(full.data.percentile);

    const snps = await client.POST('/api/profiles/{profile_id}/genotype/snps/', {
      headers: auth,
      params: { path: { profile_id } },
      body: [`rs${markers[0].rsid}`, 'rs1'],
    });
    expect(snps.data?.map((s) => s.rsid)).toEqual([`rs${markers[0].rsid}`]);

    const missing = await client.GET('/api/profiles/{profile_id}/', {
      headers: auth,
      params: { path: { profile_id: '00000000-0000-4000-8000-000000000000' } },
    });
    expect(missing.error?.detail).toMatch(/No profile/);

    const deleted = await client.DELETE('/api/profiles/{profile_id}/', {
      headers: auth,
      params: { path: { profile_id } },
    });
    expect(deleted.data?.detail).toMatch(/deleted/);
  });
});
