/**
 * Packages the app with electron-builder itself — the real `files`, `asarUnpack` and fuse
 * rules of electron-builder.yml applied to the real build output (out/) — as a Linux
 * `--dir` package, without downloading anything:
 * - Electron's binary is replaced by a stand-in file that carries Electron's fuse wire (the
 *   bytes electron-builder flips), so electron-builder runs its fuse step for real. Nothing
 *   here executes it: the layout around it is what is under test.
 * - out/native/better_sqlite3.node is npm's build for Node, in place of the Electron build
 *   that `scripts/desktop/electron-native.ts` puts there when packaging for real. Tests run
 *   the packaged service under Node, so the Node build is the one that loads.
 * The project is staged in a temporary folder so a developer's own out/native is untouched.
 * electron-builder runs in a child process (it logs freely and keeps process-wide state).
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const TSX = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

/** Electron's fuse wire marker (see @electron/fuses) and the wire of an unmodified Electron. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const ELECTRON_DEFAULT_FUSES = '10110001';

export interface StandInPackage {
  /** The packaged app folder (what linux-unpacked is). */
  appDir: string;
  /** The executable (the stand-in, renamed by electron-builder). */
  executable: string;
  /** appDir/resources */
  resourcesDir: string;
  archive: string;
  unpackedDir: string;
  /** electron-builder's output, for failure messages. */
  log: string;
}

function electronVersion(): string {
  return JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8'))
    .version as string;
}

function stageProject(dir: string): void {
  cpSync(path.join(ROOT, 'electron-builder.yml'), path.join(dir, 'electron-builder.yml'));
  // electron-builder collects the production dependency tree before the `files` rules drop
  // all of node_modules. With npm detected it runs `npm list -a` over the ~800 installed
  // packages (7.6 s of CPU); its own traversal collector, chosen by this field, reads the
  // production dependencies' package.json files instead. The rules, and so the package's
  // contents, are the same: a rule that let node_modules in would still ship them.
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ ...manifest, packageManager: 'traversal' }, null, 2));
  for (const part of ['main', 'preload', 'renderer'])
    cpSync(path.join(ROOT, 'out', part), path.join(dir, 'out', part), { recursive: true });
  cpSync(path.join(ROOT, 'resources'), path.join(dir, 'resources'), { recursive: true });
  const nodeBuild = path.join(ROOT, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  mkdirSync(path.join(dir, 'out', 'native'), { recursive: true });
  cpSync(nodeBuild, path.join(dir, 'out', 'native', 'better_sqlite3.node'));
  // electron-builder reads the dependency tree as packaging does; nothing of it is shipped.
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'junction');
}

function standInElectron(dir: string): void {
  mkdirSync(path.join(dir, 'resources'), { recursive: true });
  const wire = Buffer.concat([
    Buffer.from(FUSE_SENTINEL),
    Buffer.from([1, ELECTRON_DEFAULT_FUSES.length]),
    Buffer.from(ELECTRON_DEFAULT_FUSES),
  ]);
  writeFileSync(
    path.join(dir, 'electron'),
    Buffer.concat([Buffer.from('#!/bin/sh\necho "stand-in for the Electron binary (test/desktop)"; exit 1\n'), wire]),
    { mode: 0o755 },
  );
  writeFileSync(path.join(dir, 'LICENSE'), 'stand-in\n');
}

/** Packages into a fresh temporary folder; rejects with electron-builder's output if it fails. */
export async function packWithStandInElectron(): Promise<StandInPackage> {
  const work = mkdtempSync(path.join(tmpdir(), 'traitscope-pack-'));
  const project = path.join(work, 'project');
  const electronDist = path.join(work, 'electron-dist');
  const output = path.join(work, 'dist');
  stageProject(project);
  standInElectron(electronDist);
  const request = JSON.stringify({ project, electronDist, output, electronVersion: electronVersion() });
  const log = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [TSX, fileURLToPath(import.meta.url), request], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`electron-builder failed (exit ${code}):\n${out}`)),
    );
  });
  const appDir = path.join(output, 'linux-unpacked');
  const resourcesDir = path.join(appDir, 'resources');
  return {
    appDir,
    executable: path.join(appDir, 'traitscope'),
    resourcesDir,
    archive: path.join(resourcesDir, 'app.asar'),
    unpackedDir: path.join(resourcesDir, 'app.asar.unpacked'),
    log,
  };
}

/** Child process: runs electron-builder on the staged project. */
async function runElectronBuilder(request: {
  project: string;
  electronDist: string;
  output: string;
  electronVersion: string;
}): Promise<void> {
  const { build, Platform, Arch } = await import('electron-builder');
  await build({
    projectDir: request.project,
    targets: Platform.LINUX.createTarget('dir', Arch.x64),
    config: {
      electronDist: request.electronDist,
      electronVersion: request.electronVersion,
      directories: { output: request.output },
    },
    publish: 'never',
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runElectronBuilder(JSON.parse(process.argv[2]!));
}
