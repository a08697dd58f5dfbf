/**
 * The OpenAPI 3.1 document of the whole API. Component schemas are generated from the
 * same zod schemas the service validates with (src/shared/api.ts), so they cannot drift.
 */
import { z } from 'zod';
import * as api from '../../shared/api.js';

type Json = Record<string, unknown>;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json, description: string) => ({ description, content: { 'application/json': { schema } } });
const detail = (description: string) => json(ref('Detail'), description);

const profileId = { name: 'profile_id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const traitCode = { name: 'trait_code', in: 'path', required: true, schema: { type: 'string' } };

const common = {
  401: detail('Missing, invalid, expired or revoked token.'),
  403: detail('The token lacks the scope this method needs (read:profiles for GET, write:profiles otherwise).'),
};
const profileScoped = { ...common, 404: detail('No such profile for this client.') };

function componentSchemas(): Json {
  // Referencing the module keeps its registrations (schemas with .meta({id})) in the registry.
  void api.Profile;
  const { schemas } = z.toJSONSchema(z.globalRegistry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` });
  for (const schema of Object.values(schemas) as Json[]) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
}

export function openApiDocument(serverUrl: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Traitscope API',
      version: '1.0.0',
      description:
        'Genotype trait assessments computed locally. Every non-2xx response of /api and /storage has the body {"detail": "..."}; /oauth/token errors follow RFC 6749 §5.2. Every path works with and without its trailing slash.',
    },
    servers: [{ url: `${serverUrl}/api` }],
    security: [{ oauth2: ['read:profiles', 'write:profiles'] }],
    paths: {
      '/profiles/': {
        get: { summary: 'List profiles (oldest first)', responses: { 200: json({ type: 'array', items: ref('Profile') }, 'Profiles of this client.'), ...common } },
        post: {
          summary: 'Create a profile',
          requestBody: { content: { 'application/json': { schema: ref('ProfileInput') } } },
          responses: { 201: json(ref('Profile'), 'Created.'), 400: detail('Malformed JSON.'), 405: detail('Invalid input; the detail names the field.'), ...common },
        },
      },
      '/profiles/{profile_id}/': {
        parameters: [profileId],
        get: { summary: 'Get a profile', responses: { 200: json(ref('Profile'), 'The profile.'), ...profileScoped } },
        put: {
          summary: 'Replace a profile (omitted fields take their defaults: "", "", 0, null, 0)',
          requestBody: { content: { 'application/json': { schema: ref('ProfileInput') } } },
          responses: { 200: json(ref('Profile'), 'Updated.'), 405: detail('Invalid input.'), ...profileScoped },
        },
        patch: {
          summary: 'Update the given profile fields',
          requestBody: { content: { 'application/json': { schema: ref('ProfileInput') } } },
          responses: { 200: json(ref('Profile'), 'Updated.'), 405: detail('Invalid input.'), ...profileScoped },
        },
        delete: { summary: 'Delete a profile with its files, genotype and assessments', responses: { 200: detail('Deleted.'), ...profileScoped } },
      },
      '/profiles/{profile_id}/genotype/': {
        parameters: [profileId],
        get: { summary: 'Metadata of the uploaded file, with processing state and parse summary', responses: { 200: json(ref('GenotypeMetadata'), 'Metadata, or {} when nothing was uploaded.'), ...profileScoped } },
      },
      '/profiles/{profile_id}/genotype/upload/': {
        parameters: [profileId],
        get: {
          summary: 'Get a time-limited upload URL (PUT the file there with the same Content-Type)',
          parameters: [{ name: 'content-type', in: 'query', required: false, schema: { type: 'string', enum: [...api.UPLOAD_CONTENT_TYPES], default: 'text/plain' } }],
          responses: { 200: json(ref('UploadUrl'), 'The URL, valid for 180 s.'), 400: detail('Unsupported content type.'), ...profileScoped },
        },
        post: {
          summary: '(Re)process the uploaded file and wait until done',
          responses: {
            200: detail('Processed.'),
            401: detail('No token, or nothing uploaded yet for this profile.'),
            403: common[403],
            404: profileScoped[404],
            422: detail('The file could not be read; the detail says why. The previous genotype stays in use.'),
          },
        },
      },
      '/profiles/{profile_id}/genotype/snps/': {
        parameters: [profileId],
        get: {
          summary: 'Genotypes of the requested markers (markers not in the file are left out)',
          parameters: [{ name: 'rsid', in: 'query', required: true, schema: { type: 'string' }, description: 'Comma-separated rsIDs (at most 10,000).' }],
          responses: { 200: json({ type: 'array', items: ref('GenotypeSnp') }, 'Found markers.'), 400: detail('Bad rsID list.'), 409: detail('No processed genotype yet.'), ...profileScoped },
        },
      },
      '/profiles/{profile_id}/traits/': {
        parameters: [profileId],
        get: {
          summary: 'Trait statuses; with `score`, only computed traits with their assessment summary. [] while no genotype is ready.',
          parameters: [{ name: 'score', in: 'query', required: false, allowEmptyValue: true, schema: { type: 'string' } }],
          responses: { 200: json({ type: 'array', items: ref('ProfileTrait') }, 'Traits.'), ...profileScoped },
        },
        post: {
          summary: 'Compute the requested available traits; returns every requested trait computed afterwards',
          requestBody: { content: { 'application/json': { schema: ref('ComputeRequest') } } },
          responses: { 200: json({ type: 'array', items: ref('ProfileTrait') }, 'Computed traits with assessment summaries.'), 400: detail('Body is not a list of codes.'), ...profileScoped },
        },
      },
      '/profiles/{profile_id}/traits/{trait_code}/': {
        parameters: [profileId, traitCode],
        get: { summary: 'One trait: the full assessment when computed, else trait and status', responses: { 200: json(ref('ProfileTrait'), 'The trait.'), ...profileScoped } },
        put: {
          summary: 'Compute one trait and return the full assessment',
          responses: { 200: json(ref('ProfileTrait'), 'Full assessment.'), 409: detail('Not computable for this profile (or no genotype yet).'), ...profileScoped },
        },
      },
      '/traits/': {
        get: {
          summary: "The client's traits with pricing type",
          parameters: [{ name: 'q', in: 'query', required: false, schema: { type: 'string' }, description: 'Keep traits whose code or name contains this (case-insensitive).' }],
          responses: { 200: json({ type: 'array', items: ref('ClientTrait') }, 'Traits.'), ...common },
        },
      },
      '/openapi.json': { get: { summary: 'This document', security: [], responses: { 200: { description: 'OpenAPI 3.1 document.' } } } },
    },
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description: 'Client credentials; POST /oauth/token with client_id, client_secret, audience ({base_url}/profiles) and grant_type=client_credentials.',
          flows: {
            clientCredentials: {
              tokenUrl: `${serverUrl}/oauth/token`,
              scopes: { 'read:profiles': 'read your profiles', 'write:profiles': 'modify profiles' },
            },
          },
        },
      },
    },
  };
}
