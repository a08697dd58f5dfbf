/**
 * Crash reports stay on this machine: Electron's crashReporter writes minidumps into the
 * app's crash folder and never uploads them (uploadToServer: false, no submit URL is
 * used). Help › Crash Reports lists them so the person can share them (show the folder)
 * or delete them.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { app, crashReporter, dialog, shell, type BrowserWindow } from 'electron';

/** Call before the app is ready, so crashes of every process are recorded. */
export function startLocalCrashReporter(): void {
  crashReporter.start({ uploadToServer: false, compress: true, submitURL: '' });
}

interface CrashReport {
  file: string;
  bytes: number;
  when: Date;
}

function crashReports(dir: string): CrashReport[] {
  const found: CrashReport[] = [];
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return found; // no crash folder yet: no crash
  }
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.dmp')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const info = statSync(file);
    found.push({ file, bytes: info.size, when: info.mtime });
  }
  return found.sort((a, b) => b.when.getTime() - a.when.getTime());
}

/** Help › Crash Reports: what is there, and the choice to show the folder or delete them all. */
export async function showCrashReports(win: BrowserWindow | null): Promise<void> {
  const dir = app.getPath('crashDumps');
  const reports = crashReports(dir);
  const listed = reports
    .slice(0, 20)
    .map((r) => `${r.when.toLocaleString()} — ${path.basename(r.file)} (${Math.ceil(r.bytes / 1024)} KiB)`)
    .join('\n');
  const options: Electron.MessageBoxOptions = {
    type: 'info',
    title: 'Crash reports',
    message:
      reports.length === 0 ? 'Traitscope has no crash reports.' : `${reports.length} crash reports on this computer`,
    detail:
      `${listed}${reports.length > 20 ? '\n…' : ''}\n\n` +
      'Crash reports are kept only on this computer; Traitscope never sends them. They hold the state of the ' +
      'program when it crashed, which can include parts of the data it was working on: share them only with ' +
      `someone you trust to help.\n\nFolder: ${dir}`,
    buttons: reports.length === 0 ? ['Close'] : ['Close', 'Show in Folder', 'Delete All'],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  };
  const { response } = win ? await dialog.showMessageBox(win, options) : await dialog.showMessageBox(options);
  if (response === 1) shell.showItemInFolder(reports[0].file);
  if (response === 2) for (const r of reports) rmSync(r.file, { force: true });
}
