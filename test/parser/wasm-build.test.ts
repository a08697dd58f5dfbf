/**
 * The committed WebAssembly core (core-wasm.ts) must be exactly what core.c compiles to,
 * so nobody ships a binary that differs from its reviewed source. The bytes are compared
 * with what the pinned clang (PINNED_CLANG in scripts/build-wasm.ts) produces: another
 * clang release emits other, equally valid bytes, so on a machine without the pinned one
 * (Windows and macOS runners) the check is skipped and the skip says why. The desktop
 * workflow installs the pinned clang on Linux, where the check runs.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { committedWasm, compileCore, PINNED_CLANG, pinnedToolchain } from '../../scripts/build-wasm.js';

const toolchain = pinnedToolchain();
const committed = readFileSync(new URL('../../src/service/genotype/parse/wasm/core-wasm.ts', import.meta.url), 'utf8');

describe('the WebAssembly core', () => {
  it('carries a WebAssembly module of the size its header states', () => {
    const wasm = committedWasm(committed);
    expect(wasm.subarray(0, 4)).toEqual(Buffer.from([0x00, 0x61, 0x73, 0x6d]));
    expect(committed).toContain(`// ${wasm.length} bytes of WebAssembly, base64.`);
  });

  it.skipIf(!toolchain.clang)(
    `is what core.c compiles to with clang ${PINNED_CLANG} (npm run build:wasm)${toolchain.clang ? '' : ` — skipped: ${toolchain.reason}`}`,
    () => {
      expect(compileCore(toolchain.clang!).equals(committedWasm(committed))).toBe(true);
    },
  );
});
