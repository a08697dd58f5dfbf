/**
 * Checking for a newer Traitscope, privately. Nothing is contacted unless the person asks:
 * at start only when they turned on "Check for Updates at Start" (off by default, kept in
 * desktop-settings.json in the data folder), otherwise only when they click "Check for
 * Updates Now". What is contacted is one place, named in both menu items: the GitHub
 * Releases of the repository in package.json's `repository` (electron-builder.yml's
 * `publish` reads the same). A newer version is downloaded only after the person clicks
 * "Download", and installed only after they click "Install and Restart": the updater's
 * autoDownload and autoInstallOnAppQuit are switched off before it is asked anything.
 * Which signatures are checked on each system: docs/desktop.md, "Updates".
 *
 * No Electron here: the updater (electron-updater's autoUpdater) and the dialogs are passed
 * in, so test/desktop/update-check.test.ts drives the decisions with stand-ins.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The owner package.json names until a maintainer sets the real one (docs/desktop.md, "Updates"). */
export const PLACEHOLDER_OWNER = 'traitscope-publish-owner-unset';

export interface UpdateFeed {
  owner: string;
  repo: string;
  /** What the menu names: https://github.com/OWNER/REPO/releases */
  releasesUrl: string;
}

/**
 * The GitHub repository whose Releases are the update feed, from package.json's `repository`
 * ("github:OWNER/REPO", "OWNER/REPO", a github.com URL, or { url }); null when there is none,
 * it is not on GitHub, or it is still the placeholder.
 */
export function updateFeedOf(repository: unknown): UpdateFeed | null {
  const spec =
    typeof repository === 'string'
      ? repository
      : typeof (repository as { url?: unknown } | null)?.url === 'string'
        ? (repository as { url: string }).url
        : null;
  if (!spec) return null;
  const match =
    /^(?:github:)?([A-Za-z0-9-]+)\/([A-Za-z0-9._-]+?)(?:\.git)?$/.exec(spec) ??
    /^(?:git\+)?(?:https?|ssh|git):\/\/(?:git@)?github\.com[/:]([A-Za-z0-9-]+)\/([A-Za-z0-9._-]+?)(?:\.git)?\/?$/.exec(
      spec,
    );
  if (!match || match[1] === PLACEHOLDER_OWNER) return null;
  const [, owner, repo] = match;
  return { owner, repo, releasesUrl: `https://github.com/${owner}/${repo}/releases` };
}

/** The part of electron-updater's AppUpdater these decisions use. */
export interface Updater {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowPrerelease: boolean;
  allowDowngrade: boolean;
  setFeedURL: (options: { provider: 'github'; owner: string; repo: string }) => void;
  /** Null when the updater is inactive (not an installed app). */
  checkForUpdates: () => Promise<{ isUpdateAvailable: boolean; updateInfo: { version: string } } | null>;
  downloadUpdate: () => Promise<unknown>;
  quitAndInstall: () => void;
}

/** What the person is asked and told; each answers true when they clicked the button that goes on. */
export interface UpdateDialogs {
  offerDownload: (newVersion: string, currentVersion: string, feed: UpdateFeed) => Promise<boolean>;
  offerInstall: (newVersion: string) => Promise<boolean>;
  tell: (message: string, detail: string) => Promise<void>;
}

export interface UpdateChecksOptions {
  feed: UpdateFeed | null;
  currentVersion: string;
  /** Only an installed app can update itself (not `npm run dev`). */
  packaged: boolean;
  /** Creates the updater; called only when a check is about to contact the feed. */
  createUpdater: () => Updater;
  dialogs: UpdateDialogs;
  /** Where a check at start that failed is written (the person did not ask at that moment). */
  log: (level: 'info' | 'warn', message: string) => void;
}

export type CheckOutcome =
  'not-contacted' | 'up-to-date' | 'declined' | 'downloaded-not-installed' | 'installing' | 'failed';

export interface UpdateChecks {
  /** At start: checks only when the person turned checking at start on. */
  atStart: (checkAtStart: boolean) => Promise<CheckOutcome>;
  /** "Check for Updates Now": the person asked. */
  now: () => Promise<CheckOutcome>;
  /** Whether an updater exists (it is created only by a check). */
  created: () => boolean;
}

