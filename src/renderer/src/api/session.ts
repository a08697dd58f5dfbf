/**
 * How the page gets its access token. In the desktop app the preload bridge asks the main
 * process for one. Headless, `serve` prints a sign-in link carrying it in the URL
 * fragment: the page keeps it in sessionStorage (gone when the tab closes) and removes it
 * from the address bar so it is not bookmarked or shared by accident.
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

function tokenFromAddress(): string | null {
  const match = /(?:^#|&)token=([A-Za-z0-9_\-.~]+)/.exec(window.location.hash);
  if (!match) return null;
  const rest = window.location.hash.replace(/(^#|&)token=[^&]*/, '').replace(/^#&?/, '');
  history.replaceState(null, '', `${window.location.pathname}${window.location.search}${rest ? `#${rest}` : ''}`);
  return match[1];
}

export async function obtainSession(): Promise<Session> {
  const bridge = desktopBridge();
  if (bridge) return { ...(await bridge.getSession()), renewable: true };
  const fromAddress = tokenFromAddress();
  if (fromAddress) sessionStorage.setItem(STORAGE_KEY, fromAddress);
  const token = fromAddress ?? sessionStorage.getItem(STORAGE_KEY);
  if (!token) {
    throw new NoSessionError(
      'Open Traitscope with the sign-in link that `npm run serve` printed in the terminal (it ends in #token=…). The link signs this browser tab in.',
    );
  }
  return { baseUrl: window.location.origin, token, renewable: false };
}

export function forgetStoredToken(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
