/**
 * Which port the desktop app's service listens on, and what the person is told when it is not
 * the usual one. 4780 on 127.0.0.1 when it is free, so tools find a stable address; any free
 * port otherwise. Another program on 4780 may be a harmless `traitscope serve`, or another
 * user of the machine waiting for a tool to send it a client secret or a genome: so the app
 * says that it moved, and where tools must look for its address, instead of moving silently.
 * No Electron here: test/desktop/port-choice.test.ts drives it with a real squatter socket.
 */
import { createServer } from 'node:net';
import path from 'node:path';
import { SERVICE_FILE } from '../service/discovery.js';

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** The port to listen on: `usual` when it is free on 127.0.0.1, else 0 (any free port). */
export async function choosePort(usual: number): Promise<number> {
  return (await portIsFree(usual)) ? usual : 0;
}

export interface PortNotice {
  message: string;
  detail: string;
}

/**
 * What the window tells the person when the service listens on another port than `usual`;
 * null when it got the usual one.
 */
export function portMovedNotice(usual: number, origin: string, dataDir: string): PortNotice | null {
  if (new URL(origin).port === String(usual)) return null;
  return {
    message: `Traitscope could not use its usual address and runs on ${origin} instead`,
    detail:
      `Another program is using port ${usual} on this computer: perhaps another Traitscope, or a program of another user. ` +
      `Tools that connect to Traitscope must not assume port ${usual}: they find the address in ${path.join(dataDir, SERVICE_FILE)}, ` +
      `or with \`traitscope status --data-dir "${dataDir}"\`. ` +
      `Do not give a client secret or a DNA file to whatever answers on port ${usual}. ` +
      `Settings › API access shows the address in use.`,
  };
}
