/**
 * `npm run dev`: the window still loads the service's own origin, so sessions, upload URLs,
 * the preload bridge and every hardening rule behave as in the packaged app; only the UI's
 * files come from Vite's dev server (with hot reload) instead of the built out/renderer.
 * Nothing of this runs in a packaged app.
 */
import { app, net, session } from 'electron';

/** Paths the service answers itself; everything else of its origin is the UI. */
const SERVICE_PATHS = ['/api/', '/oauth/', '/storage/'];

/** The dev server's address when running under `npm run dev` (electron-vite sets it), else null. */
export function devServerUrl(): string | null {
  return !app.isPackaged && process.env.ELECTRON_RENDERER_URL ? process.env.ELECTRON_RENDERER_URL : null;
}

export function serveUiFromDevServer(serviceOrigin: string, devServer: string): void {
  session.defaultSession.protocol.handle('http', (request) => {
    const url = new URL(request.url);
    const isUi = url.origin === serviceOrigin && !SERVICE_PATHS.some((prefix) => url.pathname.startsWith(prefix));
    return isUi
      ? net.fetch(new URL(`${url.pathname}${url.search}`, devServer).href, { bypassCustomProtocolHandlers: true })
      : net.fetch(request, { bypassCustomProtocolHandlers: true });
  });
}
