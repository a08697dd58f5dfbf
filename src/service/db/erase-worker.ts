/**
 * Entry of the erase thread (eraser.ts): erases what deletions left in the database files
 * (erase.ts), on its own connection, so the service's event loop never waits for it. A
 * request is answered as soon as the erase is done, or once another connection has kept it
 * from finishing for ERASE_WAIT_MS (tried every WAIT_STEP_MS meanwhile); the erase is then
 * tried every RETRY_MS until it is done.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './database.js';
import { tryErase } from './erase.js';
import type { EraseReply, EraseRequest, EraseWorkerData } from './eraser.js';

/** How long a deletion's answer waits for another program's reader to let go. */
const ERASE_WAIT_MS = 2000;
/** Attempts while a deletion's answer waits. */
const WAIT_STEP_MS = 50;
/** Attempts while nobody waits (the reader may stay open for hours). */
const RETRY_MS = 1000;

const { dbPath } = workerData as EraseWorkerData;
const db = openDatabase(dbPath);
// This connection writes only the erase marker; checkpoints are its whole purpose and explicit.
db.pragma('wal_autocheckpoint = 0');
const port = parentPort!;

/** Requests waiting for an answer, with the moment their wait for other connections ends. */
const waiting = new Map<number, number>();
let timer: NodeJS.Timeout | undefined;

function schedule(ms: number): void {
  clearTimeout(timer);
  timer = setTimeout(attempt, ms);
}

function attempt(): void {
  timer = undefined;
  let reply: Omit<EraseReply, 'ids'>;
  try {
    reply = { state: tryErase(db) ? 'erased' : 'blocked' };
  } catch (err) {
    reply = { state: 'failed', reason: err instanceof Error ? err.message : String(err) };
  }
  const now = performance.now();
  const ids = [...waiting].filter(([, until]) => reply.state !== 'blocked' || now >= until).map(([id]) => id);
  for (const id of ids) waiting.delete(id);
  if (ids.length > 0 || reply.state === 'erased') port.postMessage({ ids, ...reply } satisfies EraseReply);
  if (reply.state !== 'erased') schedule(waiting.size > 0 ? WAIT_STEP_MS : RETRY_MS);
}

port.on('message', (request: EraseRequest) => {
  waiting.set(request.id, performance.now() + ERASE_WAIT_MS);
  schedule(0);
});
