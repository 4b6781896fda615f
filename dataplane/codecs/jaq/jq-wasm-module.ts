// jq's WebAssembly module, compiled once per process and handed to every compile-check thread (a thread
// then only instantiates it), with where jq's stack lies in its memory. jq-wasm builds jq with a stack
// of STACK_BYTES below the initial stack pointer (the module's first global) and nothing checks it: the
// check threads watch the far end of it (check-worker.js).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** jq-wasm 3.0.0 (jq 1.8.2) links jq with a 1 MiB stack; jq-wasm-module.test.ts and compile-check.test.ts check it. */
export const STACK_BYTES = 1 << 20;
/** The guard: this many bytes, starting GUARD_OFFSET above the far end of the stack. */
const GUARD_OFFSET = 16 << 10;
const GUARD_BYTES = 16 << 10;

/**
 * A compiled WebAssembly.Module, opaque here: it is only handed to the threads. The build's TypeScript libs
 * (ES2023 and Node's types) do not declare the WebAssembly namespace, so neither this file nor the build
 * may name it.
 */
export type WasmModule = object;

/** WebAssembly's API as Node has it. */
const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } })
  .WebAssembly;

export interface JqWasmModule {
  module: WasmModule;
  /** Bytes of jq's memory a call must leave untouched; undefined when the layout is not the expected one. */
  guard: { from: number; to: number } | undefined;
}

export async function compileJqWasm(): Promise<JqWasmModule> {
  const main = createRequire(import.meta.url).resolve('jq-wasm');
  const bytes = await readFile(join(dirname(main), 'build', 'jq.wasm'));
  const module = await wasm.compile(bytes);
  const top = initialStackPointer(bytes);
  if (top === undefined || top <= STACK_BYTES) return { module, guard: undefined };
  const from = Math.ceil((top - STACK_BYTES + GUARD_OFFSET) / 8) * 8; // read as 64-bit words
  return { module, guard: { from, to: from + GUARD_BYTES } };
}

/** The initial value of the module's first global when it is a mutable i32 (the stack pointer). */
export function initialStackPointer(bytes: Uint8Array): number | undefined {
  let at = 8; // magic and version
  const u32 = (): number => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0 || shift > 28) return value;
    }
  };
  while (at < bytes.length) {
    const section = bytes[at++];
    const size = u32();
    if (section === 6) {
      if (u32() === 0) return undefined;
      const [type, mutable, opcode] = [bytes[at], bytes[at + 1], bytes[at + 2]];
      if (type !== 0x7f || mutable !== 1 || opcode !== 0x41) return undefined; // i32, mut, i32.const
      at += 3;
      return u32(); // a signed LEB128 in the format; a stack pointer is positive and below 2^31
    }
    at += size;
  }
  return undefined;
}
