/** IPC channel names shared by the main process and the preload bridge. */
export const IPC = {
  getSession: 'traitscope:get-session',
  printToPdf: 'traitscope:print-to-pdf',
  revealDataFolder: 'traitscope:reveal-data-folder',
  /** main → page: files to analyze */
  openFiles: 'traitscope:open-files',
  /** page → main: ready to receive files (flushes those opened at launch) */
  openFilesReady: 'traitscope:open-files-ready',
  /** page → main: the MD5 of an opened file */
  hashOpenedFile: 'traitscope:hash-opened-file',
  /** page → main: store an opened file as a profile's file */
  storeOpenedFile: 'traitscope:store-opened-file',
  /** main → page: a notice to show in the window */
  notice: 'traitscope:notice',
  /** page → main: ready to show notices (flushes those raised at launch) */
  noticesReady: 'traitscope:notices-ready',
  /** main → page: an application-menu command */
  menu: 'traitscope:menu',
} as const;
