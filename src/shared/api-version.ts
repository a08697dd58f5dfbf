/**
 * The version of this API document. 1.0.0 is interface.md; minor versions add what
 * docs/api.md's changelog lists, without breaking 1.0.0 clients. Apart from the schemas, so
 * what needs only the number (service.json, `traitscope status`) does not load zod.
 */
export const API_VERSION = '1.2.0';
