/**
 * Update checks (src/main/update-check.ts), driven with a stand-in for electron-updater's
 * autoUpdater and for the dialogs (Electron cannot run here): with checking at start off —
 * the default — no updater is even created; a check the person asked for creates it with
 * downloading and installing switched off first, on the feed the menu names; nothing is
 * downloaded without the "Download" click nor installed without "Install and Restart"; a
 * build whose repository is still the placeholder contacts nothing. The setting's file, and
 * the one source of the feed (package.json's repository, read by electron-builder.yml's
 * publish and by the app), are checked on the real files.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  loadDesktopSettings,
  PLACEHOLDER_OWNER,
  saveDesktopSettings,
  updateChecks,
  updateFeedOf,
  type Updater,
  type UpdateChecksOptions,
} from '../../src/main/update-check.js';
import { builderConfig, ROOT } from './support/build.js';

const FEED = updateFeedOf('github:example-owner/traitscope')!;

/** electron-updater's AppUpdater as the decisions see it; records what was asked of it and in which state. */
class StandInUpdater implements Updater {
  autoDownload = true; // electron-updater's defaults: download and install on quit
  autoInstallOnAppQuit = true;
  allowPrerelease = true;
  allowDowngrade = true;
  calls: string[] = [];
  constructor(private readonly available: string | null) {}
  setFeedURL(options: { provider: 'github'; owner: string; repo: string }) {
    this.calls.push(`feed ${options.provider} ${options.owner}/${options.repo}`);
  }
  checkForUpdates() {
    this.calls.push(`check (autoDownload ${this.autoDownload}, autoInstallOnAppQuit ${this.autoInstallOnAppQuit})`);
    return Promise.resolve({
      isUpdateAvailable: this.available !== null,
      updateInfo: { version: this.available ?? '1.0.0' },
    });
  }
  downloadUpdate() {
    this.calls.push('download');
    return Promise.resolve([]);
  }
  quitAndInstall() {
    this.calls.push('install');
  }
}

function setUp(
  options: { available?: string | null; download?: boolean; install?: boolean } & Partial<UpdateChecksOptions>,
) {
  const said: string[] = [];
  let created: StandInUpdater | null = null;
  const checks = updateChecks({
    feed: FEED,
    currentVersion: '1.0.0',
    packaged: true,
    createUpdater: () => (created = new StandInUpdater(options.available ?? null)),
    log: () => undefined,
    dialogs: {
      offerDownload: (v, current, f) => {
        said.push(`offer download ${v} (have ${current}) from ${f.releasesUrl}`);
        return Promise.resolve(options.download ?? false);
      },
      offerInstall: (v) => {
        said.push(`offer install ${v}`);
        return Promise.resolve(options.install ?? false);
      },
      tell: (message, detail) => {
        said.push(`${message}: ${detail}`);
        return Promise.resolve();
      },
    },
    ...options,
  });
  return { checks, said, updater: () => created };
}

