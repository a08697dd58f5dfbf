/**
 * The Electron side of update checks (update-check.ts has the decisions): electron-updater's
 * autoUpdater, the feed from the app's package.json, the person's setting, and the dialogs,
 * attached to the window. Nothing here runs a check by itself: index.ts calls atStart() with
 * the saved setting (off by default), the Help menu calls now().
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { app, dialog, type BrowserWindow } from 'electron';
import { autoUpdater } from 'electron-updater';
import type { LogFile } from '../service/log-file.js';
import {
  loadDesktopSettings,
  saveDesktopSettings,
  updateChecks,
  updateFeedOf,
  type UpdateChecks,
  type UpdateFeed,
} from './update-check.js';

export interface AppUpdates {
  checks: UpdateChecks;
  /** The feed the menu names, or null when this build has none. */
  feed: UpdateFeed | null;
  checkAtStart: () => boolean;
  setCheckAtStart: (on: boolean) => void;
}

function packageRepository(): unknown {
  const manifest = JSON.parse(readFileSync(path.join(app.getAppPath(), 'package.json'), 'utf8')) as {
    repository?: unknown;
  };
  return manifest.repository;
}

export function appUpdates(dataDir: string, window: () => BrowserWindow | null, log: LogFile | null): AppUpdates {
  const feed = updateFeedOf(packageRepository());
  let settings = loadDesktopSettings(dataDir, (message) => log?.write('warn', message));
  const ask = async (options: Electron.MessageBoxOptions): Promise<number> => {
    const win = window();
    return (win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options)).response;
  };
  const checks = updateChecks({
    feed,
    currentVersion: app.getVersion(),
    packaged: app.isPackaged,
    createUpdater: () => autoUpdater,
    log: (level, message) => log?.write(level, message),
    dialogs: {
      offerDownload: async (newVersion, currentVersion, f) =>
        (await ask({
          type: 'info',
          title: 'A newer Traitscope is available',
          message: `Traitscope ${newVersion} is available (you have ${currentVersion}).`,
          detail: `Download it from ${f.releasesUrl}? Nothing is installed until you choose to.`,
          buttons: ['Download', 'Not Now'],
          defaultId: 0,
          cancelId: 1,
          noLink: true,
        })) === 0,
      offerInstall: async (newVersion) =>
        (await ask({
          type: 'info',
          title: 'Update downloaded',
          message: `Traitscope ${newVersion} is downloaded.`,
          detail:
            'Installing it quits Traitscope (running analyses stop and run again at the next start) and starts the new version. Your profiles and results are kept.',
          buttons: ['Install and Restart', 'Later'],
          defaultId: 0,
          cancelId: 1,
          noLink: true,
        })) === 0,
      tell: async (message, detail) =>
        void (await ask({ type: 'info', message, detail, buttons: ['OK'], noLink: true })),
    },
  });
  return {
    checks,
    feed,
    checkAtStart: () => settings.checkForUpdatesAtStart,
    setCheckAtStart(on) {
      settings = { ...settings, checkForUpdatesAtStart: on };
      saveDesktopSettings(dataDir, settings);
    },
  };
}
