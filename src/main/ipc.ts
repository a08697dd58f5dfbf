/** The main-process side of the preload bridge. Every handler checks who is asking. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, shell, type IpcMainInvokeEvent } from 'electron';
import type { AppNotice, PdfResult } from '../shared/desktop-bridge.js';
import { fileNameFrom } from '../shared/file-names.js';
import { IPC } from '../preload/channels.js';
import { opened, pageReady } from './open-files.js';
import type { IngestFile } from './opened-files.js';
import { isAppPageFrame } from './shell-guards.js';
import type { AppSession } from './service-host.js';

export interface IpcDeps {
  origin: string;
  dataDir: string;
  /** The service's upload limit (TRAITSCOPE_MAX_UPLOAD_BYTES): larger opened files are refused before they are read. */
  maxUploadBytes: number;
  session: () => AppSession;
  /** The hosted service's ingestion of a file on disk (RunningService.ingestFile). */
  ingestFile: IngestFile;
  /** Notices for the window, shown once: delivered when the page first asks, then dropped. */
  notices: AppNotice[];
}

/**
 * Only the app's own page, loaded from the service, may use the bridge: not another page of
 * the service (the API reference at /api/docs runs third-party code) and not a frame.
 */
function fromAppPage(event: { senderFrame: Electron.WebFrameMain | null }, origin: string): boolean {
  return isAppPageFrame(event.senderFrame, origin);
}

function safeFileName(name: string): string {
  const cleaned = fileNameFrom(name, 120);
  return cleaned.toLowerCase().endsWith('.pdf') ? cleaned : `${cleaned || 'Traitscope report'}.pdf`;
}

export function registerIpc({ origin, dataDir, maxUploadBytes, session, ingestFile, notices }: IpcDeps): void {
  const guard =
    <A extends unknown[], R>(fn: (event: IpcMainInvokeEvent, ...args: A) => R) =>
    (event: IpcMainInvokeEvent, ...args: A): R => {
      if (!fromAppPage(event, origin)) throw new Error('Refused: not the Traitscope page.');
      return fn(event, ...args);
    };

  ipcMain.handle(
    IPC.getSession,
    guard(() => session()),
  );

  ipcMain.handle(
    IPC.printToPdf,
    guard(async (event, options: { fileName?: unknown }): Promise<PdfResult> => {
      const win = BrowserWindow.fromWebContents(event.sender);
      const fileName = safeFileName(typeof options?.fileName === 'string' ? options.fileName : 'Traitscope report');
      const dialogOptions: Electron.SaveDialogOptions = {
        title: 'Save report as PDF',
        defaultPath: path.join(app.getPath('documents'), fileName),
        filters: [{ name: 'PDF', extensions: ['pdf'] }],
      };
      const choice = win ? await dialog.showSaveDialog(win, dialogOptions) : await dialog.showSaveDialog(dialogOptions);
      if (choice.canceled || !choice.filePath) return { saved: false };
      const pdf = await event.sender.printToPDF({
        pageSize: 'A4',
        printBackground: true,
        preferCSSPageSize: true,
        generateDocumentOutline: true,
        generateTaggedPDF: true,
      });
      await writeFile(choice.filePath, pdf);
      return { saved: true, path: choice.filePath };
    }),
  );

  ipcMain.handle(
    IPC.revealDataFolder,
    guard(async () => {
      const problem = await shell.openPath(dataDir);
      if (problem) throw new Error(problem);
    }),
  );

  ipcMain.handle(
    IPC.hashOpenedFile,
    guard((_event, ref: unknown) => opened.md5(String(ref))),
  );

  ipcMain.handle(
    IPC.storeOpenedFile,
    guard((_event, ref: unknown, profileId: unknown) => opened.store(String(ref), String(profileId), ingestFile)),
  );

  ipcMain.on(IPC.noticesReady, (event) => {
    if (!fromAppPage(event, origin)) return;
    for (const notice of notices.splice(0)) event.sender.send(IPC.notice, notice);
  });

  ipcMain.on(IPC.openFilesReady, (event) => {
    if (fromAppPage(event, origin)) pageReady(event.sender, maxUploadBytes);
  });
}
