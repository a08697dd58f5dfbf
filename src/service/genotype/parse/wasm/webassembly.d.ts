/**
 * The part of Node's WebAssembly global that core.ts uses. TypeScript declares WebAssembly
 * only in its DOM library, which the Node layers leave out, and @types/node 20 lacks it.
 */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  class Global {
    value: unknown;
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
}
