/**
 * Every Electron security setting of the app, in one place, so that a review can read it
 * top to bottom. The renderer is an ordinary web page of the local service: it gets no
 * Node, no navigation away from the app's page, no new windows, no permissions, no network
 * beyond the service, and links to the web open in the system browser once the person
 * confirms. The rules themselves are src/main/shell-guards.ts (tested with a stand-in for
 * Electron); this module installs them on Electron's objects.
 */
import {
  app,
  BrowserWindow,
  dialog,
  session,
  shell,
  type BrowserWindowConstructorOptions,
  type WebContents,
} from 'electron';
import { guardContents, guardSession, type BrowserHandOff, type DevServerOptions } from './shell-guards.js';

/** The service's origin (http://127.0.0.1:<port>) once it runs; until then nothing may load. */
let trustedOrigin: string | null = null;

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

/** Asks before another site opens: the whole address is shown, since a URL can carry data. */
const systemBrowser: BrowserHandOff = {
  openInBrowser(url, { confirm }) {
    if (!confirm) return void shell.openExternal(url);
    const parent = BrowserWindow.getFocusedWindow();
    const options: Electron.MessageBoxOptions = {
      type: 'question',
      title: 'Open in your web browser?',
      message: `Open ${new URL(url).hostname} in your web browser?`,
      detail: `The browser will load this address, and the site will receive it:\n\n${url}\n\nNothing else leaves Traitscope.`,
      buttons: ['Open in Browser', 'Cancel'],
      defaultId: 0,
      cancelId: 1,
      noLink: true,
    };
    void (parent ? dialog.showMessageBox(parent, options) : dialog.showMessageBox(options)).then(({ response }) => {
      if (response === 0) void shell.openExternal(url);
    });
  },
};

/** Process-wide rules; call before the app is ready. */
export function applyProcessHardening(): void {
  // Every renderer sandboxed, whatever a window's options say.
  app.enableSandbox();
  app.on('web-contents-created', (_event, contents: WebContents) => {
    guardContents(contents, () => trustedOrigin, systemBrowser);
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

/** Session rules, once the app is ready and the service's origin is known. */
export function applySessionHardening(appOrigin: string, options: DevServerOptions = {}): void {
  trustedOrigin = appOrigin;
  guardSession(session.defaultSession, appOrigin, options);
}
