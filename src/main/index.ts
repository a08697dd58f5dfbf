/**
 * Traitscope's Electron main process: thin glue around the service. It starts the service
 * in-process on 127.0.0.1, opens one hardened window on it, and forwards files the
 * operating system hands over. Quitting stops the service cleanly. When the service cannot
 * start, a dialog says why and what to do, and the app quits.
 */
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, nativeTheme, shell } from 'electron';
import type { RunningService } from '../service/index.js';
import { devServerUrl, serveUiFromDevServer } from './dev-renderer.js';
import { applyProcessHardening, applySessionHardening, secureWebPreferences } from './hardening.js';
import { registerIpc } from './ipc.js';
import { parseLaunchArgs } from './launch-args.js';
import { installMenu } from './menu.js';
import { openFiles } from './open-files.js';
import { appSession, startHostedService } from './service-host.js';
import { describeStartupFailure } from './startup-failure.js';
import { loadWindowState, trackWindowState } from './window-state.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const PRELOAD = path.join(here, '..', 'preload', 'index.cjs');

/** What a second launch hands the running app (Electron passes it to 'second-instance'). */
interface HandOver {
  files: string[];
}

app.setName('Traitscope');
// Taskbar grouping and notifications on Windows: the installer's id (electron-builder.yml appId).
if (process.platform === 'win32') app.setAppUserModelId('app.traitscope.desktop');
applyProcessHardening();

const launchArgs = parseLaunchArgs(process.argv.slice(app.isPackaged ? 1 : 2), process.cwd());

/** --data-dir=FOLDER: the whole profile (database, uploads, window state) lives there. */
function useDataDir(dir: string | null): Error | null {
  if (!dir) return null;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    app.setPath('userData', dir);
    return null;
  } catch (err) {
    return err as Error;
  }
}

function isFolder(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Tells the user why the service cannot start (stderr too, for logs and tests), then quits. */
async function failStartup(err: unknown, dataDir: string): Promise<void> {
  const problem = describeStartupFailure(err, dataDir);
  console.error(`[traitscope] could not start: ${problem.message}\n${problem.detail}`);
  const canShowFolder = isFolder(dataDir);
  const { response } = await dialog.showMessageBox({
    type: 'error',
    title: 'Traitscope could not start',
    message: problem.message,
    detail: problem.detail,
    buttons: canShowFolder ? ['Quit', 'Show Data Folder'] : ['Quit'],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  });
  if (response === 1) await shell.openPath(dataDir);
  app.exit(1);
}

const dataDirProblem = useDataDir(launchArgs.dataDir);

if (dataDirProblem) {
  // No single-instance lock: it belongs to a data folder, and this one cannot be used.
  void app.whenReady().then(() => failStartup(dataDirProblem, launchArgs.dataDir!));
} else if (!app.requestSingleInstanceLock({ files: launchArgs.files } satisfies HandOver)) {
  // Another Traitscope runs on this data folder: it opens the files and comes to the front.
  app.quit();
} else {
  runApp();
}

function runApp(): void {
  let service: RunningService | null = null;
  let mainWindow: BrowserWindow | null = null;

  openFiles(launchArgs.files);

  app.on('second-instance', (_event, argv, workingDirectory, additionalData) => {
    const handedOver = (additionalData as Partial<HandOver> | null)?.files;
    // Older launchers hand over only a command line.
    openFiles(Array.isArray(handedOver) ? handedOver : parseLaunchArgs(argv.slice(1), workingDirectory).files);
    showWindow();
  });

  // macOS: files dropped on the dock icon or opened with the app, possibly before ready.
  app.on('open-file', (event, filePath) => {
    event.preventDefault();
    openFiles([filePath]);
    if (app.isReady()) showWindow();
  });

  /** Brings the window to the front, reopening it if it was closed (macOS keeps the app running). */
  function showWindow(): void {
    if (!mainWindow && service) mainWindow = createWindow(service.origin);
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
    const dataDir = app.getPath('userData');
    try {
      service = await startHostedService(dataDir);
    } catch (err) {
      await failStartup(err, dataDir);
      return;
    }
    const running = service;
    const devServer = devServerUrl();
    applySessionHardening(running.origin, { devServer: devServer ?? undefined });
    if (devServer) serveUiFromDevServer(running.origin, devServer);
    registerIpc({
      origin: running.origin,
      dataDir: running.config.dataDir,
      maxUploadBytes: running.config.maxUploadBytes,
      session: () => appSession(running),
    });
    installMenu({ window: () => mainWindow, dataDir: running.config.dataDir });
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
