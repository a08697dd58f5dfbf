/** The main window's size, position and maximized state, kept between launches. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { app, screen, type BrowserWindow, type Rectangle } from 'electron';

export interface WindowState {
  bounds: Rectangle;
  maximized: boolean;
}

const DEFAULT_STATE: WindowState = { bounds: { x: 0, y: 0, width: 1280, height: 840 }, maximized: false };

function stateFile(): string {
  return path.join(app.getPath('userData'), 'window-state.json');
}

/** The saved state, if it still fits on a connected display; otherwise a centred default. */
export function loadWindowState(): WindowState & { centre: boolean } {
  try {
    const saved = JSON.parse(readFileSync(stateFile(), 'utf8')) as WindowState;
    const b = saved.bounds;
    const valid = [b.x, b.y, b.width, b.height].every(Number.isFinite) && b.width >= 640 && b.height >= 480;
    const visible = screen
      .getAllDisplays()
      .some(
        ({ workArea: d }) =>
          b.x < d.x + d.width - 80 && b.x + b.width > d.x + 80 && b.y >= d.y - 10 && b.y < d.y + d.height - 80,
      );
    if (valid && visible) return { bounds: b, maximized: Boolean(saved.maximized), centre: false };
  } catch {
    // First launch, or an unreadable file: start from the default.
  }
  return { ...DEFAULT_STATE, centre: true };
}

/** Saves the state whenever the window settles, and when it closes. */
export function trackWindowState(win: BrowserWindow): void {
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    if (win.isDestroyed()) return;
    const state: WindowState = { bounds: win.getNormalBounds(), maximized: win.isMaximized() };
    try {
      writeFileSync(stateFile(), JSON.stringify(state));
    } catch {
      // Not worth bothering the user: the window just opens at the default next time.
    }
  };
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(save, 400);
  };
  win.on('resize', later);
  win.on('move', later);
  win.on('maximize', later);
  win.on('unmaximize', later);
  win.on('close', () => {
    clearTimeout(timer);
    save();
  });
}
