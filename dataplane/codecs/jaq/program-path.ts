// Which engine runs a JAQ program (decision 0028): one entirely inside the compiled subset runs as
// JavaScript closures on the event loop; any other on jq-wasm's worker threads, as before. The choice is
// made once per program text and is the same on every node, in the CLI and in the operator.
import type { GraphCodec } from '../../graph/types.js';
import type { CompileResult } from './compiled/compiled-program.js';
import { compileJq } from './compiled/compile-jq.js';

/** Programs compiled so far; beyond this many the cache starts again (reloads replace programs). */
const KEPT_PROGRAMS = 256;
const compiled = new Map<string, CompileResult>();

/** The program compiled, or why it is outside the subset; the same object for the same text. */
export function compiledProgram(program: string): CompileResult {
  let result = compiled.get(program);
  if (result === undefined) {
    if (compiled.size >= KEPT_PROGRAMS) compiled.clear();
    result = compileJq(program);
    compiled.set(program, result);
  }
  return result;
}

/** How a program runs, in words for DESCRIBE and SHOW CREATE. */
export function programPath(program: string): string {
  const result = compiledProgram(program);
  return 'compiled' in result
    ? 'compiled to JavaScript'
    : `jq-wasm: ${result.outside} is outside the compiled subset`;
}

/** The paths of a codec's JAQ programs, or undefined for a codec without any. */
export function codecProgramPaths(
  codec: GraphCodec | undefined,
): { ingestion: string; emitting?: string } | undefined {
  if (codec === undefined || (codec.kind !== 'jaq' && codec.kind !== 'protobuf')) return undefined;
  const paths: { ingestion: string; emitting?: string } = { ingestion: programPath(codec.ingestion) };
  if (codec.emitting !== undefined) paths.emitting = programPath(codec.emitting);
  return paths;
}

/** Records each engine gave, and the inputs of compiled programs that only jq could answer. */
export interface ProgramPathStats {
  compiledRecords: number;
  engineRecords: number;
  compiledFallbacks: number;
}

export const programPathStats: ProgramPathStats = {
  compiledRecords: 0,
  engineRecords: 0,
  compiledFallbacks: 0,
};
