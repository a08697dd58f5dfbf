/**
 * The rules that keep the desktop window an ordinary page of the local service, as plain
 * functions over the few Electron events and handlers they use. src/main/hardening.ts
 * installs them on Electron's own objects; test/desktop/shell-guards.test.ts drives the same
 * functions with a stand-in for those objects, since Electron cannot run everywhere the
 * tests do. Nothing here imports Electron.
 */
import { CONTENT_SECURITY_POLICY } from '../shared/csp.js';

/** An event the page's navigation raises; preventing it keeps the page where it is. */
export interface GuardEvent {
  url: string;
  preventDefault: () => void;
}

/** What the rules need of a WebContents. */
export interface GuardedContents {
  setWindowOpenHandler: (handler: (details: { url: string }) => { action: 'deny' }) => void;
  on: {
    (event: 'will-navigate', listener: (event: GuardEvent) => void): unknown;
    (event: 'will-frame-navigate', listener: (event: GuardEvent) => void): unknown;
    (event: 'will-redirect', listener: (event: GuardEvent) => void): unknown;
  };
}

/** What the rules need of a Session. */
export interface GuardedSession {
  setPermissionRequestHandler: (
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ) => void;
  setPermissionCheckHandler: (handler: (contents: unknown, permission: string) => boolean) => void;
  setDevicePermissionHandler: (handler: () => boolean) => void;
  webRequest: {
    onBeforeRequest: (
      listener: (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void,
    ) => void;
    onHeadersReceived: (
      listener: (
        details: { url: string; responseHeaders?: Record<string, string[]> },
        callback: (response: { responseHeaders?: Record<string, string[]> }) => void,
      ) => void,
    ) => void;
  };
}

/** How the shell leaves the window: the system browser, after the person confirms when the address is another site. */
export interface BrowserHandOff {
  /** `confirm`: ask first, showing the whole address, since a URL can carry data off the machine. */
  openInBrowser: (url: string, options: { confirm: boolean }) => void;
}

function sameOrigin(url: string, origin: string): URL | null {
  try {
    const u = new URL(url);
    return u.origin === origin ? u : null;
  } catch {
    return null;
  }
}

/** Any address of the local service (its pages, API, assets). */
export function isServiceUrl(url: string, origin: string | null): boolean {
  return origin !== null && sameOrigin(url, origin) !== null;
}

/**
 * The app's own page: the UI's document at the service's root (its views are # routes).
 * Other pages of the service, such as the API reference at /api/docs (third-party code),
 * are not the app, so the window does not show them and the bridge gives them nothing.
 */
export function isAppPage(url: string, origin: string | null): boolean {
  if (origin === null) return false;
  const u = sameOrigin(url, origin);
  return u !== null && (u.pathname === '/' || u.pathname === '/index.html');
}

/** Web addresses a person may open in their own browser (citations, vendor help pages). */
export function isExternalWebLink(url: string): boolean {
  try {
    const u = new URL(url);
    return (
      (u.protocol === 'https:' || u.protocol === 'http:') && !['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)
    );
  } catch {
    return false;
  }
}

/** A frame that asks the main process for something: only the app page's top frame is answered. */
export interface AskingFrame {
  url: string;
  parent: unknown;
}

export function isAppPageFrame(frame: AskingFrame | null | undefined, origin: string): boolean {
  return !!frame && frame.parent === null && isAppPage(frame.url, origin);
}

/**
 * No new windows, no navigation away from the app page, no redirects off the service, no
 * webviews. A link to another site opens in the system browser once the person confirms; a
 * link to another page of the service (the API reference) opens there directly.
 */
export function guardContents(contents: GuardedContents, origin: () => string | null, handOff: BrowserHandOff): void {
  const leave = (url: string) => {
    if (isExternalWebLink(url)) handOff.openInBrowser(url, { confirm: true });
    else if (isServiceUrl(url, origin())) handOff.openInBrowser(url, { confirm: false });
  };
  contents.setWindowOpenHandler(({ url }) => {
    leave(url);
    return { action: 'deny' };
  });
  contents.on('will-navigate', (event) => {
    if (isAppPage(event.url, origin())) return;
    event.preventDefault();
    leave(event.url);
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isAppPage(event.url, origin())) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isServiceUrl(event.url, origin())) event.preventDefault();
  });
}

/** `npm run dev` only: where the UI's files come from (src/main/dev-renderer.ts). */
export interface DevServerOptions {
  devServer?: string;
}

/**
 * The development policy: the dev server's inline scripts and styles (hot reload, React
 * refresh) and its websocket are allowed on top of the packaged policy.
 */
function developmentPolicy(devOrigin: string): string {
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
    .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
    .replace("connect-src 'self'", `connect-src 'self' ${devOrigin} ${devOrigin.replace(/^http/, 'ws')}`);
}

/** The only permission a page gets: writing text to the clipboard (the "Copy" buttons of API secrets). */
export function permissionAllowed(permission: string): boolean {
  return permission === 'clipboard-sanitized-write';
}

/**
 * Session rules: no camera, microphone, notifications, geolocation, clipboard reads or
 * devices; requests only to the local service (genetic data never leaves the machine); the
 * UI's Content-Security-Policy on every page of the service, in addition to any policy the
 * service sends itself (the API reference's `sandbox`, which keeps it out of the app's origin).
 */
export function guardSession(ses: GuardedSession, appOrigin: string, { devServer }: DevServerOptions = {}): void {
  const devOrigin = devServer ? new URL(devServer).origin : null;
  const isDevServerUrl = (url: string) =>
    devOrigin !== null && (url.startsWith(`${devOrigin}/`) || url.startsWith(`${devOrigin.replace(/^http/, 'ws')}/`));
  const policy = devOrigin ? developmentPolicy(devOrigin) : CONTENT_SECURITY_POLICY;

  ses.setPermissionRequestHandler((_contents, permission, callback) => callback(permissionAllowed(permission)));
  ses.setPermissionCheckHandler((_contents, permission) => permissionAllowed(permission));
  ses.setDevicePermissionHandler(() => false);

  ses.webRequest.onBeforeRequest((details, callback) => {
    const url = details.url;
    const allowed =
      isServiceUrl(url, appOrigin) ||
      isDevServerUrl(url) ||
      url.startsWith('devtools://') ||
      url.startsWith('data:') ||
      url.startsWith('blob:');
    callback({ cancel: !allowed });
  });

  ses.webRequest.onHeadersReceived((details, callback) => {
    if (!isServiceUrl(details.url, appOrigin)) return callback({});
    const headers: Record<string, string[]> = {};
    const sandboxes: string[] = [];
    for (const [name, values] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = values;
      else sandboxes.push(...values.filter((value) => /(^|;)\s*sandbox\b/.test(value)));
    }
    // Every policy of a response applies: a sandbox the service set stays, the app's policy replaces the rest.
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [...sandboxes, policy] } });
  });
}
