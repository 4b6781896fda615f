// Whether a jq program compiles, answered synchronously (the whole-graph compiler is synchronous): one jq
// instance on the calling thread, loaded when this module is first imported (about 10 ms). The program is
// compiled inside the same wrapper the engine runs it in, so what passes here runs there, and it is
// never run: a program that would loop forever is checked as quickly as any other.
import { loadJq } from 'jq-wasm';
import { checkProgram, compileProblem } from './jaq-program.js';

const jq = await loadJq();

/** jq's compile error for the program, located in the program's own lines; undefined when it compiles. */
export function jaqCompileProblem(program: string): string | undefined {
  const { exitCode, stderr } = jq.raw(null, checkProgram(program), ['-n']);
  return exitCode === 0 ? undefined : compileProblem(stderr, program);
}
