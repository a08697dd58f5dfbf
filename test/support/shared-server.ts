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
  const refuse = () => Promise.reject(new Error('The shared service is stopped by the global set-up, not by a test.'));
  return {
    ...info,
    output: () => '(the shared service’s output goes to the vitest main process)',
    stop: refuse,
    kill: refuse,
  };
}
