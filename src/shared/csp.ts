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
