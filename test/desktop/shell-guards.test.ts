/**
 * The desktop shell's security rules (src/main/shell-guards.ts, installed by
 * src/main/hardening.ts), driven through a stand-in for the Electron objects they attach
 * to: a WebContents that raises navigation events the way Electron does (an event whose
 * preventDefault() keeps the page) and calls the window-open handler, and a Session whose
 * permission and request handlers are called as Chromium calls them. Electron itself cannot
 * run here; the packaged-app smoke test checks the same rules in the real app.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src/shared/csp.js';
import {
  guardContents,
  guardSession,
  isAppPageFrame,
  type GuardedSession,
  type GuardEvent,
} from '../../src/main/shell-guards.js';

const ORIGIN = 'http://127.0.0.1:4780';

/** A WebContents as far as the rules see it. */
class StandInContents extends EventEmitter {
  windowOpenHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void {
    this.windowOpenHandler = handler;
  }
  /** Raises a navigation event; true when the page may go there. */
  attempt(eventName: 'will-navigate' | 'will-frame-navigate' | 'will-redirect', url: string): boolean {
    let prevented = false;
    const event: GuardEvent = { url, preventDefault: () => void (prevented = true) };
    this.emit(eventName, event, url);
    return !prevented;
  }
  windowOpen(url: string): string {
    return this.windowOpenHandler!({ url }).action;
  }
}

type RequestListener = Parameters<GuardedSession['webRequest']['onBeforeRequest']>[0];
type HeadersListener = Parameters<GuardedSession['webRequest']['onHeadersReceived']>[0];

/** A Session as far as the rules see it. */
function standInSession() {
  const handlers: {
    request?: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void;
    check?: (contents: unknown, permission: string) => boolean;
    device?: () => boolean;
    beforeRequest?: RequestListener;
    headers?: HeadersListener;
  } = {};
  const ses: GuardedSession = {
    setPermissionRequestHandler: (h) => void (handlers.request = h),
    setPermissionCheckHandler: (h) => void (handlers.check = h),
    setDevicePermissionHandler: (h) => void (handlers.device = h),
    webRequest: {
      onBeforeRequest: (l) => void (handlers.beforeRequest = l),
      onHeadersReceived: (l) => void (handlers.headers = l),
    },
  };
  return {
    ses,
    requestPermission: (permission: string) =>
      new Promise<boolean>((resolve) => handlers.request!(null, permission, resolve)),
    checkPermission: (permission: string) => handlers.check!(null, permission),
    devicePermission: () => handlers.device!(),
    cancelled: (url: string) =>
      new Promise<boolean>((resolve) => handlers.beforeRequest!({ url }, ({ cancel }) => resolve(cancel))),
    headersOf: (url: string, responseHeaders: Record<string, string[]>) =>
      new Promise<Record<string, string[]> | undefined>((resolve) =>
        handlers.headers!({ url, responseHeaders }, (r) => resolve(r.responseHeaders)),
      ),
  };
}

function guardedWindow() {
  const contents = new StandInContents();
  const opened: { url: string; confirm: boolean }[] = [];
  guardContents(contents, () => ORIGIN, { openInBrowser: (url, { confirm }) => void opened.push({ url, confirm }) });
  return { contents, opened };
}

