/** The application menu: the usual platform menus plus Traitscope's own commands. */
import { app, Menu, shell, type BrowserWindow, type MenuItemConstructorOptions } from 'electron';
import type { MenuCommand } from '../shared/desktop-bridge.js';
import { IPC } from '../preload/channels.js';
import { MENU_OPEN_FILE } from './menu-ids.js';
import { showCrashReports } from './crash-reports.js';
import { chooseFiles } from './open-files.js';
import type { AppUpdates } from './updates.js';

export interface MenuActions {
  window: () => BrowserWindow | null;
  dataDir: string;
  /** The data folder's log (src/service/log-file.ts), for Help › Show Log File. */
  logFile: string;
  updates: AppUpdates;
}

/**
 * The update items name exactly what they contact (update-check.ts): nothing at all until the
 * person clicks one, and only the repository's GitHub Releases then.
 */
function updateItems(updates: AppUpdates): MenuItemConstructorOptions[] {
  const where = updates.feed ? updates.feed.releasesUrl.replace(/^https:\/\//, '') : null;
  return [
    {
      label: where ? `Check for Updates Now (contacts ${where})` : 'Check for Updates (not set up in this build)…',
      click: () => void updates.checks.now(),
    },
    {
      label: where ? `Check for Updates at Start (contacts ${where})` : 'Check for Updates at Start',
      type: 'checkbox',
      checked: updates.checkAtStart(),
      enabled: where !== null,
      click: (item) => updates.setCheckAtStart(item.checked),
    },
  ];
}

export function installMenu({ window, dataDir, logFile, updates }: MenuActions): void {
  const isMac = process.platform === 'darwin';
  const send = (command: MenuCommand) => () => {
    const win = window();
    if (!win) return;
    win.show();
    win.webContents.send(IPC.menu, command);
  };

  const template: MenuItemConstructorOptions[] = [
    ...(isMac
      ? [
          {
            label: app.name,
            submenu: [
              { role: 'about' },
              { type: 'separator' },
              { label: 'Settings…', accelerator: 'Cmd+,', click: send('settings') },
              { type: 'separator' },
              { role: 'services' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    {
      label: '&File',
      submenu: [
        {
          id: MENU_OPEN_FILE,
          label: 'Open DNA File…',
          accelerator: 'CmdOrCtrl+O',
          click: () => {
            const win = window();
            if (win) void chooseFiles(win);
          },
        },
        { label: 'New Profile', accelerator: 'CmdOrCtrl+N', click: send('new-profile') },
        { type: 'separator' },
        { label: 'Export Report…', accelerator: 'CmdOrCtrl+E', click: send('export-report') },
        { type: 'separator' },
        { label: 'Show Data Folder', click: () => void shell.openPath(dataDir) },
        ...(isMac
          ? []
          : ([
              { type: 'separator' },
              { label: 'Settings', accelerator: 'Ctrl+,', click: send('settings') },
              { type: 'separator' },
              { role: 'quit' },
            ] satisfies MenuItemConstructorOptions[])),
      ],
    },
    { role: 'editMenu' },
    {
      label: '&View',
      submenu: [
        { label: 'Profiles', accelerator: 'CmdOrCtrl+1', click: send('profiles') },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(app.isPackaged
          ? []
          : ([
              { type: 'separator' },
              { role: 'reload' },
              { role: 'toggleDevTools' },
            ] satisfies MenuItemConstructorOptions[])),
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [
        {
          label: 'How to Download Your Raw Data',
          click: () => void shell.openExternal('https://customercare.23andme.com/hc/en-us/articles/212196868'),
        },
        {
          label: 'About Polygenic Scores (NHGRI)',
          click: () =>
            void shell.openExternal('https://www.genome.gov/Health/Genomics-and-Medicine/Polygenic-risk-scores'),
        },
        { type: 'separator' },
        { label: 'Show Log File', click: () => shell.showItemInFolder(logFile) },
        { label: 'Crash Reports…', click: () => void showCrashReports(window()) },
        { type: 'separator' },
        ...updateItems(updates),
        ...(isMac ? [] : ([{ type: 'separator' }, { role: 'about' }] satisfies MenuItemConstructorOptions[])),
      ],
    },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
