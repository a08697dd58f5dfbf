/**
 * Smoke test of the packaged desktop app: the installer's output, launched as a user
 * launches it, driven through Playwright's Electron support.
 *
 * Runs only where a packaged app exists and Electron can run: TRAITSCOPE_PACKAGED_APP names
 * an installer (.exe, .dmg, .AppImage, .deb) or an unpacked package's executable, and
 * `npm run test:packaged -- FILE` sets it. The desktop workflow runs it on Windows, macOS
 * and Linux for each installer it builds. Without that variable (as in `npm test` on a
 * machine without Electron) the whole file is reported as skipped, with the reason below.
 *
 * What it checks, in order, on one temporary data folder (--data-dir):
 * 1. the window opens titled "Traitscope", on a service that listens on 127.0.0.1 only;
 * 2. a genome dropped on the window is processed by the worker inside the packaged layout
 *    and its results appear; the same through File › Open…, the macOS dock (open-file)
 *    and a second launch with a file, which also brings the window back — those three
 *    stored from disk by the main process, the page sending no file; a large genome (3
 *    million markers) is processed in a process of its own, started by Electron's
 *    utilityProcess (src/main/engine-process-starter.ts);
 * 3. a report exports as PDF; quitting stops the service (the database is closed cleanly)
 *    and leaves no process;
 * 4. a relaunch restores the window's size and position and the profiles, on another port
 *    when 4780 is taken, and the window says so;
 * 5. when the service cannot start (data folder unusable, or used by another Traitscope
 *    service) a dialog says so;
 * 6. the installer registered the genome file types, and uninstalls;
 * 7. the installed binary carries the fuses of electron-builder.yml (read back from it), and
 *    the window refuses navigation away, new windows, permissions and requests off the
 *    service, while the API reference, loaded into the window, gets no token from the bridge
 *    and runs in an opaque origin; the log file holds the run without its token;
 * 8. the update feed built into the app is package.json's repository, the menu names it, and
 *    with checking at start off (the default) no setting was written.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { _electron, type ElectronApplication, type Page } from 'playwright-core';
import { FuseV1Options } from '@electron/fuses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENOTYPE_EXTENSIONS } from '../../src/shared/genotype-files.js';
import { MENU_OPEN_FILE } from '../../src/main/menu-ids.js';
import { updateFeedOf } from '../../src/main/update-check.js';
import { dropFiles } from '../e2e/support/app.js';
import { catalogMarkers, chipMarkers, combine, twentyThreeAndMe } from '../support/genotypes.js';
import { startServer, type TestServer } from '../support/server.js';
import { builderConfig } from './support/build.js';
import {
  inspectableCopy,
  install,
  installedFuses,
  isInstaller,
  killTree,
  listeningAddresses,
  otherLocalAddresses,
  processesUnder,
  registeredExtensions,
  screenshotDesktop,
  spawnApp,
  windowOnScreen,
  type InspectableCopy,
  type InstalledApp,
} from './support/packaged-app.js';

const PACKAGED_APP = process.env.TRAITSCOPE_PACKAGED_APP;
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const DEFAULT_PORT = 4780;
const STARTUP_FAILURE_TITLE = 'Traitscope could not start';

/** Polls a condition the operating system offers no event for (a process gone, a dialog shown). */
async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Timed out waiting until ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function portAnswers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 3000 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

if (!PACKAGED_APP) {
  console.log(
    'Skipping the packaged-app smoke test: it needs a packaged Traitscope and a machine that runs Electron. ' +
      'Run it with `npm run test:packaged -- INSTALLER` (docs/desktop.md); the desktop workflow runs it on each system.',
  );
}

