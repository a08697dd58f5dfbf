/**
 * The OpenAPI document as third-party tools see it: served without a token, independent
 * of the port, complete (every operation of the route table, per-operation scopes, statuses
 * and examples; its validity for an OpenAPI 3.1 validator and Spectral is `npm run lint:api`);
 * the version route; and the reference page at /api/docs in a real browser under the UI's CSP.
 */
import { chromium } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../src/shared/routes/index.js';
import { openApiDocument, openApiDocumentBytes } from '../../src/service/http/openapi.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/chromium.js';
import { request, type TestServer } from '../support/server.js';
import { sharedServer } from '../support/shared-server.js';

type Json = Record<string, any>;
let server: TestServer;
beforeAll(async () => {
  server = sharedServer();
});

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];
const allOperations = (doc: Json): Array<[string, string, Json]> =>
  Object.entries(doc.paths as Json).flatMap(([p, item]) =>
    Object.entries(item as Json)
      .filter(([m]) => METHODS.includes(m))
      .map(([m, op]) => [p, m, op as Json] as [string, string, Json]),
  );

describe('the OpenAPI document', () => {
  it('is served without a token, the same whatever the port', async () => {
    const r = await request(`${server.api}/openapi.json`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(openApiDocument());
    expect(JSON.stringify(r.body)).not.toContain(String(server.port));
    expect(r.body.servers[0]).toMatchObject({ url: 'http://{host}:{port}', variables: { port: { default: '4780' } } });
  });

  it('describes each message of the events stream, not a bare string', () => {
    const doc = openApiDocument() as Json;
    const media = doc.paths['/api/events'].get.responses['200'].content['text/event-stream'];
    expect(media['x-item-schema']).toEqual({ $ref: '#/components/schemas/EventMessage' });
    expect(media.example).toMatch(/^retry: 2000\n\nevent: ready\ndata: \{\}\n\n/);
    const variants = doc.components.schemas.EventMessage.oneOf as Json[];
    expect(variants.map((v) => v.properties.event.const).sort()).toEqual(['job', 'ready', 'traits']);
    const job = variants.find((v) => v.properties.event.const === 'job')!;
    expect(job.properties.data).toEqual({ $ref: '#/components/schemas/JobEventData' });
    expect(doc.components.schemas.JobEventData.properties.state.enum).toContain('superseded');
  });

  it('gives each operation error examples of its own, with the code the service sends', () => {
    const doc = openApiDocument() as Json;
    const example = (path: string, method: string, status: string) =>
      doc.paths[path][method].responses[status].content['application/json'].example;
    expect(example('/api/profiles/{profile_id}/traits/{trait_code}/', 'put', '409')).toEqual({
      detail: expect.stringMatching(/cannot be computed/),
      code: 'conflict',
    });
    expect(example('/api/profiles/{profile_id}/', 'put', '405')).toMatchObject({ code: 'invalid_input' });
    expect(example('/api/profiles/{profile_id}/', 'get', '404')).toMatchObject({ code: 'not_found' });
    const denied = (path: string, method: string) => example(path, method, '403').detail as string;
    expect(denied('/api/profiles/', 'get')).toMatch(/read:profiles/);
    expect(denied('/api/profiles/', 'post')).toMatch(/write:profiles/);
    for (const [p, m, op] of allOperations(doc))
      for (const [status, r] of Object.entries(op.responses as Json)) {
        const media = (r as Json).content?.['application/json'];
        if (!/^[45]/.test(status) || media?.schema?.$ref !== '#/components/schemas/Detail') continue;
        expect(media.example?.detail, `${m} ${p} ${status}`).toBe((r as Json).description);
        expect(media.example?.code, `${m} ${p} ${status}`).toEqual(expect.any(String));
      }
  });

  it('is generated when no build wrote it (the TypeScript sources under tsx)', () => {
    expect(JSON.parse(openApiDocumentBytes().toString('utf8'))).toEqual(openApiDocument());
  });

  it('has every operation, each with an id, tag, summary, description, scopes and examples', () => {
    const doc = openApiDocument() as Json;
    const ops = allOperations(doc);
    const ids = ops.map(([, , op]) => op.operationId);
    for (const id of [
      'listProfiles',
      'createProfile',
      'getProfile',
      'replaceProfile',
      'updateProfile',
      'deleteProfile',
      'getGenotypeMetadata',
      'getUploadUrl',
      'processGenotype',
      'lookupSnps',
      'listProfileTraits',
      'computeTraits',
      'getTraitAssessment',
      'computeTrait',
      'listClientTraits',
      'requestToken',
      'uploadGenotypeFile',
      'signIn',
      'getVersion',
      'getAppInfo',
    ]) {
      expect(ids).toContain(id);
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(Object.keys(operations).sort());
    for (const [p, m, op] of ops) {
      const where = `${m} ${p}`;
      expect(op.tags?.length, where).toBeGreaterThan(0);
      expect(op.summary, where).toBeTruthy();
      expect(op.description, where).toBeTruthy();
      expect(Array.isArray(op.security), where).toBe(true);
      expect(op.responses.default, where).toBeDefined();
      expect(op.responses['431'], where).toBeDefined();
      if (p.startsWith('/api/app/') || p === '/oauth/sign-in') expect(op['x-internal'], where).toBe(true);
      if (op.requestBody)
        for (const [type, media] of Object.entries(op.requestBody.content as Json))
          if (type.includes('json')) expect((media as Json).example, `${where} ${type}`).toBeDefined();
      for (const [status, response] of Object.entries(op.responses as Json)) {
        for (const media of Object.values((response as Json).content ?? {}))
          expect((media as Json).example, `${where} ${status}`).toBeDefined();
      }
    }
    const security = (id: string) => ops.find(([, , op]) => op.operationId === id)![2].security;
    expect(security('listProfiles')).toEqual([{ oauth2: ['read:profiles'] }]);
    expect(security('createProfile')).toEqual([{ oauth2: ['write:profiles'] }]);
    expect(security('lookupSnpsInBody')).toEqual([{ oauth2: ['read:profiles'] }]);
    expect(security('requestToken')).toEqual([]);
    expect(security('uploadGenotypeFile')).toEqual([]);
    expect(security('getAppInfo')).toEqual([{ oauth2: ['manage:app'] }]);
  });

  it('names its enums, gives formats, and keeps the spec fields of assessments required', () => {
    const s = (openApiDocument() as Json).components.schemas;
    expect(s.Gender).toMatchObject({
      type: 'integer',
      enum: [0, 1, 2],
      'x-enum-varnames': ['Unknown', 'Male', 'Female'],
    });
    expect(s.Ethnicity.enum).toEqual([0, 1, 2, 3, 4, 5]);
    expect(s.Profile.properties.id.format).toBe('uuid');
    expect(s.GenotypeFile.properties.created_at.format).toBe('date-time');
    expect(s.UploadUrl.properties.url.format).toBe('uri');
    for (const shape of ['TraitAssessment', 'FullTraitAssessment', 'TraitAssessmentCompact']) {
      expect(s[shape].required, shape).toEqual(
        expect.arrayContaining(['status', 'assessment_level', 'recommendations', 'percentile', 'snps']),
      );
    }
    expect(s.FullTraitAssessment.required).toEqual(expect.arrayContaining(['trait', 'markers', 'distribution']));
    expect(s.ProfileTraitStatus.required).toEqual(['trait', 'status']);
    expect(s.ScoreDistribution.properties.density.items).toMatchObject({ type: 'array', minItems: 2, maxItems: 2 });
    expect(JSON.stringify(s)).not.toContain('prefixItems');
    expect(s.Trait.properties.category['x-traitscope-extension']).toBe(true);
    expect(s.Trait.properties.code['x-traitscope-extension']).toBeUndefined();
    // Input schemas accept unknown keys, as the service does.
    expect(s.ProfileInput.additionalProperties).toBeUndefined();
  });
  // An OpenAPI 3.1 validator and Spectral's oas ruleset check the document in `npm run lint:api`
  // (part of `npm run lint`, and run by .ci/run), not here a second time.
});

describe('GET /api/version', () => {
  it('tells the app, API and catalog versions without a token', async () => {
    const r = await request(`${server.api}/version`);
    expect(r.status).toBe(200);
    expect(r.body.api_version).toBe((openApiDocument() as Json).info.version);
    expect(r.body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.body.catalog.revision).toMatch(/^[0-9a-f]{16}$/);
    expect(r.body.catalog.traits).toBeGreaterThan(100);
  });
});

describe('the reference page', () => {
  it(
    'is served at /api/docs without a token and renders every operation offline, inside the CSP',
    { timeout: 180_000 },
    async () => {
      const page = await request(`${server.api}/docs`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
      const browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: CHROMIUM_ARGS,
      });
      try {
        const context = await browser.newContext();
        const offsite: string[] = [];
        // Offline: any request that leaves the service fails the test.
        await context.route('**/*', (route) => {
          const url = new URL(route.request().url());
          if (url.origin === server.origin || url.protocol === 'data:') return route.continue();
          offsite.push(url.href);
          return route.abort();
        });
        const tab = await context.newPage();
        const problems: string[] = [];
        tab.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
        tab.on('pageerror', (e) => problems.push(e.message));
        await tab.addInitScript(() => {
          document.addEventListener('securitypolicyviolation', (e) =>
            console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
          );
        });
        await tab.goto(`${server.api}/docs`);
        await tab.getByText('listProfiles', { exact: true }).first().waitFor({ timeout: 30_000 });
        const shown = await tab.locator('.opblock').count();
        expect(shown).toBe(Object.keys(operations).length);
        expect(await tab.getByText('The workflow with curl').count()).toBeGreaterThan(0);
        expect(problems).toEqual([]);
        expect(offsite).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
