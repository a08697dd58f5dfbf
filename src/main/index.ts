/**
 * Traitscope's Electron main process: thin glue around the service. It starts the service
 * in-process on 127.0.0.1, opens one hardened window on it, and forwards files the
 * operating system hands over. Quitting stops the service, within QUIT_DEADLINE_MS. When the
 * service cannot start, a dialog says why, what to do and where the log is, and the app quits.
 * Main-process and service messages go to the data folder's log (src/service/log-file.ts);
 * crash reports stay local (src/main/crash-reports.ts).
 */
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, nativeTheme, shell } from 'electron';
import { DEFAULT_PORT } from '../service/config.js';
import { catalogRevision } from '../service/http/routes/service.js';
import type { RunningService } from '../service/index.js';
import type { AppNotice } from '../shared/desktop-bridge.js';
import { copyConsoleToLog, openLogFile, type LogFile } from '../service/log-file.js';
import { startLocalCrashReporter } from './crash-reports.js';
import { appUpdates } from './updates.js';
import { devServerUrl, serveUiFromDevServer } from './dev-renderer.js';
import { applyProcessHardening, applySessionHardening, secureWebPreferences } from './hardening.js';
import { registerIpc } from './ipc.js';
import { parseLaunchArgs } from './launch-args.js';
import { portMovedNotice } from './port-choice.js';
import { installMenu } from './menu.js';
import { openFiles } from './open-files.js';
import { appSession, startHostedService } from './service-host.js';
import { describeStartupFailure } from './startup-failure.js';
import { watchWindowHealth } from './window-health.js';
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
startLocalCrashReporter();

/**
 * How long quitting waits for running jobs to finish. After it the process exits: a job cut
 * off writes nothing half-done (each result is one SQLite transaction, and an interrupted
 * file stays "uploaded"), so it is processed again at the next start. What an upload's
 * completion acknowledged is never lost.
 */
const QUIT_DEADLINE_MS = 10_000;

/** The data folder's log, once the folder is usable; null when it is not (the startup dialog says why). */
let log = null as LogFile | null;
function openLog(dataDir: string): void {
  try {
    log = openLogFile(dataDir);
    copyConsoleToLog(log);
  } catch {
    log = null;
  }
}

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
  if (err instanceof Error && err.stack) log?.write('error', err.stack);
  const logFile = log?.path;
  const buttons = ['Quit', ...(isFolder(dataDir) ? ['Show Data Folder'] : []), ...(logFile ? ['Show Log File'] : [])];
  const { response } = await dialog.showMessageBox({
    type: 'error',
    title: 'Traitscope could not start',
    message: problem.message,
    detail: logFile ? `${problem.detail}\n\nThe details are in the log file: ${logFile}` : problem.detail,
    buttons,
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  });
  if (buttons[response] === 'Show Data Folder') await shell.openPath(dataDir);
  if (buttons[response] === 'Show Log File' && logFile) shell.showItemInFolder(logFile);
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
  openLog(app.getPath('userData'));
  log?.write(
    'info',
    `Traitscope ${app.getVersion()} starting (Electron ${process.versions.electron}, ${process.platform} ${process.arch})`,
  );
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
    watchWindowHealth(win, log);
    win.once('ready-to-show', () => win.show());
    win.on('closed', () => {
      if (mainWindow === win) mainWindow = null;
    });
    void win.loadURL(`${origin}/`);
    return win;
  }

  /**
   * When the service is not on its usual port, the window says where it is and where tools
   * must look for it (port-choice.ts), once, instead of moving silently; the log too.
   */
  function portNotices(running: RunningService): AppNotice[] {
    const notice = portMovedNotice(DEFAULT_PORT, running.origin, running.config.dataDir);
    if (!notice) return [];
    log?.write('warn', `${notice.message}. ${notice.detail}`);
    return [{ title: notice.message, detail: notice.detail }];
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
      ingestFile: running.ingestFile,
      notices: portNotices(running),
    });
    // Update checks contact nothing unless the person turned them on, or clicks (update-check.ts).
    const updates = appUpdates(running.config.dataDir, () => mainWindow, log);
    installMenu({ window: () => mainWindow, dataDir: running.config.dataDir, logFile: running.log.path, updates });
    mainWindow = createWindow(running.origin);
    mainWindow.once('ready-to-show', () => void updates.checks.atStart(updates.checkAtStart()));
    // About names the trait catalog's revision (what GET /api/version reports), once the page
    // has loaded it: the service's engine loads on first use, and the page's first view uses it.
    mainWindow.webContents.once('did-finish-load', () => {
      const engine = running.engine();
      app.setAboutPanelOptions({
        applicationName: 'Traitscope',
        applicationVersion: app.getVersion(),
        version: `trait catalog ${catalogRevision(engine)}, ${engine.traits.length} traits`,
      });
    });
  }

  void app.whenReady().then(launch);

  app.on('activate', () => {
    // macOS: clicking the dock icon with no window open reopens it.
    if (!mainWindow && service) mainWindow = createWindow(service.origin);
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Stop the service (finish the running jobs, close the database) before exiting, or exit
  // when that takes longer than QUIT_DEADLINE_MS (see there what is kept).
  let stopping = false;
  app.on('before-quit', (event) => {
    if (!service || stopping) return;
    event.preventDefault();
    stopping = true;
    const running = service;
    service = null;
    const stats = running.processor.stats();
    log?.write('info', `quitting: ${stats.busy} jobs running, ${stats.queued + stats.background} queued`);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => {
      timer = setTimeout(() => resolve('deadline'), QUIT_DEADLINE_MS);
    });
    void Promise.race([running.close().then(() => 'stopped' as const), deadline])
      .then((how) => {
        if (how === 'deadline') {
          log?.write('warn', `running jobs cut off after ${QUIT_DEADLINE_MS} ms; they run again at the next start`);
          app.exit(0);
        } else app.quit();
      })
      .catch((err: unknown) => {
        console.error('[traitscope] error while stopping the service:', err);
        app.quit();
      })
      .finally(() => clearTimeout(timer));
  });
}
