/**
 * Every Electron security setting of the app, in one place, so that a review can read it
 * top to bottom. The renderer is an ordinary web page of the local service: it gets no
 * Node, no navigation away from that service, no new windows, no permissions, no network
 * beyond the service, and links to the web open in the system browser.
 */
import { app, session, shell, type BrowserWindowConstructorOptions, type WebContents } from 'electron';
import { CONTENT_SECURITY_POLICY } from '../shared/csp.js';

/** Content Security Policy of the UI: only the service's own origin, no inline scripts, no eval. */

/** The service's origin (http://127.0.0.1:<port>) once it runs; until then nothing may load. */
let trustedOrigin: string | null = null;

function isAppUrl(url: string): boolean {
  return trustedOrigin !== null && (url === trustedOrigin || url.startsWith(`${trustedOrigin}/`));
}

/** Web addresses the user may open in their own browser (citations, vendor help pages). */
function isExternalWebLink(url: string): boolean {
  try {
    const u = new URL(url);
    return (
      (u.protocol === 'https:' || u.protocol === 'http:') && !['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)
    );
  } catch {
    return false;
  }
}

/** webPreferences of every window. The preload bridge is the only capability handed over. */
export function secureWebPreferences(preload: string): BrowserWindowConstructorOptions['webPreferences'] {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
  };
}

/** Process-wide rules; call before the app is ready. */
export function applyProcessHardening(): void {
  // Every renderer sandboxed, whatever a window's options say.
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
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

/** Session rules, once the app is ready and the service's origin is known. */
export function applySessionHardening(appOrigin: string, { devServer }: DevServerOptions = {}): void {
  trustedOrigin = appOrigin;
  const ses = session.defaultSession;
  const devOrigin = devServer ? new URL(devServer).origin : null;
  const isDevServerUrl = (url: string) =>
    devOrigin !== null && (url.startsWith(`${devOrigin}/`) || url.startsWith(`${devOrigin.replace(/^http/, 'ws')}/`));
  const policy = devOrigin ? developmentPolicy(devOrigin) : CONTENT_SECURITY_POLICY;

  // No camera, microphone, notifications, geolocation, clipboard reads, HID, serial, …
  // Only writing text to the clipboard (the "Copy" buttons of API secrets) is allowed.
  const allowed = (permission: string) => permission === 'clipboard-sanitized-write';
  ses.setPermissionRequestHandler((_wc, permission, callback) => callback(allowed(permission)));
  ses.setPermissionCheckHandler((_wc, permission) => allowed(permission));
  ses.setDevicePermissionHandler(() => false);

  // Genetic data never leaves the machine: pages may only reach the local service.
  ses.webRequest.onBeforeRequest((details, callback) => {
    const url = details.url;
    const allowed =
      isAppUrl(url) ||
      isDevServerUrl(url) ||
      url.startsWith('devtools://') ||
      url.startsWith('data:') ||
      url.startsWith('blob:');
    callback({ cancel: !allowed });
  });

  // The policy travels as a response header of every page of the service (the UI's own
  // <meta> policy covers the headless browser case).
  ses.webRequest.onHeadersReceived((details, callback) => {
    if (!isAppUrl(details.url)) return callback({});
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] } });
  });
}

function hardenWebContents(contents: WebContents): void {
  // No new windows: web links (and the service's own public pages, such as its OpenAPI
  // document) open in the system browser; anything else is dropped.
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebLink(url) || isAppUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  // No navigation away from the service (a stray link, a file dropped outside the drop
  // zone, a redirect): web links open in the browser instead.
  const guard = (event: Electron.Event, url: string) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    if (isExternalWebLink(url)) void shell.openExternal(url);
  };
  contents.on('will-navigate', guard);
  contents.on('will-frame-navigate', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
