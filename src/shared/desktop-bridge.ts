/**
 * The contract between the desktop app's preload script and the page (window.traitscope):
 * the preload implements exactly this interface, the main process sends what it names, and
 * the UI calls it. In a plain browser (headless `serve`) it is absent and the UI falls back
 * to web equivalents. Nothing else of Electron is reachable from the page.
 */

/**
 * A genotype file the person opened through the operating system ("Open with Traitscope",
 * File › Open): its bytes stay on disk, and the main process stores it in the service itself
 * (storeOpenedFile). The page gets what its checks need: the name, the size, and the last
 * bytes (a download cut off mid-line).
 */
export interface OpenedFile {
  /** The main process's handle of the file; the page never learns its path. */
  ref: string;
  name: string;
  size: number;
  /** The file's last bytes (at most OPENED_FILE_TAIL_BYTES). */
  tail: Uint8Array;
}

/** How many of an opened file's last bytes the page gets (what its cut-off-download check reads). */
export const OPENED_FILE_TAIL_BYTES = 512;

/** How storing an opened file went: the processing job to follow in the events stream, or why it was refused. */
export type StoreOpenedFileResult = { stored: true; jobId: number | null } | { stored: false; error: string };

/** What the main process tells the person once, in the window (the service moved to another port). */
export interface AppNotice {
  title: string;
  detail: string;
}

/** Application-menu commands the page carries out. */
export const MENU_COMMANDS = ['new-profile', 'export-report', 'settings', 'profiles'] as const;
export type MenuCommand = (typeof MENU_COMMANDS)[number];

export interface PdfResult {
  /** False when the user cancelled the save dialog. */
  saved: boolean;
  path?: string;
}

export interface TraitscopeBridge {
  platform: string;
  /** The service's origin and a fresh access token of the app's own client. */
  getSession: () => Promise<{ baseUrl: string; token: string }>;
  /** Saves the page as it would print, as a PDF the user places with a save dialog. */
  printToPDF: (options: { fileName: string }) => Promise<PdfResult>;
  /** Shows the data folder in the system file manager. */
  revealDataFolder: () => Promise<void>;
  /** Files to analyze; also delivers those opened before the page was ready. Returns an unsubscribe. */
  onOpenFiles: (listener: (files: OpenedFile[]) => void) => () => void;
  /** The MD5 of an opened file (base64, as the service reports stored files'), computed in the main process. */
  hashOpenedFile: (ref: string) => Promise<string>;
  /** Stores an opened file as the profile's file, as an upload would; processing then starts. */
  storeOpenedFile: (ref: string, profileId: string) => Promise<StoreOpenedFileResult>;
  onMenu: (listener: (command: MenuCommand) => void) => () => void;
  /** Notices of the main process; also delivers those raised before the page was ready, once. Returns an unsubscribe. */
  onNotice: (listener: (notice: AppNotice) => void) => () => void;
}

declare global {
  interface Window {
    /** Present only in the desktop app. */
    traitscope?: TraitscopeBridge;
  }
}
