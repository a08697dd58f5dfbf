/** The OAuth scopes of the API, as plain data (the UI offers them without the schema registry). */
export const SCOPES = ['read:profiles', 'write:profiles'] as const;
export type Scope = (typeof SCOPES)[number];
/** Held only by the desktop UI's own client: manage API clients and app data. */
export const APP_SCOPE = 'manage:app';
export type AnyScope = Scope | typeof APP_SCOPE;
