/**
 * The erase a deletion owes (erase.ts), run off the event loop: a thread of its own
 * (erase-worker.ts) with its own SQLite connection does the VACUUM and the TRUNCATE
 * checkpoint, so neither their disk work nor a wait for another program's reader ever
 * stalls the service. A deletion's answer waits for the thread's verdict: erased, or still
 * blocked by another connection after a bounded wait (the thread then keeps trying every
 * second, and the next start finishes what a stop interrupted). The thread is started when an
 * erase is owed and ends once nothing is.
 */
import { Worker } from 'node:worker_threads';
import { unpackedModuleUrl } from '../packaged-paths.js';
import { ERASE_DELAYED } from './erase.js';

export interface EraseWorkerData {
  dbPath: string;
}

/** To the erase thread: erase what is owed, and answer request `id`. */
export interface EraseRequest {
  id: number;
}

/** From the erase thread: how its latest attempt went, for the requests it answers (`ids`). */
export interface EraseReply {
  ids: number[];
  state: EraseState;
  /** Why it failed ('failed'). */
  reason?: string;
}

/**
 * - erased: nothing of the deleted rows is left in the database files;
 * - blocked: another connection (a database browser, a backup tool) still reads an older
 *   state of the database after the bounded wait; erased once it lets go;
 * - failed: the erase raised an error (a full disk, a damaged file); tried again.
 */
type EraseState = 'erased' | 'blocked' | 'failed';

export interface EraseOutcome {
  erased: boolean;
  /** When not erased: what the answer to the deletion adds, in words. */
  unfinished?: string;
}

export interface Eraser {
  /** Erases what deletions owe; resolves once erased, or with why not yet (the erase goes on). */
  erase: () => Promise<EraseOutcome>;
  /** Stops the thread; an erase still owed is finished at the next start. */
  close: () => Promise<void>;
}

// The bundle's erase-worker.js beside this code (unpacked from app.asar in the desktop app);
// from TypeScript source, the development bootstrap outside the shipped sources.
const WORKER_URL = unpackedModuleUrl(
  import.meta.url.endsWith('.ts') ? '../../../scripts/dev/erase-worker.mjs' : './erase-worker.js',
  import.meta.url,
);

const failedNotice = (reason: string) =>
  `Traitscope could not yet erase the last traces of the deleted data from the data folder (${reason}); ` +
  'it tries again every second, and at its next start.';

function outcomeOf(reply: EraseReply): EraseOutcome {
  if (reply.state === 'erased') return { erased: true };
  if (reply.state === 'blocked') return { erased: false, unfinished: ERASE_DELAYED };
  return { erased: false, unfinished: failedNotice(reply.reason ?? 'unknown error') };
}

export function createEraser(workerData: EraseWorkerData): Eraser {
  let thread: Worker | null = null;
  let nextId = 1;
  /** Requests waiting for the thread's verdict, and the thread that has them. */
  const pending = new Map<number, { thread: Worker; resolve: (outcome: EraseOutcome) => void }>();
  let closed = false;

  function start(): Worker {
    const worker = new Worker(WORKER_URL, { workerData });
    let stopping = false;
    let lastError: Error | null = null;
    worker.on('message', (reply: EraseReply) => {
      for (const id of reply.ids) {
        pending.get(id)?.resolve(outcomeOf(reply));
        pending.delete(id);
      }
      // Nothing owed and nobody waiting: the thread and its connection go.
      if (reply.state === 'erased' && thread === worker && ![...pending.values()].some((p) => p.thread === worker)) {
        thread = null;
        stopping = true;
        void worker.terminate();
      }
    });
    worker.on('error', (err) => (lastError = err));
    worker.on('exit', (code) => {
      if (thread === worker) thread = null;
      if (stopping) return;
      const reason = lastError ? lastError.message : `the erase thread stopped with exit code ${code}`;
      for (const [id, p] of pending)
        if (p.thread === worker) {
          pending.delete(id);
          p.resolve({ erased: false, unfinished: failedNotice(reason) });
        }
    });
    // Retrying behind another program's reader must not keep a stopping process alive.
    worker.unref();
    return worker;
  }

  return {
    erase() {
      if (closed) return Promise.resolve({ erased: false, unfinished: failedNotice('Traitscope is stopping') });
      thread ??= start();
      const worker = thread;
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, { thread: worker, resolve });
        worker.postMessage({ id } satisfies EraseRequest);
      });
    },
    async close() {
      closed = true;
      const worker = thread;
      thread = null;
      if (worker) await worker.terminate();
    },
  };
}
