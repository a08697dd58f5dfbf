/**
 * Traitscope's Electron main process: thin glue around the service. It starts the service
 * in-process on 127.0.0.1, opens one hardened window on it, and forwards files the
 * operating system hands over. Quitting stops the service cleanly.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, nativeTheme } from 'electron';
import type { RunningService } from '../service/index.js';
import { applyProcessHardening, applySessionHardening, secureWebPreferences } from './hardening.js';
import { registerIpc } from './ipc.js';
import { installMenu } from './menu.js';
import { filesFromArgv, openFiles } from './open-files.js';
import { appSession, startHostedService } from './service-host.js';
import { loadWindowState, trackWindowState } from './window-state.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const PRELOAD = path.join(here, '..', 'preload', 'index.cjs');

app.setName('Traitscope');
applyProcessHardening();

// A second launch hands its files to the running app and quits.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let service: RunningService | null = null;
  let mainWindow: BrowserWindow | null = null;

  app.on('second-instance', (_event, argv) => {
    focusWindow();
    openFiles(filesFromArgv(argv));
  });

  // macOS: files dropped on the dock icon or opened with the app, possibly before ready.
  app.on('open-file', (event, filePath) => {
    event.preventDefault();
    openFiles([filePath]);
    if (app.isReady()) focusWindow();
  });

  function focusWindow(): void {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.show();
    mainWindow.focus();
  }

  function createWindow(origin: string): BrowserWindow {
    const state = loadWindowState();
    const win = new BrowserWindow({
      ...(state.centre ? { width: state.bounds.width, height: state.bounds.height, center: true } : state.bounds),
      minWidth: 880,
      minHeight: 600,
      show: false,
      title: 'Traitscope',
      // The page's own background, so the window never flashes white in dark mode.
      backgroundColor: nativeTheme.shouldUseDarkColors ? '#15171c' : '#f6f7f9',
      autoHideMenuBar: process.platform !== 'darwin',
      webPreferences: secureWebPreferences(PRELOAD),
    });
    if (state.maximized) win.maximize();
    trackWindowState(win);
    win.once('ready-to-show', () => win.show());
    win.on('closed', () => {
      if (mainWindow === win) mainWindow = null;
    });
    void win.loadURL(`${origin}/`);
    return win;
  }

  async function launch(): Promise<void> {
    try {
      service = await startHostedService();
    } catch (err) {
      dialog.showErrorBox(
        'Traitscope could not start',
        `${(err as Error).message}\n\nIf another copy of Traitscope is stuck, end it in your task manager and try again.`,
      );
      app.exit(1);
      return;
    }
    const running = service;
    applySessionHardening(running.origin);
    registerIpc({ origin: running.origin, dataDir: running.config.dataDir, session: () => appSession(running) });
    installMenu({ window: () => mainWindow, dataDir: running.config.dataDir });
    openFiles(filesFromArgv(process.argv));
    mainWindow = createWindow(running.origin);
  }

  void app.whenReady().then(launch);

  app.on('activate', () => {
    // macOS: clicking the dock icon with no window open reopens it.
    if (!mainWindow && service) mainWindow = createWindow(service.origin);
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Stop the service (finish the running parse, close the database) before exiting.
  let stopping = false;
  app.on('before-quit', (event) => {
    if (!service || stopping) return;
    event.preventDefault();
    stopping = true;
    const running = service;
    service = null;
    void running
      .close()
      .catch((err: unknown) => console.error('[traitscope] error while stopping the service:', err))
      .finally(() => app.quit());
  });
}
