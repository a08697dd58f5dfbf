/**
 * How the page gets its access token. In the desktop app the preload bridge asks the main
 * process for one. Headless, `serve` prints a one-time sign-in link with a code in the URL
 * fragment: the page removes it from the address bar, exchanges it once for an access
 * token (POST /oauth/sign-in) and keeps that in sessionStorage (gone when the tab closes).
 */
import { desktopBridge } from '../platform/bridge.js';

export interface Session {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  token: string;
  /** Whether a fresh token can be fetched without the user (desktop app). */
  renewable: boolean;
}

const STORAGE_KEY = 'traitscope.token';

export class NoSessionError extends Error {}

/** The one-time code of a sign-in link, taken out of the address bar. */
function signInCodeFromAddress(): string | null {
  const match = /(?:^#|&)signin=([A-Za-z0-9_\-.~]+)/.exec(window.location.hash);
  if (!match) return null;
  const rest = window.location.hash.replace(/(^#|&)signin=[^&]*/, '').replace(/^#&?/, '');
  history.replaceState(null, '', `${window.location.pathname}${window.location.search}${rest ? `#${rest}` : ''}`);
  return match[1];
}

async function exchangeSignInCode(code: string): Promise<string> {
  const res = await fetch('/oauth/sign-in', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ code }),
  });
  const body = (await res.json().catch(() => ({}))) as { access_token?: string; error_description?: string };
  if (!res.ok || !body.access_token) {
    throw new NoSessionError(
      body.error_description ??
        'This sign-in link could not be used. Get a new one with `npm run cli -- sign-in-link`.',
    );
  }
  return body.access_token;
}

export async function obtainSession(): Promise<Session> {
  const bridge = desktopBridge();
  if (bridge) return { ...(await bridge.getSession()), renewable: true };
  const code = signInCodeFromAddress();
  if (code) sessionStorage.setItem(STORAGE_KEY, await exchangeSignInCode(code));
  const token = sessionStorage.getItem(STORAGE_KEY);
  if (!token) {
    throw new NoSessionError(
      'Open Traitscope with the sign-in link that `npm run serve` printed in the terminal (it ends in #signin=…). Each link signs one browser tab in, once; `npm run cli -- sign-in-link` prints a new one.',
    );
  }
  return { baseUrl: window.location.origin, token, renewable: false };
}
