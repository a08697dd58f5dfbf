/**
 * The messages between the worker pool (pool.ts) and an engine worker (engine-worker.ts),
 * whether it runs as a thread or as a process of its own (engine-process.ts).
 */

/** Messages from a worker. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'progress'; id: number; progress: unknown }
  | { type: 'result'; id: number; result: unknown }
  | { type: 'error'; id: number; message: string };

/**
 * Messages to a worker: a task to run, or a message for the task it is running; a worker in
 * a process of its own that has no IPC channel to close (Electron's utilityProcess) is told
 * to stop.
 */
export type MessageToWorker = { id: number; task: unknown } | { id: number; message: unknown } | { stop: true };
