/**
 * A fixed set of persistent worker threads. Each worker sets itself up once (its engine on
 * the first task that needs one) and then runs tasks, one at a time, sent as messages
 * (buffers are transferred, not copied).
 * A worker that crashes, runs out of memory or passes the time limit is replaced by a new
 * one, and only the task it was running fails, with a sentence saying what happened.
 * A worker whose task was marked with retireAfter() is replaced once the task has ended, so
 * the memory that task grew (a WebAssembly memory cannot shrink) goes back to the system.
 * A task run with `ownProcess` runs in a child process of its own instead of the slot's
 * thread (engine-process.ts): everything it took goes back when that process exits, and a
 * new thread takes the slot after it. A task for a process that the end of the previous one
 * queued at once (the scoring after a parse) runs in the same process before it goes.
 * With `spareProcess`, one such process is started ahead of need (once every thread is
 * ready, and again after the process that took it has exited) and loads its engine while
 * idle: the next large task starts on it at once instead of waiting for Node, the bundle and
 * an engine to load.
 *
 * The pool only executes: which task runs next (per-profile order, priorities, the queue
 * bound) is decided by the processor, which hands a task over when a worker is idle.
 */
import { Worker, type ResourceLimits, type Transferable } from 'node:worker_threads';
import { startEngineProcess, type EngineRunner, type ProcessStarter } from './engine-process.js';
import type { MessageToWorker, WorkerMessage } from './worker-protocol.js';

export class TaskFailedError extends Error {}

export interface PoolOptions {
  size: number;
  workerUrl: URL;
  /** Passed to every worker as workerData. */
  workerData: unknown;
  /** A task running longer is stopped (its worker is replaced) and fails. */
  taskTimeoutMs: number;
  resourceLimits?: ResourceLimits;
  /** Called whenever a worker becomes free for a task. */
  onIdle: () => void;
  /** Keep one process started ahead of need for the next `ownProcess` task (default false). */
  spareProcess?: boolean;
  /** Starts the processes of `ownProcess` tasks (default: child_process.fork, engine-process.ts). */
  startProcess?: ProcessStarter;
}

export interface WorkerPool {
  readonly size: number;
  /** Workers free for a task now. */
  idleCount: () => number;
  /**
   * Runs a task on an idle worker. Throws when none is idle: check idleCount() first.
   * `ownProcess`: in a child process started for it, in place of the idle thread (stopped
   * now, replaced once the process has exited); buffers are then copied, not transferred.
   */
  run: <T>(
    task: unknown,
    transfer?: readonly Transferable[],
    onProgress?: (progress: unknown) => void,
    options?: { ownProcess?: boolean },
  ) => Promise<T>;
  /** Sends a message to the running task `task` (the object given to run); nothing if it has ended. */
  tell: (task: unknown, message: unknown) => void;
  /** Replaces the worker running `task` (the object given to run) once the task has ended (`retire` false: keeps it after all). */
  retireAfter: (task: unknown, retire?: boolean) => void;
  /**
   * Workers that have started and said they are ready, how many were replaced after a crash,
   * how many were retired, how many processes ran tasks (ownProcess), how many of those had
   * been started ahead of need, and whether a spare process is ready now.
   */
  stats: () => {
    size: number;
    ready: number;
    busy: number;
    replaced: number;
    recycled: number;
    processes: number;
    spares: number;
    spareReady: boolean;
  };
  /** Resolves when every worker has said it is ready (for start-up measurements and tests). */
  whenReady: () => Promise<void>;
  /** Stops every worker; running tasks fail. */
  close: () => Promise<void>;
}

interface Slot {
  worker: EngineRunner;
  /** A child process running one task (ownProcess), not a thread. */
  process: boolean;
  ready: boolean;
  task: RunningTask | null;
  /** Replace this worker when its task ends. */
  retire: boolean;
  /** Stopping after its task, to be replaced once its thread has exited: takes no task. */
  retiring: boolean;
}

interface RunningTask {
  id: number;
  payload: unknown;
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  onProgress?: (progress: unknown) => void;
  timer: NodeJS.Timeout | undefined;
}

/** After this many workers in a row die before they are ready, stop replacing them. */
const MAX_FAILED_STARTS = 3;

