/**
 * What Traitscope's command line carries: genotype files to open ("Open with", files dropped
 * on a launcher or taskbar icon, paths typed in a terminal; Linux desktops may pass them as
 * file:// URLs) and `--data-dir=FOLDER`, the data folder to use instead of the per-user
 * default (the same folder the command line's --data-dir names). Switches that Electron,
 * Chromium or the platform add (--no-sandbox, --inspect=…, -psn_…) are skipped.
 * Kept free of Electron so tests can run it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENOTYPE_EXTENSIONS } from '../shared/genotype-files.js';

/** Extensions of genotype raw-data files: the installers' file associations name the same. */

export interface LaunchArgs {
  /** Absolute path of --data-dir=FOLDER, or null for the per-user default. */
  dataDir: string | null;
  /** Absolute paths of genotype files to open. */
  files: string[];
}

function isGenotypeFile(file: string): boolean {
  return (GENOTYPE_EXTENSIONS as readonly string[]).includes(path.extname(file).slice(1).toLowerCase());
}

function localPath(arg: string, cwd: string): string | null {
  if (!arg.startsWith('file:')) return path.resolve(cwd, arg);
  try {
    return fileURLToPath(arg);
  } catch {
    return null; // a file: URL of another machine: nothing to open here
  }
}

/** `args` are the arguments after the executable (and, in development, after the app folder); relative paths are taken from `cwd`. */
export function parseLaunchArgs(args: readonly string[], cwd: string): LaunchArgs {
  let dataDir: string | null = null;
  const files: string[] = [];
  for (const arg of args) {
    const folder = /^--data-dir=(.+)$/.exec(arg)?.[1];
    if (folder) dataDir = path.resolve(cwd, folder);
    else if (!arg.startsWith('-')) {
      const file = localPath(arg, cwd);
      if (file && isGenotypeFile(file)) files.push(file);
    }
  }
  return { dataDir, files };
}
