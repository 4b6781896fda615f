// Whether a jq program compiles, answered synchronously (the whole-graph compiler is synchronous): one jq
// instance on the calling thread. It is loaded on demand, not at import (about 10 ms and ~9 MB that a
// graph without JAQ programs, and the data plane, never need): whoever compiles JAQ programs awaits
// `loadJaqCheck()` first (the compiler's `prepareCompile` does). The program is compiled inside the same
// wrapper the engine runs it in, so what passes here runs there, and it is never run: a program that
// would loop forever is checked as quickly as any other.
import { loadJq, type Jq } from 'jq-wasm';
import { checkProgram, compileProblem } from './jaq-program.js';

let jq: Jq | undefined;
let loading: Promise<Jq> | undefined;

/** Loads the jq instance of the check, once; later calls resolve at once. */
export async function loadJaqCheck(): Promise<void> {
  loading ??= loadJq();
  jq = await loading;
}

/** jq's compile error for the program, located in the program's own lines; undefined when it compiles. */
export function jaqCompileProblem(program: string): string | undefined {
  if (jq === undefined) throw new Error('the JAQ compile check is not loaded: await loadJaqCheck() first');
  const { exitCode, stderr } = jq.raw(null, checkProgram(program), ['-n']);
  return exitCode === 0 ? undefined : compileProblem(stderr, program);
}
