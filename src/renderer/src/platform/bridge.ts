/** The desktop app's bridge as the page sees it; src/shared/desktop-bridge.ts has the contract. */
import type { TraitscopeBridge } from '../../../shared/desktop-bridge.js';

/** The bridge in the desktop app; undefined in a plain browser, where the UI uses web equivalents. */
export function desktopBridge(): TraitscopeBridge | undefined {
  return typeof window !== 'undefined' ? window.traitscope : undefined;
}