/** Why this build cannot check, for the person who asked; null when it can. */
function cannotCheck(options: UpdateChecksOptions): string | null {
  if (!options.feed)
    return 'This build of Traitscope names no repository to check for updates (package.json’s repository is not set), so nothing was contacted. Download newer versions from where you got Traitscope.';
  if (!options.packaged) return 'Only an installed Traitscope updates itself; this one runs from its sources.';
  return null;
}

export function updateChecks(options: UpdateChecksOptions): UpdateChecks {
  const { feed, currentVersion, dialogs, log } = options;
  let updater: Updater | null = null;
  let busy: Promise<CheckOutcome> | null = null;

  function updaterNow(f: UpdateFeed): Updater {
    if (updater) return updater;
    const u = options.createUpdater();
    // Before anything is asked of it: nothing is downloaded or installed without a click.
    u.autoDownload = false;
    u.autoInstallOnAppQuit = false;
    u.allowPrerelease = false;
    u.allowDowngrade = false;
    u.setFeedURL({ provider: 'github', owner: f.owner, repo: f.repo });
    updater = u;
    return u;
  }

  async function check(askedNow: boolean): Promise<CheckOutcome> {
    const reason = cannotCheck(options);
    if (reason || !feed) {
      if (askedNow) await dialogs.tell('Traitscope cannot check for updates', reason ?? '');
      return 'not-contacted';
    }
    const u = updaterNow(feed);
    let newVersion: string | null;
    try {
      const result = await u.checkForUpdates();
      // The updater compares versions (semver); no downgrade, no pre-release.
      newVersion = result?.isUpdateAvailable ? result.updateInfo.version : null;
    } catch (err) {
      const message = `Checking ${feed.releasesUrl} for updates failed: ${(err as Error).message}`;
      log('warn', message);
      if (askedNow) await dialogs.tell('Traitscope could not check for updates', `${message}. Try again later.`);
      return 'failed';
    }
    if (!newVersion) {
      if (askedNow)
        await dialogs.tell(
          'Traitscope is up to date',
          `Traitscope ${currentVersion} is the newest version on ${feed.releasesUrl}.`,
        );
      return 'up-to-date';
    }
    log('info', `Traitscope ${newVersion} is available on ${feed.releasesUrl}`);
    if (!(await dialogs.offerDownload(newVersion, currentVersion, feed))) return 'declined';
    try {
      await u.downloadUpdate();
    } catch (err) {
      const message = `Downloading Traitscope ${newVersion} failed: ${(err as Error).message}`;
      log('warn', message);
      await dialogs.tell('Traitscope could not download the update', `${message}. Nothing was changed.`);
      return 'failed';
    }
    if (!(await dialogs.offerInstall(newVersion))) return 'downloaded-not-installed';
    u.quitAndInstall();
    return 'installing';
  }

  /** One check at a time: a second click while one runs joins it. */
  function run(askedNow: boolean): Promise<CheckOutcome> {
    busy ??= check(askedNow).finally(() => (busy = null));
    return busy;
  }

  return {
    atStart: (checkAtStart) => (checkAtStart ? run(false) : Promise.resolve('not-contacted')),
    now: () => run(true),
    created: () => updater !== null,
  };
}

/** The desktop app's own settings (desktop-settings.json in the data folder). */
export interface DesktopSettings {
  /** Contact the update feed when the app starts. Off unless the person turned it on. */
  checkForUpdatesAtStart: boolean;
}

const SETTINGS_FILE = 'desktop-settings.json';

/** The saved settings; off when there are none. A file that cannot be read is reported, and checking stays off. */
export function loadDesktopSettings(dataDir: string, warn: (message: string) => void): DesktopSettings {
  const file = path.join(dataDir, SETTINGS_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      warn(`${file} cannot be read (${(err as Error).message}); checking for updates at start stays off.`);
    return { checkForUpdatesAtStart: false };
  }
  try {
    const saved = JSON.parse(text) as Partial<DesktopSettings>;
    return { checkForUpdatesAtStart: saved.checkForUpdatesAtStart === true };
  } catch (err) {
    warn(`${file} is not valid JSON (${(err as Error).message}); checking for updates at start stays off.`);
    return { checkForUpdatesAtStart: false };
  }
}

/** Saves the settings (readable by the person only); a half-written file never replaces the last one. */
export function saveDesktopSettings(dataDir: string, settings: DesktopSettings): void {
  const file = path.join(dataDir, SETTINGS_FILE);
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  renameSync(partial, file);
}
