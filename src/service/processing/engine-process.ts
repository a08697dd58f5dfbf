/**
 * An engine worker in a child process of its own, for a parse too large to leave in the
 * service's process: when the process exits, everything the parse took goes back to the
 * system, including what the C allocator would otherwise keep (glibc holds freed buffers
 * in its arenas, and Node cannot ask it to give them back). The same entry as the worker
 * threads (engine-worker.js) runs it; it speaks the same messages over the IPC channel.
 *
 * It has the part of a Worker's interface the pool uses (pool.ts), so a slot can hold
 * either. Who starts the process is the host's: by default (forkStarter) the executable
 * running the service, Node for `serve` and the CLI. The desktop app's packaged Electron
 * refuses to run as Node (the runAsNode fuse): its main process passes a starter built on
 * Electron's utilityProcess (src/main/engine-process-starter.ts), whose child speaks over
 * `process.parentPort` instead of the IPC channel (engine-worker.ts).
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

/** A process started for the engine worker's entry, as the service uses it. */
export interface StartedProcess {
  /** Delivered in order; the child only listens once it has said it is ready. */
  send: (message: MessageToWorker) => void;
  /** Asks it to close its database and exit (it is killed if it has not within a few seconds). */
  stop: () => void;
  kill: () => void;
  /** Whether it keeps the service's event loop alive (no-ops where the host decides that). */
  ref: () => void;
  unref: () => void;
  on: ((event: 'message', listener: (message: WorkerMessage) => void) => unknown) &
    /** `signal`: what stopped it, where known (SIGABRT: V8 aborted it, its heap limit reached). */
    ((event: 'exit', listener: (code: number | null, signal: string | null) => void) => unknown) &
    /** It could not be started; 'exit' may not follow. */
    ((event: 'error', listener: (error: Error) => void) => unknown);
}

/**
 * Starts `entry` (a file path) as a process of its own with these environment variables
 * and runtime flags, its messages structured-cloned (typed arrays cross as they do between
 * threads). The service never imports a host's API: the desktop app injects its starter.
 */
export type ProcessStarter = (
  entry: string,
  options: { env: Record<string, string>; execArgv: string[] },
) => StartedProcess;

/**
 * The service's environment for an engine process, without NODE_EXTRA_CA_CERTS: an engine
 * makes no network connections, and Node parses the bundle it names at every start (about
 * 0.05-0.1 s of CPU for a system's whole bundle), before the process can take its job.
 */
function engineEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const all: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete all.NODE_EXTRA_CA_CERTS;
  return all;
}

/** Node's child_process.fork with an IPC channel: `serve`, the CLI. */
const forkStarter: ProcessStarter = (entry, { env, execArgv }) => {
  const child: ChildProcess = fork(entry, [], {
    env: engineEnv(env),
    execArgv,
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const started: StartedProcess = {
    send: (message) => {
      if (child.connected) child.send(message);
    },
    // The child closes its database and exits when the channel closes (engine-worker.ts).
    stop: () => (child.connected ? child.disconnect() : child.kill('SIGKILL')),
    kill: () => child.kill('SIGKILL'),
    ref: () => {
      child.ref();
      child.channel?.ref();
    },
    unref: () => {
      child.unref();
      child.channel?.unref();
    },
    on: (event: string, listener: (...args: never[]) => void) => {
      if (event === 'error')
        child.on('error', (err) => {
          (listener as (e: Error) => void)(err);
          // It never started: no 'exit' follows.
          if (child.pid === undefined) child.emit('exit', null, null);
        });
      else child.on(event, listener as (...args: unknown[]) => void);
      return started;
    },
  };
  return started;
};

export function startEngineProcess(
  entry: URL,
  workerData: unknown,
  options: { heapMb?: number; starter?: ProcessStarter } = {},
): EngineRunner {
  const events = new EventEmitter();
  const child = (options.starter ?? forkStarter)(fileURLToPath(entry), {
    env: { [ENGINE_PROCESS_DATA]: JSON.stringify(workerData) },
    // Not the service's own flags (a debugger's, tsx's): the heap limit a worker thread
    // has, and the collector, which a large parse calls once done (process-job.ts).
    execArgv: [...(options.heapMb ? [`--max-old-space-size=${options.heapMb}`] : []), '--expose-gc'],
  });
  // Messages wait until the child listens: one sent before its modules have loaded would be lost.
  let ready = false;
  let exitedYet = false;
  const waiting: MessageToWorker[] = [];
  let resolveExited!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (resolveExited = resolve));
  child.on('exit', (code, signal) => {
    if (exitedYet) return;
    exitedYet = true;
    // V8 aborts a process whose heap limit is reached: reported as a worker thread's would be.
    if (signal === 'SIGABRT')
      events.emit('error', Object.assign(new Error('out of memory'), { code: 'ERR_WORKER_OUT_OF_MEMORY' }));
    else if (signal) events.emit('error', new Error(`the process was stopped (${signal})`));
    events.emit('exit', code ?? 1);
    resolveExited(code ?? 1);
  });
  child.on('error', (err) => events.emit('error', err));
  child.on('message', (message: WorkerMessage) => {
    if (message.type === 'ready' && !ready) {
      ready = true;
      for (const m of waiting.splice(0)) child.send(m);
    }
    events.emit('message', message);
  });

  const runner: EngineRunner = {
    postMessage(message) {
      if (ready) child.send(message);
      else waiting.push(message);
    },
    /** Asks the process to stop (it closes its database and exits); killed if it has not within a few seconds. */
    terminate() {
      if (!exitedYet) {
        child.stop();
        const timer = setTimeout(() => child.kill(), STOP_GRACE_MS);
        timer.unref();
        void exited.then(() => clearTimeout(timer));
      }
      return exited;
    },
    ref: () => child.ref(),
    unref: () => child.unref(),
    on(event: string, listener: (arg: never) => void) {
      events.on(event, listener as (arg: unknown) => void);
      return runner;
    },
  };
  return runner;
}
