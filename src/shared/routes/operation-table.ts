/**
 * Method and path of every operation of the route table, by operationId, as plain data: what
 * a client needs to make a call, without the zod schemas the full table is built from (the
 * UI's bundle carries no schema registry). test/api/operation-table.test.ts checks it
 * against the route table and the OpenAPI document, and the type below against the
 * table's ids, so the two cannot drift.
 */
import type { Method } from './define.js';
import type { OperationId } from './index.js';

export const OPERATION_TABLE = {
  getVersion: { method: 'get', path: '/api/version' },
  getOpenApiDocument: { method: 'get', path: '/api/openapi.json' },
  getApiReference: { method: 'get', path: '/api/docs' },
  requestToken: { method: 'post', path: '/oauth/token' },
  signIn: { method: 'post', path: '/oauth/sign-in' },
  listProfiles: { method: 'get', path: '/api/profiles/' },
  createProfile: { method: 'post', path: '/api/profiles/' },
  getProfile: { method: 'get', path: '/api/profiles/{profile_id}/' },
  replaceProfile: { method: 'put', path: '/api/profiles/{profile_id}/' },
  updateProfile: { method: 'patch', path: '/api/profiles/{profile_id}/' },
  deleteProfile: { method: 'delete', path: '/api/profiles/{profile_id}/' },
  getGenotypeMetadata: { method: 'get', path: '/api/profiles/{profile_id}/genotype/' },
  getUploadUrl: { method: 'get', path: '/api/profiles/{profile_id}/genotype/upload/' },
  processGenotype: { method: 'post', path: '/api/profiles/{profile_id}/genotype/upload/' },
  lookupSnps: { method: 'get', path: '/api/profiles/{profile_id}/genotype/snps/' },
  lookupSnpsInBody: { method: 'post', path: '/api/profiles/{profile_id}/genotype/snps/' },
  getFindings: { method: 'get', path: '/api/profiles/{profile_id}/findings/' },
  getPharmacogenes: { method: 'get', path: '/api/profiles/{profile_id}/pharmacogenes/' },
  listClientTraits: { method: 'get', path: '/api/traits/' },
  getClientTrait: { method: 'get', path: '/api/traits/{trait_code}/' },
  listProfileTraits: { method: 'get', path: '/api/profiles/{profile_id}/traits/' },
  computeTraits: { method: 'post', path: '/api/profiles/{profile_id}/traits/' },
  getTraitAssessment: { method: 'get', path: '/api/profiles/{profile_id}/traits/{trait_code}/' },
  computeTrait: { method: 'put', path: '/api/profiles/{profile_id}/traits/{trait_code}/' },
  uploadGenotypeFile: { method: 'put', path: '/storage/genotypes/{profile_id}' },
  getEventsUrl: { method: 'get', path: '/api/events/url' },
  streamEvents: { method: 'get', path: '/api/events' },
  getDiagnostics: { method: 'get', path: '/api/app/diagnostics' },
  getAppInfo: { method: 'get', path: '/api/app/info' },
  listApiClients: { method: 'get', path: '/api/app/clients/' },
  createApiClient: { method: 'post', path: '/api/app/clients/' },
  revokeApiClient: { method: 'delete', path: '/api/app/clients/{client_id}/' },
  listCustomTraits: { method: 'get', path: '/api/app/traits/' },
  importCustomTrait: { method: 'post', path: '/api/app/traits/' },
  removeCustomTrait: { method: 'delete', path: '/api/app/traits/{trait_code}/' },
  getCorsSettings: { method: 'get', path: '/api/app/cors' },
  updateCorsSettings: { method: 'put', path: '/api/app/cors' },
  deleteAllData: { method: 'delete', path: '/api/app/data/' },
} as const satisfies Record<OperationId, { method: Method; path: string }>;
