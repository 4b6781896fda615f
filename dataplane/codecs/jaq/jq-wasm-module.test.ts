import assert from 'node:assert/strict';
import { compileJqWasm, initialStackPointer, STACK_BYTES } from './jq-wasm-module.js';

describe('jq-wasm-module: where jq’s stack lies', () => {
  it('finds the stack guard near the far end of jq’s 1 MiB stack', async () => {
    const { guard } = await compileJqWasm();
    assert.ok(guard, 'the layout is the expected one');
    // jq-wasm 3.0.0: the stack pointer starts at 1449328, static data ends below 401 KiB.
    assert.equal(guard.from, 1449328 - STACK_BYTES + (16 << 10));
    assert.equal(guard.to - guard.from, 16 << 10);
    assert.equal(guard.from % 8, 0);
  });

  it('finds no stack pointer in a module without a mutable i32 global', () => {
    const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
    assert.equal(initialStackPointer(Uint8Array.from(header)), undefined);
    // A global section with one immutable i64 global.
    const immutable = [...header, 6, 6, 1, 0x7e, 0, 0x42, 0, 0x0b];
    assert.equal(initialStackPointer(Uint8Array.from(immutable)), undefined);
    const stack = [...header, 6, 9, 1, 0x7f, 1, 0x41, 0xf0, 0xba, 0xd8, 0x00, 0x0b]; // i32.const 1449328
    assert.equal(initialStackPointer(Uint8Array.from(stack)), 1449328);
  });
});
