/**
 * OpenAPI violations seen by the fetch wrapper (conformance-setup.ts) and not yet reported
 * by a test. Kept on globalThis: the setup file runs again for every test file in a reused
 * worker, and the one fetch wrapper must report to whichever file is running.
 */
const store = globalThis as { traitscopeOpenApiViolations?: string[] };
export const violations: string[] = (store.traitscopeOpenApiViolations ??= []);