describe('the window of the desktop app', () => {
  it('stays on the app page: its # routes navigate, other sites and other pages of the service do not', () => {
    const { contents, opened } = guardedWindow();
    expect(contents.attempt('will-navigate', `${ORIGIN}/#/profiles/3`)).toBe(true);
    expect(contents.attempt('will-navigate', `${ORIGIN}/`)).toBe(true);
    expect(contents.attempt('will-navigate', 'https://example.org/?rs=AA')).toBe(false);
    expect(contents.attempt('will-navigate', `${ORIGIN}/api/docs`)).toBe(false);
    expect(contents.attempt('will-navigate', 'http://127.0.0.1:9999/')).toBe(false);
    expect(contents.attempt('will-navigate', 'file:///etc/passwd')).toBe(false);
    expect(contents.attempt('will-frame-navigate', 'https://example.org/')).toBe(false);
    expect(contents.attempt('will-frame-navigate', `${ORIGIN}/api/docs`)).toBe(false);
    // Another site goes to the system browser only once the person confirms; the service's own reference directly.
    expect(opened).toEqual([
      { url: 'https://example.org/?rs=AA', confirm: true },
      { url: `${ORIGIN}/api/docs`, confirm: false },
    ]);
  });

  it('opens no window: window.open and target=_blank are denied, web links handed to the browser after a confirmation', () => {
    const { contents, opened } = guardedWindow();
    expect(contents.windowOpen('https://pubmed.ncbi.nlm.nih.gov/123/')).toBe('deny');
    expect(contents.windowOpen(`${ORIGIN}/api/docs`)).toBe('deny');
    expect(contents.windowOpen('javascript:alert(1)')).toBe('deny');
    expect(contents.windowOpen('file:///home/')).toBe('deny');
    expect(opened).toEqual([
      { url: 'https://pubmed.ncbi.nlm.nih.gov/123/', confirm: true },
      { url: `${ORIGIN}/api/docs`, confirm: false },
    ]);
  });

  it('refuses redirects off the service', () => {
    const { contents, opened } = guardedWindow();
    expect(contents.attempt('will-redirect', `${ORIGIN}/api/version`)).toBe(true);
    expect(contents.attempt('will-redirect', 'https://example.org/collect')).toBe(false);
    expect(contents.attempt('will-redirect', 'http://localhost:4780/')).toBe(false);
    expect(opened).toEqual([]);
  });

  it('lets nothing load before the service runs', () => {
    const contents = new StandInContents();
    guardContents(contents, () => null, { openInBrowser: () => expect.unreachable() });
    expect(contents.attempt('will-navigate', `${ORIGIN}/`)).toBe(false);
  });
});

describe('the session of the desktop app', () => {
  it('grants no permission but writing to the clipboard, and no device', async () => {
    const s = standInSession();
    guardSession(s.ses, ORIGIN);
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'midi', 'fullscreen', 'hid']) {
      expect(await s.requestPermission(permission), permission).toBe(false);
      expect(s.checkPermission(permission), permission).toBe(false);
    }
    expect(await s.requestPermission('clipboard-sanitized-write')).toBe(true);
    expect(s.devicePermission()).toBe(false);
  });

  it('cancels every request that is not to the local service', async () => {
    const s = standInSession();
    guardSession(s.ses, ORIGIN);
    expect(await s.cancelled(`${ORIGIN}/api/profiles/`)).toBe(false);
    expect(await s.cancelled(`${ORIGIN}/storage/uploads/abc`)).toBe(false);
    expect(await s.cancelled('data:image/png;base64,AAAA')).toBe(false);
    for (const url of [
      'https://example.org/collect?genotype=AG',
      'http://127.0.0.1:4781/',
      'http://localhost:4780/api/',
      'ws://127.0.0.1:4780/',
      'file:///etc/passwd',
    ]) {
      expect(await s.cancelled(url), url).toBe(true);
    }
  });

  it("puts the app's policy on every page of the service and keeps a sandbox the service set", async () => {
    const s = standInSession();
    guardSession(s.ses, ORIGIN);
    const ui = await s.headersOf(`${ORIGIN}/`, { 'content-type': ['text/html'], 'content-security-policy': ['x'] });
    expect(ui).toEqual({ 'content-type': ['text/html'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
    const sandboxed = `${CONTENT_SECURITY_POLICY}; sandbox allow-scripts`;
    const docs = await s.headersOf(`${ORIGIN}/api/docs`, { 'Content-Security-Policy': [sandboxed] });
    expect(docs?.['Content-Security-Policy']).toEqual([sandboxed, CONTENT_SECURITY_POLICY]);
    expect(await s.headersOf('https://example.org/', {})).toBeUndefined();
  });
});

describe('the bridge between the page and the main process', () => {
  it("answers only the app page's top frame, not the API reference or a frame", () => {
    expect(isAppPageFrame({ url: `${ORIGIN}/#/settings`, parent: null }, ORIGIN)).toBe(true);
    expect(isAppPageFrame({ url: `${ORIGIN}/api/docs`, parent: null }, ORIGIN)).toBe(false);
    expect(isAppPageFrame({ url: `${ORIGIN}/api/docs/assets/docs.js`, parent: null }, ORIGIN)).toBe(false);
    expect(isAppPageFrame({ url: `${ORIGIN}/`, parent: {} }, ORIGIN)).toBe(false);
    expect(isAppPageFrame({ url: 'http://127.0.0.1:4781/', parent: null }, ORIGIN)).toBe(false);
    expect(isAppPageFrame(null, ORIGIN)).toBe(false);
  });
});
