/**
 * The committed WebAssembly core (core-wasm.ts) must be exactly what core.c compiles to,
 * so nobody ships a binary that differs from its reviewed source. Needs clang and lld
 * (CI installs them); without them the check cannot run and says so.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileCore, generatedModule } from '../../scripts/build-wasm.js';

function hasToolchain(): boolean {
  try {
    execFileSync('clang', ['--version'], { stdio: 'ignore' });
    execFileSync('wasm-ld', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('the WebAssembly core', () => {
  it.runIf(hasToolchain())('is what core.c compiles to (npm run build:wasm)', () => {
    const committed = readFileSync(
      new URL('../../src/service/genotype/parse/wasm/core-wasm.ts', import.meta.url),
      'utf8',
    );
    expect(generatedModule(compileCore())).toBe(committed);
  });
});
