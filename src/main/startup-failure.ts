/**
 * What the user is told when the service cannot start, in words that say what is wrong
 * and what to do. Each cause gets its own message; the details keep the system's own words.
 */
export interface StartupProblem {
  /** The headline of the dialog. */
  message: string;
  /** What happened and what to do. */
  detail: string;
}

/** Another Traitscope service (the app of another session, `traitscope serve`) uses the data folder. */
export class ServiceAlreadyRunningError extends Error {
  constructor(readonly origin: string) {
    super(`Another Traitscope service is using this data folder at ${origin}.`);
    this.name = 'ServiceAlreadyRunningError';
  }
}

const ANOTHER_FOLDER = 'or start Traitscope with another data folder: Traitscope --data-dir=FOLDER';

/** File system and SQLite codes that mean the data folder (or its database file) cannot be used. */
const UNUSABLE_FOLDER: Record<string, string> = {
  ENOTDIR: 'A file is in the way: the data folder, or a folder above it, is a file.',
  EEXIST: 'A file is in the way: the data folder, or a folder above it, is a file.',
  EACCES: 'Traitscope is not allowed to write there.',
  EPERM: 'Traitscope is not allowed to write there.',
  EROFS: 'The disk is read-only.',
  ENOSPC: 'The disk is full.',
  SQLITE_FULL: 'The disk is full.',
  SQLITE_CANTOPEN: 'Its database file cannot be opened.',
  SQLITE_READONLY: 'Its database file cannot be written.',
  SQLITE_PERM: 'Its database file cannot be written.',
  SQLITE_IOERR: 'The disk reported an error while reading or writing the database.',
};

export function describeStartupFailure(err: unknown, dataDir: string): StartupProblem {
  const error = err instanceof Error ? err : new Error(String(err));
  const { code = '', syscall = '' } = error as NodeJS.ErrnoException;

  if (error instanceof ServiceAlreadyRunningError) {
    return {
      message: 'Traitscope is already running for this data folder',
      detail:
        `${dataDir} is in use by another Traitscope service at ${error.origin} (the command-line "serve", or the app of another user session). ` +
        `Quit that one and open Traitscope again, ${ANOTHER_FOLDER}.`,
    };
  }
  if (error.name === 'DatabaseTooNewError') {
    return { message: 'This data folder belongs to a newer Traitscope', detail: error.message };
  }
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
    return {
      message: 'The database in the data folder is damaged',
      detail: `${dataDir}\n\nSQLite says: ${error.message}. Traitscope leaves it as it is. Restore the folder from a backup, ${ANOTHER_FOLDER}.`,
    };
  }
  // The service reports a taken port in its own words (for the command line), without a code.
  const portTaken = /^Port \d+ on 127\.0\.0\.1 is already in use/.test(error.message);
  if (syscall === 'listen' || portTaken || code === 'EADDRINUSE' || code === 'EADDRNOTAVAIL') {
    return {
      message: 'Traitscope could not open its local connection',
      detail:
        `The window talks to Traitscope's service on 127.0.0.1 (this computer only), and it could not listen there: ${error.message.replace(/ Choose another with --port.*$/, '')} ` +
        'Open Traitscope again (it picks a free port when its usual one is taken); if this persists, check that no security software stops Traitscope from listening on 127.0.0.1.',
    };
  }
  if (UNUSABLE_FOLDER[code]) {
    return {
      message: 'Traitscope cannot use its data folder',
      detail: `${dataDir}\n\n${UNUSABLE_FOLDER[code]} (${error.message})\n\nCheck that the folder exists and that you may write to it, ${ANOTHER_FOLDER}.`,
    };
  }
  return {
    message: 'Traitscope could not start',
    detail: `${error.message}\n\nIf this happens again, please report it with this message.`,
  };
}
