import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Background work yields to the service's event loop: on Linux a thread has its own nice
 * value, so a worker thread drops to `nice` (5 by default, config.ts) and API requests are
 * answered first when the two compete for a core. Elsewhere threads share their process's
 * priority; nothing to do.
 */
export function lowerThisThreadsPriority(nice: number): void {
  if (process.platform !== 'linux' || nice <= 0) return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0 && tid !== process.pid) setPriority(tid, nice);
  } catch {
    // /proc not mounted or not permitted: run at normal priority.
  }
}

/**
 * The same for a worker in a process of its own (engine-process.ts): the process drops to
 * `nice`, on every system (Windows maps it to a priority class).
 */
export function lowerThisProcessPriority(nice: number): void {
  if (nice <= 0) return;
  try {
    setPriority(nice);
  } catch {
    // Not permitted: run at normal priority.
  }
}
