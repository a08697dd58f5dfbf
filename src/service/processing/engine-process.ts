/**
 * An engine worker in a child process of its own, for a parse too large to leave in the
 * service's process: when the process exits, everything the parse took goes back to the
 * system, including what the C allocator would otherwise keep (glibc holds freed buffers
 * in its arenas, and Node cannot ask it to give them back). The same entry as the worker
 * threads (engine-worker.js) runs it; it speaks the same messages over the IPC channel.
 *
 * It has the part of a Worker's interface the pool uses (pool.ts), so a slot can hold
 * either. The child is the executable running the service: Node for `serve` and the CLI.
 * The desktop app does not use it (processor.ts): its packaged Electron refuses to run as
 * Node (the runAsNode fuse), and Electron's utilityProcess would need the host to start it.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { MessageToWorker, WorkerMessage } from './worker-protocol.js';

/** The environment variable through which the child receives its workerData (JSON). */
export const ENGINE_PROCESS_DATA = 'TRAITSCOPE_ENGINE_PROCESS_DATA';
/** How long a process told to stop may take to close its database before it is killed. */
const STOP_GRACE_MS = 5_000;

/** What the pool uses of a worker thread, and an engine process provides too. */
export interface EngineRunner {
  postMessage: (message: MessageToWorker) => void;
  terminate: () => Promise<unknown>;
  ref: () => void;
  unref: () => void;
  on: ((event: 'message', listener: (message: WorkerMessage) => void) => unknown) &
    ((event: 'error', listener: (error: Error) => void) => unknown) &
    ((event: 'exit', listener: (code: number) => void) => unknown);
}

export function startEngineProcess(entry: URL, workerData: unknown, options: { heapMb?: number } = {}): EngineRunner {
  const events = new EventEmitter();
  const child: ChildProcess = fork(fileURLToPath(entry), [], {
    env: { ...process.env, [ENGINE_PROCESS_DATA]: JSON.stringify(workerData) },
    // Not the service's own flags (a debugger's, tsx's): the heap limit a worker thread
    // has, and the collector, which a large parse calls once done (process-job.ts).
    execArgv: [...(options.heapMb ? [`--max-old-space-size=${options.heapMb}`] : []), '--expose-gc'],
    // Typed arrays and errors cross as they do between threads (structured clone), not as JSON.
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  // Messages wait until the child listens: one sent before its modules have loaded would be lost.
  let ready = false;
  const waiting: MessageToWorker[] = [];
  let resolveExited!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (resolveExited = resolve));
  let ended = false;
  const end = (code: number) => {
    if (ended) return;
    ended = true;
    events.emit('exit', code);
    resolveExited(code);
  };
  child.once('exit', (code, signal) => {
    // V8 aborts a process whose heap limit is reached: reported as a worker thread's would be.
    if (signal === 'SIGABRT')
      events.emit('error', Object.assign(new Error('out of memory'), { code: 'ERR_WORKER_OUT_OF_MEMORY' }));
    else if (signal) events.emit('error', new Error(`the process was stopped (${signal})`));
    end(code ?? 1);
  });
  child.on('error', (err) => {
    events.emit('error', err);
    if (child.pid === undefined) end(1); // it never started: no 'exit' follows
  });
  child.on('message', (message: WorkerMessage) => {
    if (message.type === 'ready' && !ready) {
      ready = true;
      for (const m of waiting.splice(0)) child.send(m);
    }
    events.emit('message', message);
  });

  const runner: EngineRunner = {
    postMessage(message) {
      if (ready && child.connected) child.send(message);
      else if (!ready) waiting.push(message);
    },
    /** Asks the process to stop (it closes its database and exits); killed if it has not within a few seconds. */
    terminate() {
      if (child.exitCode === null && child.signalCode === null) {
        if (child.connected) child.disconnect();
        else child.kill('SIGKILL');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
        timer.unref();
        void exited.then(() => clearTimeout(timer));
      }
      return exited;
    },
    ref() {
      child.ref();
      child.channel?.ref();
    },
    unref() {
      child.unref();
      child.channel?.unref();
    },
    on(event: string, listener: (arg: never) => void) {
      events.on(event, listener as (arg: unknown) => void);
      return runner;
    },
  };
  return runner;
}
