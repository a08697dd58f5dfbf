/**
 * Starts the service's large jobs in processes of their own (src/service/processing/
 * engine-process.ts) through Electron's utilityProcess: the packaged app's Electron may not
 * run as Node (the runAsNode fuse), so child_process.fork cannot. The child speaks over
 * `process.parentPort` (engine-worker.ts). Exercised by the packaged-app smoke test only:
 * the service's side of this contract is tested with a starter over child_process.
 */
import { utilityProcess } from 'electron';
import type { ProcessStarter, StartedProcess } from '../service/processing/engine-process.js';
import type { MessageToWorker, WorkerMessage } from '../service/processing/worker-protocol.js';

export const utilityProcessStarter: ProcessStarter = (entry, { env, execArgv }) => {
  const child = utilityProcess.fork(entry, [], {
    env: { ...process.env, ...env },
    execArgv,
    serviceName: 'Traitscope engine',
    stdio: 'inherit',
  });
  const stop: MessageToWorker = { stop: true };
  const started: StartedProcess = {
    send: (message) => child.postMessage(message),
    stop: () => child.postMessage(stop),
    kill: () => void child.kill(),
    // The app's lifetime is the main process's, not its children's.
    ref: () => undefined,
    unref: () => undefined,
    on: (event: string, listener: (...args: never[]) => void) => {
      if (event === 'message') child.on('message', listener as (message: WorkerMessage) => void);
      else if (event === 'exit') child.on('exit', (code) => (listener as (c: number, s: null) => void)(code, null));
      else child.on('error', () => undefined); // a fatal error is followed by 'exit'
      return started;
    },
  };
  return started;
};
