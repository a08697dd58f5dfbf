/**
 * The narrow bridge between the sandboxed page and the main process: a session for the
 * page's own API calls, PDF export, revealing the data folder, files the operating system
 * opened (as handles the main process stores from disk), menu commands and notices. Nothing else of Electron or Node crosses.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import {
  MENU_COMMANDS,
  type AppNotice,
  type MenuCommand,
  type OpenedFile,
  type PdfResult,
  type StoreOpenedFileResult,
  type TraitscopeBridge,
} from '../shared/desktop-bridge.js';
import { IPC } from './channels.js';

const bridge: TraitscopeBridge = {
  platform: process.platform,
  getSession: () => ipcRenderer.invoke(IPC.getSession) as Promise<{ baseUrl: string; token: string }>,
  printToPDF: ({ fileName }) =>
    ipcRenderer.invoke(IPC.printToPdf, { fileName: String(fileName) }) as Promise<PdfResult>,
  revealDataFolder: () => ipcRenderer.invoke(IPC.revealDataFolder) as Promise<void>,
  onOpenFiles(listener) {
    const handler = (_event: IpcRendererEvent, files: OpenedFile[]) => listener(files);
    ipcRenderer.on(IPC.openFiles, handler);
    ipcRenderer.send(IPC.openFilesReady);
    return () => void ipcRenderer.removeListener(IPC.openFiles, handler);
  },
  hashOpenedFile: (ref) => ipcRenderer.invoke(IPC.hashOpenedFile, String(ref)) as Promise<string>,
  storeOpenedFile: (ref, profileId) =>
    ipcRenderer.invoke(IPC.storeOpenedFile, String(ref), String(profileId)) as Promise<StoreOpenedFileResult>,
  onMenu(listener) {
    const handler = (_event: IpcRendererEvent, command: MenuCommand) => {
      if ((MENU_COMMANDS as readonly string[]).includes(command)) listener(command);
    };
    ipcRenderer.on(IPC.menu, handler);
    return () => void ipcRenderer.removeListener(IPC.menu, handler);
  },
  onNotice(listener) {
    const handler = (_event: IpcRendererEvent, notice: AppNotice) => listener(notice);
    ipcRenderer.on(IPC.notice, handler);
    ipcRenderer.send(IPC.noticesReady);
    return () => void ipcRenderer.removeListener(IPC.notice, handler);
  },
};

contextBridge.exposeInMainWorld('traitscope', bridge);
