/**
 * The contract between the desktop app's preload script and the page (window.traitscope):
 * the preload implements exactly this interface, the main process sends what it names, and
 * the UI calls it. In a plain browser (headless `serve`) it is absent and the UI falls back
 * to web equivalents. Nothing else of Electron is reachable from the page.
 */

/** A genotype file the user opened through the operating system ("Open with Traitscope", File › Open). */
export interface OpenedFile {
  name: string;
  data: Uint8Array;
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
  onMenu: (listener: (command: MenuCommand) => void) => () => void;
}

declare global {
  interface Window {
    /** Present only in the desktop app. */
    traitscope?: TraitscopeBridge;
  }
}
