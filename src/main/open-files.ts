/**
 * Genotype files handed to the app by the operating system ("Open with Traitscope", a file
 * dropped on the dock icon, a path on the command line of this or a second launch,
 * File › Open…) travel to the page as handles (opened-files.ts): the page runs the same flow
 * as a drop, and the main process stores the file in the service from disk when the page
 * asks. Files that arrive before the page is ready wait.
 */
import { dialog, type BrowserWindow, type WebContents } from 'electron';
import { IPC } from '../preload/channels.js';
import { GENOTYPE_EXTENSIONS } from '../shared/genotype-files.js';
import { openedFiles } from './opened-files.js';

/** Every file opened in this run, by the handle the page knows it by. */
export const opened = openedFiles();

let pending: string[] = [];
let target: WebContents | null = null;
/** The service's upload limit, known once the page is ready; larger files are refused before the page sees them. */
let maxBytes = 0;

async function deliver(contents: WebContents, paths: string[]): Promise<void> {
  const { files, problems } = await opened.describe(paths, maxBytes);
  if (files.length > 0 && !contents.isDestroyed()) contents.send(IPC.openFiles, files);
  if (problems.length > 0) {
    dialog.showErrorBox(
      'Traitscope could not open some files',
      `${problems.join('\n')}\n\nCheck that the files exist and that you may read them.`,
    );
  }
}

/** Queue files to analyze; sent at once when the page is listening. */
export function openFiles(paths: string[]): void {
  if (paths.length === 0) return;
  if (target && !target.isDestroyed()) void deliver(target, paths);
  else pending.push(...paths);
}

/** The page subscribed: it receives the queued files now and later ones directly. */
export function pageReady(contents: WebContents, uploadLimit: number): void {
  target = contents;
  maxBytes = uploadLimit;
  contents.once('destroyed', () => {
    if (target === contents) target = null;
  });
  const queued = pending;
  pending = [];
  if (queued.length > 0) void deliver(contents, queued);
}

/** File › Open…: the system file chooser, then the same path as "Open with". */
export async function chooseFiles(win: BrowserWindow): Promise<void> {
  const result = await dialog.showOpenDialog(win, {
    title: 'Open a DNA raw-data file',
    buttonLabel: 'Analyze',
    properties: ['openFile', 'multiSelections'],
    filters: [
      { name: 'DNA raw data', extensions: [...GENOTYPE_EXTENSIONS] },
      { name: 'All files', extensions: ['*'] },
    ],
  });
  if (!result.canceled) openFiles(result.filePaths);
}
