/**
 * The desktop app's port (src/main/port-choice.ts): the usual port when it is free, any free
 * port when another program holds it — here a real squatter, a socket listening on that port
 * of 127.0.0.1 — and then a notice for the window that says so and where tools find the
 * address. Electron cannot run here: the page shows the notice as a banner (its side is in
 * test/desktop/open-with.test.ts), and the packaged-app smoke test starts the app with 4780
 * taken and finds the banner.
 */
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { choosePort, portMovedNotice } from '../../src/main/port-choice.js';

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('the desktop app’s port', () => {
  let usual: number;
  let squatter: Server;

  beforeAll(async () => {
    // A port free a moment ago stands in for 4780, which another program here may hold.
    const probe = await listen(0);
    usual = (probe.address() as { port: number }).port;
    await close(probe);
  });
  afterAll(async () => {
    if (squatter?.listening) await close(squatter);
  });

  it('is the usual one when it is free, and no notice is shown', async () => {
    expect(await choosePort(usual)).toBe(usual);
    expect(portMovedNotice(usual, `http://127.0.0.1:${usual}`, path.join('data', 'Traitscope'))).toBeNull();
  });

  it('moves to any free port when a squatter listens on the usual one, and the window says so', async () => {
    squatter = await listen(usual);
    expect(await choosePort(usual)).toBe(0);
    // Where the service then listens: a port the system picks.
    const service = await listen(0);
    const origin = `http://127.0.0.1:${(service.address() as { port: number }).port}`;
    await close(service);
    const dataDir = path.join('data', 'Traitscope');
    const notice = portMovedNotice(usual, origin, dataDir);
    expect(notice?.message).toBe(`Traitscope could not use its usual address and runs on ${origin} instead`);
    expect(notice?.detail).toContain(`Another program is using port ${usual} on this computer`);
    expect(notice?.detail).toContain(`they find the address in ${path.join(dataDir, 'service.json')}`);
    expect(notice?.detail).toContain(`traitscope status --data-dir "${dataDir}"`);
    expect(notice?.detail).toContain(`Do not give a client secret or a DNA file to whatever answers on port ${usual}`);
  });

  it('is the usual one again once the squatter is gone', async () => {
    await close(squatter);
    expect(await choosePort(usual)).toBe(usual);
  });
});
