/**
 * The local log a person can send when something goes wrong: `logs/traitscope.log` in the
 * data folder, written by the service and the desktop app's main process, rotated at
 * LOG_MAX_BYTES into LOG_KEPT older files. It never leaves the machine by itself.
 *
 * It must hold nothing private: what is written is the code's own messages (start, stop,
 * failures with their stacks), and every line passes `redactForLog` on the way, which
 * removes access tokens, secrets, sign-in codes, genotype calls next to their marker, and
 * the home folder's path (it carries the account name). Profile names and file contents
 * are never passed to it.
 */
import { appendFileSync, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { formatWithOptions } from 'node:util';

export const LOG_MAX_BYTES = 1024 * 1024;
export const LOG_KEPT = 3;
/** A longer message is cut: a log line is never a dump of a file or a request. */
const LINE_MAX_CHARS = 8000;

export type LogLevel = 'info' | 'warn' | 'error';

export interface LogFile {
  /** The current file, for "Show log file" and error messages. */
  path: string;
  write: (level: LogLevel, ...parts: unknown[]) => void;
}

/** Where the log of a data folder is. */
export function logFilePath(dataDir: string): string {
  return path.join(dataDir, 'logs', 'traitscope.log');
}

const HOME = homedir();

/** The line as it may be stored: no tokens, secrets, sign-in codes, genotype calls or home path. */
export function redactForLog(text: string): string {
  let out = text;
  if (HOME.length > 1) out = out.split(HOME).join('~');
  return (
    out
      // Bearer tokens, client secrets, sign-in codes, upload URL signatures: long runs of token characters.
      .replace(/(signin=|token=|secret=|signature=|sig=|code=)[^\s&"']+/gi, '$1[redacted]')
      .replace(/\b(Bearer|Basic)\s+\S+/gi, '$1 [redacted]')
      .replace(/[A-Za-z0-9_\-+]{32,}={0,2}/g, '[redacted]')
      // A marker followed by anything on its line may be a genotype call of the person's file.
      .replace(/\b((?:rs|i)\d{2,})\b[^\n]*/g, '$1 [rest of line redacted]')
  );
}

function rotate(file: string, kept: number): void {
  rmSync(`${file}.${kept}`, { force: true });
  for (let i = kept - 1; i >= 1; i--) if (existsSync(`${file}.${i}`)) renameSync(`${file}.${i}`, `${file}.${i + 1}`);
  renameSync(file, `${file}.1`);
}

/**
 * Opens (creating) the log of a data folder. Writing never throws: a full disk or a removed
 * folder must not break what the person is doing, so such a line is lost, and said so on stderr.
 */
export function openLogFile(
  dataDir: string,
  { maxBytes = LOG_MAX_BYTES, kept = LOG_KEPT }: { maxBytes?: number; kept?: number } = {},
): LogFile {
  const file = logFilePath(dataDir);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  let size = existsSync(file) ? statSync(file).size : 0;
  return {
    path: file,
    write(level, ...parts) {
      const message = redactForLog(formatWithOptions({ colors: false, depth: 4 }, ...parts)).slice(0, LINE_MAX_CHARS);
      const line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${message}\n`;
      try {
        if (size > 0 && size + Buffer.byteLength(line) > maxBytes) {
          rotate(file, kept);
          size = 0;
        }
        appendFileSync(file, line, { mode: 0o600 });
        size += Buffer.byteLength(line);
      } catch (err) {
        process.stderr.write(`[traitscope] could not write the log file ${file}: ${(err as Error).message}\n`);
      }
    },
  };
}

/**
 * Warnings and errors printed by any part of this process (the service's unexpected errors,
 * the worker pool, the desktop shell) also go to the log. Returns the undo.
 */
export function copyConsoleToLog(log: LogFile): () => void {
  const { warn, error } = console;
  console.warn = (...parts: unknown[]) => {
    warn(...parts);
    log.write('warn', ...parts);
  };
  console.error = (...parts: unknown[]) => {
    error(...parts);
    log.write('error', ...parts);
  };
  return () => {
    console.warn = warn;
    console.error = error;
  };
}
