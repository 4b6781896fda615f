// A deliberately quadratic parser, to check the hang limit (hang-limit.ts): with YAML's budget it is
// faster than the YAML reader on small inputs (~80 ms at 64 KiB, ~1.2 s per MiB) but takes ~20 s at
// 1 MiB, past its 11 s limit, so the runner must flag its big inputs as hangs. Not in `all`: `npm run fuzz -- --target toy-quadratic`.
import type { FuzzTarget } from '../target.js';

/** Work that grows with the square of the input: each byte looks back at every 32nd byte before it. */
export function quadraticWork(input: Uint8Array): { sum: number; steps: number } {
  let sum = 0;
  let steps = 0;
  for (let index = 0; index < input.length; index++) {
    for (let back = index % 32; back < index; back += 32) {
      sum = (sum + (input[back] ?? 0)) | 0;
      steps++;
    }
  }
  return { sum, steps };
}

export const target: FuzzTarget = {
  maxBytes: 1024 * 1024,
  msPerMiB: 10000,
  tokens: ['a', 'bb', 'ccc'],
  nests: [['[', ']']],
  seeds: () => [new Uint8Array(1024).fill(97)],
  run: (input) => quadraticWork(input).sum !== -1,
};