describe('checking for updates', () => {
  it('creates no updater and contacts nothing at start while checking at start is off (the default)', async () => {
    const { checks, said, updater } = setUp({ available: '2.0.0' });
    expect(await checks.atStart(false)).toBe('not-contacted');
    expect(checks.created()).toBe(false);
    expect(updater()).toBeNull();
    expect(said).toEqual([]);
  });

  it('switches downloading and installing off before it asks the feed the menu names', async () => {
    const { checks, updater } = setUp({ available: null });
    expect(await checks.atStart(true)).toBe('up-to-date');
    const u = updater()!;
    expect(u.calls).toEqual([
      'feed github example-owner/traitscope',
      'check (autoDownload false, autoInstallOnAppQuit false)',
    ]);
    expect([u.allowPrerelease, u.allowDowngrade]).toEqual([false, false]);
  });

  it('downloads nothing when the person does not click Download', async () => {
    const { checks, said, updater } = setUp({ available: '2.0.0', download: false });
    expect(await checks.now()).toBe('declined');
    expect(said).toEqual([
      'offer download 2.0.0 (have 1.0.0) from https://github.com/example-owner/traitscope/releases',
    ]);
    expect(updater()!.calls).not.toContain('download');
  });

  it('installs nothing when the person downloads but does not click Install and Restart', async () => {
    const { checks, said, updater } = setUp({ available: '2.0.0', download: true, install: false });
    expect(await checks.now()).toBe('downloaded-not-installed');
    expect(said).toEqual([
      'offer download 2.0.0 (have 1.0.0) from https://github.com/example-owner/traitscope/releases',
      'offer install 2.0.0',
    ]);
    expect(updater()!.calls.slice(-1)).toEqual(['download']);
  });

  it('installs only after both clicks', async () => {
    const { checks, updater } = setUp({ available: '2.0.0', download: true, install: true });
    expect(await checks.now()).toBe('installing');
    expect(updater()!.calls.slice(-2)).toEqual(['download', 'install']);
  });

  it('says the app is up to date only when the person asked', async () => {
    const atStart = setUp({ available: null });
    await atStart.checks.atStart(true);
    expect(atStart.said).toEqual([]);
    const asked = setUp({ available: null });
    await asked.checks.now();
    expect(asked.said).toEqual([
      'Traitscope is up to date: Traitscope 1.0.0 is the newest version on https://github.com/example-owner/traitscope/releases.',
    ]);
  });

  it('reports a failed check to the person who asked, and only logs one at start', async () => {
    const logged: string[] = [];
    const failing = (): Updater => ({
      ...new StandInUpdater(null),
      setFeedURL: () => undefined,
      checkForUpdates: () => Promise.reject(new Error('getaddrinfo ENOTFOUND github.com')),
      downloadUpdate: () => Promise.reject(new Error('unreachable')),
      quitAndInstall: () => undefined,
    });
    const atStart = setUp({ createUpdater: failing, log: (_l, m) => void logged.push(m) });
    expect(await atStart.checks.atStart(true)).toBe('failed');
    expect(atStart.said).toEqual([]);
    expect(logged).toEqual([
      'Checking https://github.com/example-owner/traitscope/releases for updates failed: getaddrinfo ENOTFOUND github.com',
    ]);
    const asked = setUp({ createUpdater: failing });
    expect(await asked.checks.now()).toBe('failed');
    expect(asked.said[0]).toMatch(
      /^Traitscope could not check for updates: .*ENOTFOUND github\.com\. Try again later\.$/,
    );
  });

  it('contacts nothing in a build whose repository is the placeholder, or that is not installed, and says why', async () => {
    const placeholder = setUp({ feed: null, available: '2.0.0' });
    expect(await placeholder.checks.now()).toBe('not-contacted');
    expect(await placeholder.checks.atStart(true)).toBe('not-contacted');
    expect(placeholder.checks.created()).toBe(false);
    expect(placeholder.said).toEqual([
      'Traitscope cannot check for updates: This build of Traitscope names no repository to check for updates (package.json’s repository is not set), so nothing was contacted. Download newer versions from where you got Traitscope.',
    ]);
    const sources = setUp({ packaged: false, available: '2.0.0' });
    expect(await sources.checks.now()).toBe('not-contacted');
    expect(sources.checks.created()).toBe(false);
  });
});

describe('the update feed', () => {
  it('is read from package.json’s repository in its usual spellings', () => {
    for (const spec of [
      'github:o/r',
      'o/r',
      'https://github.com/o/r',
      'https://github.com/o/r.git',
      'git+https://github.com/o/r.git',
      'git+ssh://git@github.com/o/r.git',
      { type: 'git', url: 'https://github.com/o/r.git' },
    ])
      expect(updateFeedOf(spec), JSON.stringify(spec)).toEqual({
        owner: 'o',
        repo: 'r',
        releasesUrl: 'https://github.com/o/r/releases',
      });
    for (const spec of [
      undefined,
      null,
      '',
      'https://gitlab.com/o/r.git',
      { url: 42 },
      `github:${PLACEHOLDER_OWNER}/r`,
    ])
      expect(updateFeedOf(spec), JSON.stringify(spec)).toBeNull();
  });

  it('has one source: electron-builder.yml publishes to GitHub without an owner of its own, so package.json’s repository decides for both', async () => {
    const config = await builderConfig();
    expect(config.publish).toEqual([{ provider: 'github' }]);
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      repository: { url: string };
    };
    // What electron-builder writes into the app's app-update.yml and the release feed.
    const { getRepositoryInfo } = await import('app-builder-lib/out/util/repositoryInfo.js');
    const info = await getRepositoryInfo(ROOT, manifest, null);
    const feed = updateFeedOf(manifest.repository);
    if (feed) expect({ owner: info?.user, repo: info?.project }).toEqual({ owner: feed.owner, repo: feed.repo });
    // Until a maintainer names the real repository, the placeholder keeps the app from contacting anything.
    else expect(info?.user).toBe(PLACEHOLDER_OWNER);
  });
});

describe('the setting', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'traitscope-desktop-settings-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is off when never set, kept when turned on, readable by the person only, and off when its file is damaged (with a warning)', () => {
    const warnings: string[] = [];
    expect(loadDesktopSettings(dir, (m) => warnings.push(m))).toEqual({ checkForUpdatesAtStart: false });
    expect(warnings).toEqual([]);
    saveDesktopSettings(dir, { checkForUpdatesAtStart: true });
    expect(loadDesktopSettings(dir, (m) => warnings.push(m))).toEqual({ checkForUpdatesAtStart: true });
    const file = path.join(dir, 'desktop-settings.json');
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    writeFileSync(file, '{"checkForUpdatesAtStart": tru');
    expect(loadDesktopSettings(dir, (m) => warnings.push(m))).toEqual({ checkForUpdatesAtStart: false });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /desktop-settings\.json is not valid JSON .*; checking for updates at start stays off\./,
    );
  });
});
