/**
 * A host's process starter (`startService({ startProcess })`, processing/engine-process.ts)
 * over child_process: the contract the desktop app fulfils with Electron's utilityProcess,
 * which cannot run in tests. `onStart` sees each entry and child as it is started.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { ProcessStarter, StartedProcess } from '../../src/service/processing/engine-process.js';
import { childEnv } from './server.js';

export function forkStarter(onStart: (entry: string, child: ChildProcess) => void): ProcessStarter {
  return (entry, { env, execArgv }) => {
    const child = fork(entry, [], { env: childEnv(env), execArgv, serialization: 'advanced' });
    onStart(entry, child);
    const started: StartedProcess = {
      send: (message) => void child.send(message),
      stop: () => child.disconnect(),
      kill: () => void child.kill('SIGKILL'),
      ref: () => undefined,
      unref: () => undefined,
      on: (event: string, listener: (...args: never[]) => void) => {
        child.on(event, listener as (...args: unknown[]) => void);
        return started;
      },
    };
    return started;
  };
}
