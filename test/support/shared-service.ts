/**
 * Vitest global set-up of project `shared`: one real service (`serve --port 0` from the
 * bundle, on a fresh data folder) for the test files that need a plain service and nothing
 * of their own, so they do not each start one (about 2 s of CPU: the process, the
 * database, and the engine its worker loads). Each file makes its own clients and profiles
 * on it, so files stay independent of one another; a file that needs its own configuration,
 * restarts the service, counts service-wide things (clients, the queue, diagnostics) or
 * changes them (custom traits, rate limits) starts its own with startServer.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startServer, type TestServer } from './server.js';

/** What a test file gets of the shared service (serializable: it crosses into the workers). */
export type SharedServiceInfo = Pick<TestServer, 'origin' | 'api' | 'port' | 'dataDir' | 'appToken' | 'pid'> & {
  /** What the service printed when it started (its address and one-time sign-in link). */
  startOutput: string;
};

declare module 'vitest' {
  export interface ProvidedContext {
    sharedService: SharedServiceInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Wrong client secrets are answered after 10 ms steps, not 100 (TRAITSCOPE_AUTH_FAILURE_DELAY_MS):
  // the files here check the refusals (the token endpoint's property test sends many); the
  // delays themselves are checked on a service of its own in test/security/token-guessing.test.ts.
  const server = await startServer({ env: { TRAITSCOPE_AUTH_FAILURE_DELAY_MS: '10' } });
  const { origin, api, port, dataDir, appToken, pid } = server;
  project.provide('sharedService', { origin, api, port, dataDir, appToken, pid, startOutput: server.output() });
  return async () => {
    recordCpu(server.pid);
    await server.stop();
  };
}

/**
 * With TRAITSCOPE_TEST_CPU set (test/support/cpu-per-file.ts), adds two rows beside the
 * files': the shared service's CPU seconds (all its threads and ended child processes: the
 * work every file using it caused) and vitest's main process's (transforms, reporters, this set-up) up to now.
 */
function recordCpu(servicePid: number): void {
  const output = process.env.TRAITSCOPE_TEST_CPU;
  if (!output) return;
  // utime, stime, cutime, cstime (its own and its ended engine processes') are the 12th to
  // 15th fields after the command name, in clock ticks (100 a second).
  const fields = readFileSync(`/proc/${servicePid}/stat`, 'utf8').split(') ')[1].split(' ');
  const service = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
  const main = process.cpuUsage();
  const vitestMain = (main.user + main.system) / 1e6;
  const row = (name: string, s: number) => [name, s.toFixed(2), s.toFixed(2), '0.00', ''].join('\t') + '\n';
  appendFileSync(output, row('(shared service)', service) + row('(vitest main process)', vitestMain));
}
