/**
 * The API contract: every request and response body of the REST interface, as zod
 * schemas. The service validates with these, the route table (routes/) ties them to
 * operations, and from that table come the express routes, the OpenAPI document and the
 * renderer's typed client.
 */
export * from './schemas/common.js';
export * from './schemas/profiles.js';
export * from './schemas/genotype.js';
export * from './schemas/traits.js';
export * from './schemas/oauth.js';
export * from './schemas/app.js';
export * from './schemas/meta.js';
export * from './schemas/findings.js';
export * from './schemas/pharmacogenes.js';
export * from './schemas/events.js';
