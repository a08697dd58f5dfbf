/**
 * The packaged-app smoke test's access to a real installed Traitscope, on Windows, macOS
 * and Linux:
 * - installing it from the installer the way a user's machine does (NSIS silently into a
 *   chosen folder, the dmg's app copied out, the deb through apt, the AppImage as is) and
 *   removing it again;
 * - an inspectable copy: Playwright drives Electron through its Node inspector, which the
 *   shipped app's fuses switch off (EnableNodeCliInspectArguments). The test flips that one
 *   fuse on a copy of the installed app (re-signed ad hoc on macOS) and drives the copy;
 *   everything else — the archive, the unpacked worker, the native addons — is the
 *   installer's own output. Launches without Playwright use the app exactly as installed;
 * - what the operating system sees: processes running from a folder, the addresses a
 *   process listens on, a dialog window on screen.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { FuseV1Options, FuseVersion, flipFuses, getCurrentFuseWire } from '@electron/fuses';

export type PackageKind = 'nsis' | 'dmg' | 'appimage' | 'deb' | 'dir';

export interface InstalledApp {
  kind: PackageKind;
  /** The executable as the installer left it (for an AppImage: the AppImage). */
  executable: string;
  /** The installed app's folder (the .app bundle on macOS); null for an AppImage, which mounts itself when run. */
  installDir: string | null;
  /** Removes what the installer installed. */
  uninstall(): void;
}

export interface InspectableCopy {
  executable: string;
  dir: string;
}

