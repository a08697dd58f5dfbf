/**
 * The UI's Content-Security-Policy, in one place: Electron sets it on the window's
 * responses (src/main/hardening.ts) and the service sends it with the web UI, so the
 * desktop window and a browser on `npm run serve` get the same rules.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/**
 * The API reference page (/api/docs) runs Swagger UI, third-party code, on the service's
 * origin. Its `sandbox` puts it in an opaque origin of its own: it cannot read the web UI's
 * session storage (the access token of a signed-in tab) nor call the API with the tab's
 * cookies or storage, even when it is opened in the same tab as the UI.
 */
export const API_REFERENCE_POLICY = `${CONTENT_SECURITY_POLICY}; sandbox allow-scripts allow-popups allow-popups-to-escape-sandbox`;
