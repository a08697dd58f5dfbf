/**
 * The service shared by the test files of project `shared` (started by its global set-up,
 * test/support/shared-service.ts), as a TestServer. The set-up stops it, so stop() and
 * kill() refuse: a file that must stop or crash a service starts its own.
 */
import { inject } from 'vitest';
import type { TestServer } from './server.js';
import type {} from './shared-service.js'; // declares what inject('sharedService') returns

export function sharedServer(): TestServer {
  const info = inject('sharedService');
  if (!info) throw new Error('No shared service: this file must run in vitest project `shared` (vitest.config.ts).');
  const { startOutput, ...server } = info;
  const refuse = () => Promise.reject(new Error('The shared service is stopped by the global set-up, not by a test.'));
  return {
    ...server,
    // What it printed at start-up; later output stays in the vitest main process.
    output: () => startOutput,
    stop: refuse,
    kill: refuse,
  };
}