function run(command: string, args: string[], options: { cwd?: string } = {}): string {
  const result = spawnSync(command, args, { encoding: 'utf8', cwd: options.cwd, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} failed (${result.status ?? result.error?.message}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

const asRoot = (command: string, args: string[]) =>
  process.getuid?.() === 0 ? run(command, args) : run('sudo', ['-n', command, ...args]);

function powershell(script: string): string {
  return run('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', script]);
}

/** Whether `target` is an installer (as opposed to an unpacked package's executable). */
export function isInstaller(target: string): boolean {
  const name = path.basename(target).toLowerCase();
  return (
    name.endsWith('.dmg') ||
    name.endsWith('.appimage') ||
    name.endsWith('.deb') ||
    (name.endsWith('.exe') && name.includes('setup'))
  );
}

/** Installs `target` (an installer, or an executable / .app of an unpacked package) and says where it is. */
export function install(target: string): InstalledApp {
  const file = path.resolve(target);
  const ext = path.extname(file).toLowerCase();
  const work = mkdtempSync(path.join(tmpdir(), 'traitscope-installed-'));

  if (ext === '.exe' && isInstaller(file)) {
    // Per-user NSIS installer; /D must come last and unquoted.
    run(file, ['/S', `/D=${work}`]);
    const executable = path.join(work, 'Traitscope.exe');
    if (!existsSync(executable)) throw new Error(`The installer ran but ${executable} does not exist.`);
    return {
      kind: 'nsis',
      executable,
      installDir: work,
      // _?= runs the uninstaller in place and waits for it (otherwise it copies itself and returns at once).
      uninstall: () => run(path.join(work, 'Uninstall Traitscope.exe'), ['/S', `_?=${work}`]),
    };
  }
  if (ext === '.dmg') {
    const mount = path.join(work, 'mount');
    run('hdiutil', ['attach', '-nobrowse', '-readonly', '-noautoopen', '-mountpoint', mount, file]);
    try {
      const bundle = readdirSync(mount).find((name) => name.endsWith('.app'));
      if (!bundle) throw new Error(`${file} holds no .app`);
      run('ditto', [path.join(mount, bundle), path.join(work, bundle)]);
      const app = path.join(work, bundle);
      return {
        kind: 'dmg',
        executable: path.join(app, 'Contents', 'MacOS', 'Traitscope'),
        installDir: app,
        uninstall: () => rmSync(app, { recursive: true, force: true }),
      };
    } finally {
      run('hdiutil', ['detach', mount]);
    }
  }
  if (ext === '.appimage') {
    chmodSync(file, 0o755);
    return { kind: 'appimage', executable: file, installDir: null, uninstall: () => undefined };
  }
  if (ext === '.deb') {
    asRoot('apt-get', ['install', '-y', '--no-install-recommends', file]);
    return {
      kind: 'deb',
      executable: '/opt/Traitscope/traitscope',
      installDir: '/opt/Traitscope',
      uninstall: () => asRoot('apt-get', ['remove', '-y', 'traitscope']),
    };
  }
  // An unpacked package (electron-builder --dir): Traitscope.exe, traitscope, or Traitscope.app.
  const app = file.endsWith('.app') ? file : file.includes('.app/') ? file.slice(0, file.indexOf('.app/') + 4) : null;
  if (app)
    return {
      kind: 'dir',
      executable: path.join(app, 'Contents', 'MacOS', 'Traitscope'),
      installDir: app,
      uninstall: () => undefined,
    };
  return { kind: 'dir', executable: file, installDir: path.dirname(file), uninstall: () => undefined };
}

/** A copy of the installed app with Node's inspector allowed, which Playwright needs; nothing else changes. */
export async function inspectableCopy(app: InstalledApp): Promise<InspectableCopy> {
  const work = mkdtempSync(path.join(tmpdir(), 'traitscope-inspectable-'));
  let executable: string;
  let fuseTarget: string;
  let dir: string;
  if (app.kind === 'appimage') {
    run(app.executable, ['--appimage-extract'], { cwd: work });
    dir = path.join(work, 'squashfs-root');
    executable = fuseTarget = path.join(dir, 'traitscope');
  } else if (process.platform === 'darwin') {
    dir = path.join(work, path.basename(app.installDir!));
    run('ditto', [app.installDir!, dir]);
    fuseTarget = dir;
    executable = path.join(dir, 'Contents', 'MacOS', 'Traitscope');
  } else {
    dir = path.join(work, 'app');
    cpSync(app.installDir!, dir, { recursive: true, verbatimSymlinks: true });
    executable = fuseTarget = path.join(dir, path.basename(app.executable));
  }
  await flipFuses(fuseTarget, {
    version: FuseVersion.V1,
    [FuseV1Options.EnableNodeCliInspectArguments]: true,
    resetAdHocDarwinSignature: process.platform === 'darwin',
  });
  return { executable, dir };
}

/**
 * The fuses burnt into the installed app's own binary, read back from it: true for on.
 * An AppImage is extracted first (its Electron binary is inside); macOS reads the .app.
 */
export async function installedFuses(app: InstalledApp): Promise<Partial<Record<FuseV1Options, boolean>>> {
  let target: string;
  let work: string | null = null;
  if (app.kind === 'appimage') {
    work = mkdtempSync(path.join(tmpdir(), 'traitscope-fuses-'));
    run(app.executable, ['--appimage-extract'], { cwd: work });
    target = path.join(work, 'squashfs-root', 'traitscope');
  } else target = process.platform === 'darwin' ? app.installDir! : app.executable;
  try {
    const wire = await getCurrentFuseWire(target);
    // The wire's bytes: '1' (49) on, '0' (48) off (@electron/fuses does not export FuseState).
    const state: Partial<Record<FuseV1Options, boolean>> = {};
    for (const option of Object.values(FuseV1Options).filter((v): v is FuseV1Options => typeof v === 'number')) {
      const byte = Number(wire[option]);
      if (byte === 48 || byte === 49) state[option] = byte === 49;
    }
    return state;
  } finally {
    if (work) rmSync(work, { recursive: true, force: true });
  }
}

/** Switches every launch needs: no Chromium sandbox on Linux CI (unprivileged user namespaces are restricted there). */
export const PLATFORM_ARGS = process.platform === 'linux' ? ['--no-sandbox'] : [];

/** Starts the app as a user would, without Playwright; its output is collected. */
export function spawnApp(
  executable: string,
  args: string[],
): { child: ChildProcess; output: () => string; exited: Promise<number | null> } {
  const child = spawn(executable, [...PLATFORM_ARGS, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** Ends a spawned app and everything it started. */
export function killTree(child: ChildProcess): void {
  if (child.exitCode !== null || !child.pid) return;
  if (process.platform === 'win32') spawnSync('taskkill', ['/PID', String(child.pid), '/T', '/F']);
  else {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Processes whose executable lies inside `dir`. */
export function processesUnder(dir: string): number[] {
  const prefix = path.resolve(dir);
  if (process.platform === 'linux') {
    const pids: number[] = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readlinkSync(`/proc/${entry}/exe`).startsWith(prefix)) pids.push(Number(entry));
      } catch {
        // gone, or not ours
      }
    }
    return pids;
  }
  if (process.platform === 'darwin') {
    return run('ps', ['-axo', 'pid=,comm='])
      .split('\n')
      .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null && m[2].startsWith(prefix))
      .map((m) => Number(m[1]));
  }
  const script = `Get-CimInstance Win32_Process | Where-Object { $_.ExecutablePath -and $_.ExecutablePath.StartsWith('${prefix.replace(/'/g, "''")}', 'OrdinalIgnoreCase') } | ForEach-Object { $_.ProcessId }`;
  return powershell(script).split(/\s+/).filter(Boolean).map(Number);
}

/** Local addresses (host:port) the given processes listen on for TCP. */
export function listeningAddresses(pids: number[]): string[] {
  if (pids.length === 0) return [];
  if (process.platform === 'linux') {
    const wanted = new Set(pids);
    return run('ss', ['-ltnpH'])
      .split('\n')
      .filter((line) => [...line.matchAll(/pid=(\d+)/g)].some((m) => wanted.has(Number(m[1]))))
      .map((line) => line.trim().split(/\s+/)[3]);
  }
  if (process.platform === 'darwin') {
    const result = spawnSync('lsof', ['-nP', '-iTCP', '-sTCP:LISTEN', '-a', '-p', pids.join(',')], {
      encoding: 'utf8',
    });
    return result.stdout
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((line) => line.trim().split(/\s+/).at(-2)!);
  }
  const script = `Get-NetTCPConnection -State Listen | Where-Object { @(${pids.join(',')}) -contains $_.OwningProcess } | ForEach-Object { "$($_.LocalAddress):$($_.LocalPort)" }`;
  return powershell(script).split(/\s+/).filter(Boolean);
}

/** Addresses of this machine other than 127.0.0.1 that a service listening on every interface would answer on. */
export function otherLocalAddresses(): string[] {
  const addresses = ['::1'];
  // The whole 127/8 is loopback on Linux and Windows, but only 127.0.0.1 on macOS.
  if (process.platform !== 'darwin') addresses.push('127.0.0.2');
  for (const list of Object.values(networkInterfaces())) {
    for (const info of list ?? []) if (!info.internal && !info.address.startsWith('fe80')) addresses.push(info.address);
  }
  return addresses;
}

/**
 * Whether a window with this title (Linux, Windows) or any window of this process
 * (macOS, which shows other apps' window titles only with Screen Recording permission)
 * is on screen.
 */
export function windowOnScreen(title: string, pid: number): boolean {
  if (process.platform === 'linux') return run('xwininfo', ['-root', '-tree']).includes(`"${title}"`);
  if (process.platform === 'win32') {
    return (
      powershell(
        `Get-Process | Where-Object { $_.MainWindowTitle -eq '${title.replace(/'/g, "''")}' } | ForEach-Object { $_.Id }`,
      ).trim() !== ''
    );
  }
  const jxa = `ObjC.import('CoreGraphics');
    const list = ObjC.deepUnwrap(ObjC.castRefToObject($.CGWindowListCopyWindowInfo($.kCGWindowListOptionOnScreenOnly, 0)));
    JSON.stringify(list.map((w) => w.kCGWindowOwnerPID));`;
  const owners = JSON.parse(run('osascript', ['-l', 'JavaScript', '-e', jxa])) as number[];
  return owners.includes(pid);
}

/** A picture of the whole screen, for the test's artefacts (dialogs are not part of any page). Best effort. */
export function screenshotDesktop(file: string): void {
  if (process.platform === 'darwin') spawnSync('screencapture', ['-x', file]);
  else if (process.platform === 'linux') spawnSync('import', ['-window', 'root', file]);
  else {
    spawnSync('powershell.exe', [
      '-NoProfile',
      '-Command',
      `Add-Type -AssemblyName System.Windows.Forms,System.Drawing; $b=[System.Windows.Forms.Screen]::PrimaryScreen.Bounds; $i=New-Object System.Drawing.Bitmap $b.Width,$b.Height; [System.Drawing.Graphics]::FromImage($i).CopyFromScreen($b.Location,[System.Drawing.Point]::Empty,$b.Size); $i.Save('${file.replace(/'/g, "''")}')`,
    ]);
  }
}

/** Which of `candidates` the installed app is registered to open, read from what the installer wrote. */
export function registeredExtensions(app: InstalledApp, inspectable: InspectableCopy, candidates: string[]): string[] {
  if (app.kind === 'nsis') {
    return candidates.filter(
      (ext) =>
        spawnSync('reg', ['query', `HKCU\\Software\\Classes\\.${ext}\\OpenWithProgids`, '/v', 'Traitscope.DNARawData'])
          .status === 0,
    );
  }
  if (process.platform === 'darwin') {
    const plist = JSON.parse(
      run('plutil', ['-convert', 'json', '-o', '-', path.join(app.installDir!, 'Contents', 'Info.plist')]),
    ) as {
      CFBundleDocumentTypes?: Array<{ CFBundleTypeExtensions?: string[] }>;
    };
    const declared = (plist.CFBundleDocumentTypes ?? []).flatMap((t) => t.CFBundleTypeExtensions ?? []);
    return candidates.filter((ext) => declared.includes(ext));
  }
  // Linux: the desktop entry's MIME types, mapped back to the extensions they stand for.
  const desktopFile =
    app.kind === 'deb'
      ? '/usr/share/applications/traitscope.desktop'
      : path.join(inspectable.dir, 'traitscope.desktop');
  const entry = readFileSync(desktopFile, 'utf8');
  const exec = /^Exec=.*$/m.exec(entry)?.[0] ?? '';
  if (!/%[UuFf]/.test(exec)) return []; // files would not reach the app
  const mime = (/^MimeType=(.*)$/m.exec(entry)?.[1] ?? '').split(';');
  const byMime: Record<string, string> = {
    'text/plain': 'txt',
    'text/csv': 'csv',
    'text/tab-separated-values': 'tsv',
    'text/x-vcf': 'vcf',
    'application/zip': 'zip',
    'application/gzip': 'gz',
  };
  return candidates.filter((ext) => mime.some((m) => byMime[m] === ext));
}
