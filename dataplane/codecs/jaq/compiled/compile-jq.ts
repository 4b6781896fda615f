// The entry to the jq → JavaScript compiler (decision 0028): parse, check the subset, build closures.
import type { CompileResult } from './compiled-program.js';

/** Compiles `source` when it lies entirely inside the subset (docs/codecs.md, "Compiled programs"). */
export function compileJq(source: string): CompileResult {
  void source;
  return { outside: 'the compiler is being built' };
}
