/**
 * A window whose page crashed or hangs offers "Reload". Nothing is lost by reloading: every
 * profile, file and result lives in the service (in the main process, which keeps running),
 * and the page reads them again; only a form being filled in at that moment is gone.
 */
import { app, dialog, type BrowserWindow } from 'electron';
import type { LogFile } from '../service/log-file.js';

export function watchWindowHealth(win: BrowserWindow, log: LogFile | null): void {
  const contents = win.webContents;
  /** The page is being restarted on the person's request after a hang: not a crash to report. */
  let restarting = false;

  contents.on('render-process-gone', (_event, details) => {
    log?.write('error', `window page stopped: ${details.reason} (exit code ${details.exitCode})`);
    if (details.reason === 'clean-exit' || restarting) {
      restarting = false;
      return;
    }
    void dialog
      .showMessageBox(win, {
        type: 'error',
        title: 'The Traitscope window stopped working',
        message: 'The window stopped working. Your profiles, files and results are safe.',
        detail:
          `Reason: ${details.reason}. Reload the window to continue where you were.` +
          (log ? `\n\nWhat happened is recorded in the log file: ${log.path}` : ''),
        buttons: ['Reload', 'Quit Traitscope'],
        defaultId: 0,
        cancelId: 0,
        noLink: true,
      })
      .then(({ response }) => {
        if (win.isDestroyed()) return;
        if (response === 0) contents.reload();
        else app.quit();
      });
  });

  // A page busy for long (Chromium's own threshold, about 30 s) gets the choice; if it
  // recovers meanwhile the question goes away by itself.
  let asking: AbortController | null = null;
  contents.on('unresponsive', () => {
    if (asking) return;
    log?.write('warn', 'window page not responding');
    asking = new AbortController();
    void dialog
      .showMessageBox(win, {
        type: 'warning',
        title: 'Traitscope is not responding',
        message: 'The window is not responding. Your profiles, files and results are safe.',
        detail: 'Wait for it, or reload the window to continue where you were.',
        buttons: ['Wait', 'Reload'],
        defaultId: 0,
        cancelId: 0,
        noLink: true,
        signal: asking.signal,
      })
      .then(({ response }) => {
        asking = null;
        if (response !== 1 || win.isDestroyed()) return;
        restarting = true;
        contents.forcefullyCrashRenderer();
        contents.reload();
      });
  });
  contents.on('responsive', () => {
    if (!asking) return;
    log?.write('info', 'window page responding again');
    asking.abort();
    asking = null;
  });
}
