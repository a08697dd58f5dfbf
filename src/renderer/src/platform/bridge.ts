/**
 * What the desktop app's preload script hands the page (window.traitscope). In a plain
 * browser (headless `serve`) it is absent and the UI falls back to web equivalents.
 * The preload implements exactly this interface; nothing else of Electron is reachable.
 */

/** A genotype file the user opened through the operating system ("Open with Traitscope", File › Open). */
export interface OpenedFile {
  name: string;
  data: Uint8Array;
}

/** Application-menu commands the page carries out. */
export type MenuCommand = 'new-profile' | 'export-report' | 'settings' | 'profiles';

export interface PdfResult {
  /** False when the user cancelled the save dialog. */
  saved: boolean;
  path?: string;
}

export interface TraitscopeBridge {
  platform: string;
  /** The service's origin and a fresh access token of the app's own client. */
  getSession(): Promise<{ baseUrl: string; token: string }>;
  /** Saves the page as it would print, as a PDF the user places with a save dialog. */
  printToPDF(options: { fileName: string }): Promise<PdfResult>;
  /** Shows the data folder in the system file manager. */
  revealDataFolder(): Promise<void>;
  /** Files to analyze; also delivers those opened before the page was ready. Returns an unsubscribe. */
  onOpenFiles(listener: (files: OpenedFile[]) => void): () => void;
  onMenu(listener: (command: MenuCommand) => void): () => void;
}

declare global {
  interface Window {
    traitscope?: TraitscopeBridge;
  }
}

export function desktopBridge(): TraitscopeBridge | undefined {
  return typeof window !== 'undefined' ? window.traitscope : undefined;
}
