/**
 * The data folder is its user's alone: on POSIX its folders are 0700 and its files 0600,
 * also when they already exist with looser modes (made by an older version, by hand, or
 * under a umask of 022). On Windows the per-user %APPDATA% folder's ACLs already keep
 * other users out; modes mean nothing there.
 */
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

const POSIX = process.platform !== 'win32';
const GROUP_OR_OTHER = 0o077;

export class DataFolderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataFolderError';
  }
}

/** Creates the folder (0700) if needed, or takes group and other permissions away from it. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!POSIX) return;
  const st = statSync(dir);
  if (!st.isDirectory())
    throw new DataFolderError(`${dir} is not a folder. Choose a folder for Traitscope's data (--data-dir).`);
  if ((st.mode & GROUP_OR_OTHER) === 0) return;
  try {
    chmodSync(dir, 0o700);
  } catch (err) {
    throw new DataFolderError(
      `Traitscope's data folder ${dir} can be read by other users, and its permissions could not be changed (${(err as Error).message}). ` +
        'Use a folder that belongs to you (--data-dir).',
    );
  }
}

/**
 * Creates the file empty with mode 0600 if it does not exist (unless onlyIfExists), or takes
 * group and other permissions away from it. Works by path, never by opening an existing
 * file: closing any descriptor of a SQLite database (or its -wal/-shm) would drop the POSIX
 * locks this process's connections hold on it.
 */
export function makePrivateFile(file: string, options: { onlyIfExists?: boolean } = {}): void {
  if (file === '' || file === ':memory:') return;
  let mode: number;
  try {
    mode = statSync(file).mode;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || options.onlyIfExists) return;
    try {
      closeSync(openSync(file, 'wx', 0o600));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    return;
  }
  if (POSIX && (mode & GROUP_OR_OTHER) !== 0) chmodSync(file, 0o600);
}