describe.skipIf(!PACKAGED_APP)(
  'the packaged desktop app (set TRAITSCOPE_PACKAGED_APP, or run npm run test:packaged -- INSTALLER)',
  () => {
    let installed: InstalledApp;
    let copy: InspectableCopy;
    let electronApp: ElectronApplication | null = null;
    let page: Page;
    let origin: string;
    /** Files the page sent to the service's storage itself (a drop does; files the system opened must not). */
    const pageUploads: string[] = [];
    const work = mkdtempSync(path.join(tmpdir(), 'traitscope-smoke-'));
    const dataDir = path.join(work, 'data');
    const screenshots = path.join(
      ROOT,
      'test-results',
      'desktop',
      `${process.platform}-${path.basename(PACKAGED_APP ?? 'app')}`,
    );

    /** A realistic genome file whose name gives the profile its name. */
    function genome(first: string, last: string, seed: number): string {
      const file = path.join(work, `genome_${first}_${last}_v5_Full_20240314.txt`);
      writeFileSync(file, twentyThreeAndMe(catalogMarkers(seed)));
      return file;
    }

    async function launch(): Promise<void> {
      electronApp = await _electron.launch({
        executablePath: copy.executable,
        args: [`--data-dir=${dataDir}`],
        timeout: 60_000,
      });
      page = await electronApp.firstWindow({ timeout: 60_000 });
      page.on('request', (r) => {
        if (r.method() === 'PUT' && new URL(r.url()).pathname.startsWith('/storage/')) pageUploads.push(r.url());
      });
      await page.waitForLoadState('domcontentloaded');
      origin = new URL(page.url()).origin;
    }

    async function shot(name: string): Promise<void> {
      await page.screenshot({ path: path.join(screenshots, `${name}.png`) });
    }

    /** The profile view of `name` with its processed genotype and computed results. */
    async function expectResults(name: string): Promise<void> {
      await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 60_000 });
      const card = page.getByTestId('genotype-card');
      await card.waitFor({ timeout: 60_000 });
      await expect(card.textContent()).resolves.toMatch(/23andMe/);
      await page.locator('.trait-row[data-status=computed]').first().waitFor({ timeout: 60_000 });
    }

    /**
     * File › Open… with `file` chosen: the system file dialog cannot be driven, so it is
     * answered as the user would, and the menu item runs the app's own path from there.
     */
    async function openWithMenu(file: string): Promise<void> {
      await electronApp!.evaluate(
        ({ dialog, Menu }, { chosen, id }) => {
          dialog.showOpenDialog = (async () => ({
            canceled: false,
            filePaths: [chosen],
          })) as typeof dialog.showOpenDialog;
          Menu.getApplicationMenu()!.getMenuItemById(id)!.click();
        },
        { chosen: file, id: MENU_OPEN_FILE },
      );
    }

    async function profileNames(): Promise<string[]> {
      const session = await page.evaluate(() => window.traitscope!.getSession());
      const res = await fetch(`${session.baseUrl}/api/profiles/`, {
        headers: { authorization: `Bearer ${session.token}` },
      });
      const profiles = (await res.json()) as Array<{ first_name: string; last_name: string }>;
      return profiles.map((p) => `${p.first_name} ${p.last_name}`).sort();
    }

    beforeAll(async () => {
      mkdirSync(screenshots, { recursive: true });
      installed = install(PACKAGED_APP!);
      copy = await inspectableCopy(installed);
    }, 600_000);

    afterAll(async () => {
      await electronApp?.close().catch(() => undefined);
      rmSync(work, { recursive: true, force: true });
      rmSync(path.dirname(copy?.dir ?? work), { recursive: true, force: true });
    });

    it('opens its window titled Traitscope, on a service that listens on 127.0.0.1 only', async () => {
      const defaultPortFree = await portIsFree(DEFAULT_PORT);
      await launch();
      await shot('01-window');
      expect(await page.title()).toBe('Traitscope');
      const titles = await electronApp!.evaluate(({ BrowserWindow }) =>
        BrowserWindow.getAllWindows().map((w) => w.getTitle()),
      );
      expect(titles).toEqual(['Traitscope']);

      expect(origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const port = Number(new URL(origin).port);
      if (defaultPortFree) expect(port).toBe(DEFAULT_PORT);
      expect((await fetch(`${origin}/api/openapi.json`)).status).toBe(200);

      // Not reachable on any other address of this machine…
      for (const address of otherLocalAddresses())
        expect(await portAnswers(address, port), `answers on ${address}`).toBe(false);
      // …and, as the system sees it, every socket the app listens on is on loopback.
      const listening = listeningAddresses(processesUnder(copy.dir));
      expect(listening).toContain(`127.0.0.1:${port}`);
      for (const address of listening) expect(address).toMatch(/^(127\.0\.0\.1|\[::1\]|::1):\d+$/);
    });

    it('processes a genome dropped on the window in the packaged worker and shows the results', async () => {
      const file = genome('Ada', 'Lovelace', 1);
      await dropFiles(page, [{ name: path.basename(file), content: readFileSync(file, 'utf8') }], 'drop-new');
      await expectResults('Ada Lovelace');
      await shot('02-dropped-genome');
    });

    it('processes a genome chosen with File › Open…, stored from disk, not sent by the page', async () => {
      const file = genome('Grace', 'Hopper', 2);
      const uploadsBefore = pageUploads.length;
      await openWithMenu(file);
      await expectResults('Grace Hopper');
      expect(pageUploads.length).toBe(uploadsBefore);
    });

    it('processes a large genome in a process of its own, started through utilityProcess', async () => {
      const file = path.join(work, 'genome_Mary_Somerville_v5_Full_20240314.txt');
      writeFileSync(file, twentyThreeAndMe(combine([catalogMarkers(5), chipMarkers(3_000_000, 5)])));
      await openWithMenu(file);
      await expectResults('Mary Somerville');
      const session = await page.evaluate(() => window.traitscope!.getSession());
      const res = await fetch(`${session.baseUrl}/api/app/diagnostics`, {
        headers: { authorization: `Bearer ${session.token}` },
      });
      const diagnostics = (await res.json()) as { workers: { processes: number; replaced: number } };
      expect(diagnostics.workers.processes).toBeGreaterThanOrEqual(1);
      expect(diagnostics.workers.replaced).toBe(0);
    });

    it('processes a genome dropped on the dock icon (macOS open-file)', async () => {
      const file = genome('Katherine', 'Johnson', 3);
      const uploadsBefore = pageUploads.length;
      await electronApp!.evaluate(({ app }, chosen) => {
        app.emit('open-file', { preventDefault: () => undefined }, chosen);
      }, file);
      await expectResults('Katherine Johnson');
      expect(pageUploads.length).toBe(uploadsBefore);
    });

    it('brings its window back and opens the file when launched a second time', async () => {
      const file = genome('Hedy', 'Lamarr', 4);
      const uploadsBefore = pageUploads.length;
      await electronApp!.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows()[0].minimize());
      // The second launch is the app exactly as installed.
      const second = spawnApp(installed.executable, [`--data-dir=${dataDir}`, file]);
      expect(await second.exited, second.output()).toBe(0);
      await expectResults('Hedy Lamarr');
      expect(pageUploads.length).toBe(uploadsBefore);
      const state = await electronApp!.evaluate(({ BrowserWindow }) => {
        const win = BrowserWindow.getAllWindows()[0];
        return {
          visible: win.isVisible(),
          minimized: win.isMinimized(),
          windows: BrowserWindow.getAllWindows().length,
        };
      });
      expect(state).toEqual({ visible: true, minimized: false, windows: 1 });
      await shot('03-second-launch');
    });

    it('carries the fuses of electron-builder.yml in the installed binary', async () => {
      const fuses = (await builderConfig()).electronFuses!;
      const state = await installedFuses(installed);
      expect(state[FuseV1Options.RunAsNode]).toBe(fuses.runAsNode);
      expect(state[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(
        fuses.enableNodeOptionsEnvironmentVariable,
      );
      expect(state[FuseV1Options.EnableNodeCliInspectArguments]).toBe(fuses.enableNodeCliInspectArguments);
      expect(state[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(
        fuses.enableEmbeddedAsarIntegrityValidation,
      );
      expect(state[FuseV1Options.OnlyLoadAppFromAsar]).toBe(fuses.onlyLoadAppFromAsar);
      expect([
        fuses.runAsNode,
        fuses.enableNodeOptionsEnvironmentVariable,
        fuses.enableNodeCliInspectArguments,
      ]).toEqual([false, false, false]);
    });

    it('names the update feed of package.json in the app and its menu, and wrote no setting while checking is off', async () => {
      const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
        repository: { url: string };
      };
      const [, owner, repo] = /github\.com\/([^/]+)\/([^/.]+)/.exec(manifest.repository.url)!;
      // electron-builder writes the feed into every installer's app (an unpacked --dir package of
      // Windows or macOS has none, having no installer to update).
      if (installed.kind !== 'dir') {
        const resources = await electronApp!.evaluate(() => process.resourcesPath);
        const appUpdate = readFileSync(path.join(resources, 'app-update.yml'), 'utf8');
        expect(appUpdate).toMatch(/^provider: github$/m);
        expect(appUpdate).toMatch(new RegExp(`^owner: ${owner}$`, 'm'));
        expect(appUpdate).toMatch(new RegExp(`^repo: ${repo}$`, 'm'));
      }
      const labels = await electronApp!.evaluate(({ Menu }) =>
        Menu.getApplicationMenu()!.items.flatMap((item) => item.submenu?.items.map((sub) => sub.label) ?? []),
      );
      const feed = updateFeedOf(manifest.repository);
      expect(labels).toContain(
        feed
          ? `Check for Updates Now (contacts ${feed.releasesUrl.replace('https://', '')})`
          : 'Check for Updates (not set up in this build)…',
      );
      expect(existsSync(path.join(dataDir, 'desktop-settings.json'))).toBe(false);
    });

    it('refuses navigation away, new windows, permissions and requests off the service', async () => {
      // The confirmation before another site opens is answered "Cancel"; what was asked and opened is recorded.
      await electronApp!.evaluate(({ dialog, shell }) => {
        const seen = ((globalThis as Record<string, unknown>).shellSeen = {
          asked: [] as string[],
          opened: [] as string[],
        });
        dialog.showMessageBox = (async (...args: unknown[]) => {
          const options = args.find((a) => typeof a === 'object' && a !== null && 'message' in a) as {
            message: string;
          };
          seen.asked.push(options.message);
          return { response: 1, checkboxChecked: false };
        }) as typeof dialog.showMessageBox;
        shell.openExternal = (async (url: string) => void seen.opened.push(url)) as typeof shell.openExternal;
      });
      const shellSeen = () =>
        electronApp!.evaluate(
          () => (globalThis as Record<string, unknown>).shellSeen as { asked: string[]; opened: string[] },
        );
      const appUrl = page.url();
      await page.evaluate(() => void (window.location.href = 'https://example.org/?leak=1'));
      await eventually(
        'the person is asked before another site opens',
        async () => (await shellSeen()).asked.length > 0,
      );
      expect(page.url()).toBe(appUrl);
      expect(await page.evaluate(() => window.open('https://example.org/') === null)).toBe(true);
      expect(electronApp!.windows()).toHaveLength(1);
      expect(await shellSeen()).toEqual({
        asked: ['Open example.org in your web browser?', 'Open example.org in your web browser?'],
        opened: [],
      });
      const refused = await page.evaluate(async () => {
        const outcome = (p: Promise<unknown>) =>
          p.then(
            () => 'allowed',
            () => 'refused',
          );
        return {
          geolocation: (await navigator.permissions.query({ name: 'geolocation' })).state,
          microphone: await outcome(navigator.mediaDevices.getUserMedia({ audio: true })),
          offsite: await outcome(fetch('https://example.org/')),
          otherPort: await outcome(fetch('http://127.0.0.1:9/')),
        };
      });
      expect(refused).toEqual({
        geolocation: 'denied',
        microphone: 'refused',
        offsite: 'refused',
        otherPort: 'refused',
      });
    });

    it('gives the API reference, loaded into the window, no token, and runs it in an opaque origin', async () => {
      await electronApp!.evaluate(
        ({ BrowserWindow }, url) => BrowserWindow.getAllWindows()[0].loadURL(url),
        `${origin}/api/docs`,
      );
      await page.waitForURL(`${origin}/api/docs`);
      const seen = await page.evaluate(async () => ({
        origin: self.origin,
        session: await window.traitscope!.getSession().then(
          () => 'given',
          (err: Error) => err.message,
        ),
      }));
      expect(seen.origin).toBe('null');
      expect(seen.session).toMatch(/Refused: not the Traitscope page/);
      await electronApp!.evaluate(
        ({ BrowserWindow }, url) => BrowserWindow.getAllWindows()[0].loadURL(url),
        `${origin}/`,
      );
      await page.getByRole('heading', { level: 1 }).first().waitFor({ timeout: 60_000 });
    });

    it('exports a report as a PDF through the save dialog', async () => {
      const target = path.join(work, 'Hedy Lamarr.pdf');
      await electronApp!.evaluate(({ dialog }, file) => {
        dialog.showSaveDialog = (async () => ({ canceled: false, filePath: file })) as typeof dialog.showSaveDialog;
      }, target);
      const result = await page.evaluate(() => window.traitscope!.printToPDF({ fileName: 'Hedy Lamarr' }));
      expect(result).toEqual({ saved: true, path: target });
      expect(readFileSync(target).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    });

    let bounds: { x: number; y: number; width: number; height: number };
    let windowToken = '';

    it('quits cleanly: the service stops, the database is closed and no process is left', async () => {
      bounds = await electronApp!.evaluate(({ BrowserWindow }) => {
        const win = BrowserWindow.getAllWindows()[0];
        win.setBounds({ x: 60, y: 70, width: 1000, height: 720 });
        return win.getBounds();
      });
      const port = Number(new URL(origin).port);
      windowToken = (await page.evaluate(() => window.traitscope!.getSession())).token;
      expect(processesUnder(copy.dir).length).toBeGreaterThan(0);

      await electronApp!.close();
      electronApp = null;

      expect(await portAnswers('127.0.0.1', port)).toBe(false);
      // SQLite removes the write-ahead log when the last connection closes cleanly.
      expect(existsSync(path.join(dataDir, 'traitscope.db'))).toBe(true);
      expect(existsSync(path.join(dataDir, 'traitscope.db-wal'))).toBe(false);
      await eventually('no process of the app is left', () => processesUnder(copy.dir).length === 0, 15_000);
      // The run is in the data folder's log, without the window's token.
      const log = readFileSync(path.join(dataDir, 'logs', 'traitscope.log'), 'utf8');
      expect(log).toMatch(/Traitscope \S+ starting \(Electron/);
      expect(log).toMatch(/service stopped, database closed/);
      expect(log).not.toContain(windowToken);
    });

    it('reopens with its window where it was and its profiles, on another port when 4780 is taken', async () => {
      let blocker: Server | null = null;
      if (await portIsFree(DEFAULT_PORT)) {
        blocker = createServer();
        await new Promise<void>((resolve) => blocker!.listen(DEFAULT_PORT, '127.0.0.1', resolve));
      }
      try {
        await launch();
        expect(Number(new URL(origin).port)).not.toBe(DEFAULT_PORT);
        const restored = await electronApp!.evaluate(({ BrowserWindow }) =>
          BrowserWindow.getAllWindows()[0].getBounds(),
        );
        expect({ width: restored.width, height: restored.height }).toEqual({
          width: bounds.width,
          height: bounds.height,
        });
        // Window managers may nudge a window by its frame.
        expect(Math.abs(restored.x - bounds.x)).toBeLessThanOrEqual(40);
        expect(Math.abs(restored.y - bounds.y)).toBeLessThanOrEqual(40);
        await page.getByText('Ada Lovelace').first().waitFor({ timeout: 30_000 });
        // Not silently: the window says where the service is and where tools find it.
        const notice = page.getByTestId('desktop-notice');
        await expect(notice.textContent()).resolves.toContain(
          `Traitscope could not use its usual address and runs on ${origin} instead`,
        );
        await expect(notice.textContent()).resolves.toContain(path.join(dataDir, 'service.json'));
        expect(await profileNames()).toEqual([
          'Ada Lovelace',
          'Grace Hopper',
          'Hedy Lamarr',
          'Katherine Johnson',
          'Mary Somerville',
        ]);
        await shot('04-relaunched');
        await electronApp!.close();
        electronApp = null;
      } finally {
        blocker?.close();
      }
    });

    describe('when the service cannot start, a dialog says why', () => {
      async function expectStartupDialog(args: string[], reason: RegExp, name: string): Promise<void> {
        const app = spawnApp(installed.executable, args);
        try {
          await eventually(
            `the startup dialog is on screen (output so far: ${app.output()})`,
            () => app.child.pid !== undefined && windowOnScreen(STARTUP_FAILURE_TITLE, app.child.pid),
            60_000,
          );
          screenshotDesktop(path.join(screenshots, `${name}.png`));
          expect(app.output()).toMatch(reason);
        } finally {
          killTree(app.child);
          await app.exited;
        }
      }

      it('for a data folder that cannot be used', async () => {
        const blocker = path.join(work, 'a-file');
        writeFileSync(blocker, 'in the way');
        await expectStartupDialog(
          [`--data-dir=${path.join(blocker, 'data')}`],
          /cannot use its data folder/,
          '05-dialog-data-folder',
        );
      });

      it('for a data folder another Traitscope service is using', async () => {
        const held = path.join(work, 'held');
        let server: TestServer | null = null;
        try {
          server = await startServer({ dataDir: held });
          await expectStartupDialog(
            [`--data-dir=${held}`],
            new RegExp(`already running for this data folder[\\s\\S]*${server.origin.replace(/\./g, '\\.')}`),
            '06-dialog-in-use',
          );
        } finally {
          await server?.stop();
        }
      });
    });

    // An unpacked package (electron-builder --dir) has no installer to check.
    it.runIf(PACKAGED_APP && isInstaller(PACKAGED_APP))(
      'was registered by its installer for the genome file types, and uninstalls',
      () => {
        expect(registeredExtensions(installed, copy, [...GENOTYPE_EXTENSIONS, 'pdf']).sort()).toEqual(
          [...GENOTYPE_EXTENSIONS].sort(),
        );
        installed.uninstall();
        if (installed.kind === 'nsis' || installed.kind === 'deb') expect(existsSync(installed.executable)).toBe(false);
      },
    );
  },
);