export function createWorkerPool(options: PoolOptions): WorkerPool {
  const slots: Slot[] = [];
  let nextTaskId = 1;
  let replaced = 0;
  let recycled = 0;
  let processes = 0;
  let sparesTaken = 0;
  /** A process started ahead of need (spareProcess), in no slot until a task takes it. */
  let spare: Slot | null = null;
  let failedStarts = 0;
  let brokenReason: string | null = null;
  /** Set when a process could not be started: large tasks run on threads from then on. */
  let processesUnavailable = false;
  let closed = false;
  const readyWaiters: Array<() => void> = [];

  function start(inProcess = false): Slot {
    const worker: EngineRunner = inProcess
      ? startEngineProcess(options.workerUrl, options.workerData, {
          heapMb: options.resourceLimits?.maxOldGenerationSizeMb,
          starter: options.startProcess,
        })
      : new Worker(options.workerUrl, { workerData: options.workerData, resourceLimits: options.resourceLimits });
    // A process runs one task and goes: everything it took is returned when it exits.
    const slot: Slot = { worker, process: inProcess, ready: false, task: null, retire: inProcess, retiring: false };
    worker.on('message', (msg: WorkerMessage) => onMessage(slot, msg));
    // 'error' (an uncaught exception, running out of memory) is followed by 'exit'.
    let lastError: Error | null = null;
    worker.on('error', (err) => (lastError = err));
    worker.on('exit', (code) => onExit(slot, code, lastError));
    // An idle worker must not keep the process alive (CLI commands end when their work does).
    worker.unref();
    return slot;
  }

  /** The time limit counts from when a ready worker has the task (not its start-up). */
  function startClock(slot: Slot, task: RunningTask): void {
    task.timer = setTimeout(() => timeOut(slot, task), options.taskTimeoutMs);
    task.timer.unref();
  }

  /**
   * Starts the spare process when there is none and no task's process runs: after the
   * threads (it never slows the service's start) and never beside a large task (its engine
   * would be held beside the one the task's process holds).
   */
  function startSpare(): void {
    if (!options.spareProcess || spare || closed || brokenReason || processesUnavailable) return;
    if (slots.some((s) => s.process || !s.ready)) return;
    spare = start(true);
  }

  function onMessage(slot: Slot, msg: WorkerMessage): void {
    if (msg.type === 'ready') {
      slot.ready = true;
      failedStarts = 0;
      if (slot.task) startClock(slot, slot.task);
      if (slots.every((s) => s.ready)) {
        readyWaiters.splice(0).forEach((w) => w());
        startSpare();
      }
      return;
    }
    const task = slot.task;
    if (!task || task.id !== msg.id) return;
    if (msg.type === 'progress') {
      task.onProgress?.(msg.progress);
      return;
    }
    finish(slot, task);
    if (msg.type === 'result') task.resolve(msg.result);
    else task.reject(new TaskFailedError(msg.message));
  }

  function finish(slot: Slot, task: RunningTask): void {
    clearTimeout(task.timer);
    slot.task = null;
    slot.worker.unref();
    if (closed) return;
    if (slot.process) {
      // Kept until the jobs that this task's end queues have been handed out (microtasks,
      // before the check): the scoring that follows a parse runs in the same process, on the
      // genotype it holds, instead of loading it in a new one. Then it goes.
      queueMicrotask(options.onIdle);
      setImmediate(() => {
        if (!slot.task && !slot.retiring && slots.includes(slot)) retire(slot);
      });
      return;
    }
    if (slot.retire) retire(slot);
    else queueMicrotask(options.onIdle);
  }

  function retire(slot: Slot): void {
    // Its replacement starts once the thread has exited (onExit): by then its heap and
    // WebAssembly memory are unmapped, and the new thread reuses the malloc arena the old
    // one freed its buffers into, instead of growing a fresh one beside it. A process's
    // replacement is a thread again.
    slot.retiring = true;
    slot.ready = false;
    if (!slot.process) recycled++;
    void slot.worker.terminate();
  }

  function onExit(slot: Slot, code: number, error: Error | null): void {
    if (slot === spare) {
      // Gone while idle: one that had started is started again; one that never did waits for
      // the next large task's process to end (no loop of failing starts).
      spare = null;
      if (slot.ready) startSpare();
      return;
    }
    const i = slots.indexOf(slot);
    if (i < 0) return; // already replaced (time-out)
    if (slot.process && !slot.ready && !slot.retiring && !closed) {
      startThreadInstead(slot, i, error ?? new Error(`exit code ${code}`));
      return;
    }
    if (slot.retiring) {
      if (closed) return;
      slots[i] = start();
      queueMicrotask(options.onIdle); // the next spare starts once this thread is ready
      return;
    }
    const task = slot.task;
    if (task) {
      clearTimeout(task.timer);
      slot.task = null;
      task.reject(new TaskFailedError(crashReason(code, error)));
    }
    if (closed) return;
    if (!slot.ready && ++failedStarts >= MAX_FAILED_STARTS) {
      brokenReason = `The background workers of Traitscope cannot start (${error?.message ?? `exit code ${code}`}). Reinstall Traitscope, or report this.`;
      console.error(`[traitscope] ${brokenReason}`);
      slots.splice(i, 1);
      readyWaiters.splice(0).forEach((w) => w());
      return;
    }
    replaced++;
    slots[i] = start();
    queueMicrotask(options.onIdle);
  }

  /**
   * A process that ended before it was ready: the host cannot start one (say, a packaged app
   * whose utilityProcess fails). Large tasks run on threads from now on, as before processes
   * existed (their memory is then kept until the thread is replaced), and this one goes to a
   * thread at once instead of failing.
   */
  function startThreadInstead(slot: Slot, i: number, error: Error): void {
    if (!processesUnavailable)
      console.error(
        `[traitscope] a process for large jobs could not start (${error.message}); large jobs run on threads instead`,
      );
    processesUnavailable = true;
    const thread = start();
    slots[i] = thread;
    const task = slot.task;
    slot.task = null;
    if (!task) {
      queueMicrotask(options.onIdle);
      return;
    }
    // Sent to the process by copy (run), so its buffers are still here to send again.
    thread.task = task;
    thread.worker.ref();
    post(thread, { id: task.id, task: task.payload });
  }

  function timeOut(slot: Slot, task: RunningTask): void {
    // Replace first, so the exit of the stopped worker is not taken for a crash.
    const i = slots.indexOf(slot);
    if (i >= 0) slots[i] = start();
    replaced++;
    slot.task = null;
    void slot.worker.terminate();
    const limit =
      options.taskTimeoutMs >= 120_000
        ? `${Math.round(options.taskTimeoutMs / 60_000)} minutes`
        : `${options.taskTimeoutMs / 1000} seconds`;
    task.reject(
      new TaskFailedError(
        `The job took longer than ${limit} and was stopped. If it was a file, check that it is a genotype raw-data file.`,
      ),
    );
    queueMicrotask(options.onIdle);
  }

  function post(slot: Slot, message: MessageToWorker, transfer: readonly Transferable[] = []): void {
    if (slot.worker instanceof Worker) slot.worker.postMessage(message, transfer as Transferable[]);
    else slot.worker.postMessage(message);
  }

  for (let i = 0; i < options.size; i++) slots.push(start());

  return {
    size: options.size,
    idleCount: () => (brokenReason ? 1 : slots.filter((s) => !s.task && !s.retiring).length),
    run<T>(
      task: unknown,
      transfer: readonly Transferable[] = [],
      onProgress?: (progress: unknown) => void,
      runOptions: { ownProcess?: boolean } = {},
    ): Promise<T> {
      if (closed) return Promise.reject(new TaskFailedError('Traitscope is shutting down; the job was not started.'));
      if (brokenReason) return Promise.reject(new TaskFailedError(brokenReason));
      // A task for a process of its own takes an idle one if there is one (it holds the genotype
      // it just parsed); other tasks take a thread first.
      const idle = slots.filter((s) => !s.task && !s.retiring);
      let slot = idle.find((s) => s.process === !!runOptions.ownProcess) ?? idle[0];
      if (!slot) throw new Error('No idle worker: check idleCount() before run()');
      if (runOptions.ownProcess && !slot.process && !processesUnavailable) {
        // The idle thread goes now (its exit is not a crash: the slot is no longer listed),
        // so its engine is not held beside the process's.
        const thread = slot;
        const warm = spare;
        spare = null;
        if (warm) sparesTaken++;
        slot = warm ?? start(true);
        slots[slots.indexOf(thread)] = slot;
        processes++;
        void thread.worker.terminate();
      }
      const runOn = slot;
      return new Promise<T>((resolve, reject) => {
        const running: RunningTask = {
          id: nextTaskId++,
          payload: task,
          resolve: resolve as (value: unknown) => void,
          reject,
          onProgress,
          timer: undefined,
        };
        if (runOn.ready) startClock(runOn, running);
        runOn.task = running;
        runOn.worker.ref(); // a running task keeps the process alive
        post(runOn, { id: running.id, task }, runOn.process ? [] : transfer);
      });
    },
    tell(task, message) {
      const slot = slots.find((s) => s.task?.payload === task);
      if (slot) post(slot, { id: slot.task!.id, message });
    },
    retireAfter(task, retire = true) {
      const slot = slots.find((s) => s.task?.payload === task);
      if (slot && !slot.process) slot.retire = retire;
    },
    stats: () => ({
      size: options.size,
      ready: slots.filter((s) => s.ready).length,
      busy: slots.filter((s) => s.task).length,
      replaced,
      recycled,
      processes,
      spares: sparesTaken,
      spareReady: spare?.ready ?? false,
    }),
    whenReady: () =>
      slots.every((s) => s.ready) || brokenReason ? Promise.resolve() : new Promise((r) => readyWaiters.push(r)),
    async close() {
      closed = true;
      await Promise.all([...slots, ...(spare ? [spare] : [])].map((s) => s.worker.terminate()));
    },
  };
}

function crashReason(code: number, error: Error | null): string {
  if (error && 'code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return 'This job needed more memory than Traitscope allows. If it was a file, check that it is a genotype raw-data file, not a whole-genome sequence.';
  }
  const what = error ? `internal error: ${error.message}` : `exit code ${code}`;
  return `The background worker running this job stopped unexpectedly (${what}); it has been restarted. Try again, and report this if it happens again.`;
}
