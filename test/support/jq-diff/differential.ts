// The differential check of one program on a batch of inputs: the compiled path (compileJq) against jq 1.8
// (jq-oracle.ts). Outputs must be equal as parseJsonValue reads jq's printed output (a bigint is not a
// number, -0 is not 0, key order counts); errors must be of the same jqErrorKind, and equal when the value
// raised is not one of jq's own messages. Programs outside the subset and `engine` answers are counted,
// not compared; so are inputs jq refuses to parse.
import type {
  CompiledProgram,
  CompileResult,
} from '../../../dataplane/codecs/jaq/compiled/compiled-program.js';
import { jsonFormat } from '../../../dataplane/codecs/formats/json-format.js';
import { escapesHighSurrogateText } from '../../../dataplane/codecs/jaq/jaq-codec.js';
import { jqErrorKind } from '../../../dataplane/codecs/jaq/jq-error-kind.js';
import type { JsonValue } from '../../../dataplane/codecs/json-value.js';
import type { GeneratedInput } from './input-arbitrary.js';
import type { JqOracle, JqOutcome } from './jq-oracle.js';

const encoder = new TextEncoder();

export class Tally {
  programs = 0;
  outside = 0;
  jqCompileErrors = 0;
  cases = 0;
  compared = 0;
  engine = 0;
  /**
   * Inputs not built to need jq (no odd number text, no lone surrogate) on which jq gives outputs, and how
   * many of them the compiled path still sends to jq. (When jq raises, its message often quotes a value in
   * jq's own printing, and `engine` is the compiled path's fair answer: counted in engineOnErrors.)
   */
  plainInputs = 0;
  engineOnPlainInputs = 0;
  engineOnErrors = 0;
  raising = 0;
  /** Cases where jq gives outputs, and how many of them the compiled path answered itself. */
  withOutputs = 0;
  comparedWithOutputs = 0;
  jqRejected = 0;
  jqBroken = 0;
  outsideReasons = new Map<string, number>();
  engineReasons = new Map<string, number>();

  summary(): string {
    const share = (n: number, of: number): string => `${of === 0 ? 0 : Math.round((100 * n) / of)}%`;
    return [
      `${this.programs} programs, ${share(this.programs - this.outside, this.programs)} compiled`,
      `${this.cases} cases, ${this.compared} compared (${share(this.comparedWithOutputs, this.withOutputs)} of those jq answers with outputs), ${this.engine} engine: ${share(this.engineOnPlainInputs, this.plainInputs)} of plain inputs with outputs, ${share(this.engineOnErrors, this.raising)} of errors`,
      `jq: ${this.jqCompileErrors} compile errors, ${this.jqRejected} inputs refused, ${this.jqBroken} broken`,
      `engine: ${[...this.engineReasons].map(([reason, n]) => `${reason} ${n}`).join(', ')}`,
    ].join('; ');
  }
}

export interface Mismatch {
  program: string;
  input: string;
  compiled: string;
  jq: string;
}

export interface Harness {
  compile: (source: string) => CompileResult;
  oracle: JqOracle;
  tally: Tally;
}

/** Compiles `program` and runs it on every input both ways; the first difference, or undefined. */
export function differential(
  { compile, oracle, tally }: Harness,
  program: string,
  inputs: readonly GeneratedInput[],
): Mismatch | undefined {
  tally.programs++;
  const result = compile(program);
  if ('outside' in result) {
    tally.outside++;
    const reason = result.outside.replace(/ \(line \d+, column \d+\)$/, '').slice(0, 80);
    tally.outsideReasons.set(reason, (tally.outsideReasons.get(reason) ?? 0) + 1);
    return undefined;
  }
  const jq = oracle.run(
    program,
    inputs.map((input) => input.text),
  );
  if (jq.compileError !== undefined) {
    // the product's compile check refuses the program before any engine runs it (jq folds constants:
    // `{([]): 1}` is a compile error there)
    tally.jqCompileErrors++;
    return undefined;
  }
  for (const [at, input] of inputs.entries()) {
    const answer = jq.outcomes[at] ?? { broken: 'no outcome' };
    const mismatch = compareOne(result.compiled, input, answer, tally);
    if (mismatch !== undefined) return { program, input: input.text, ...mismatch };
  }
  return undefined;
}

function compareOne(
  compiled: CompiledProgram,
  input: GeneratedInput,
  jq: JqOutcome,
  tally: Tally,
): { compiled: string; jq: string } | undefined {
  tally.cases++;
  const plain = !input.numberText && !input.loneSurrogate && 'outputs' in jq;
  if (plain) tally.plainInputs++;
  if ('raised' in jq) tally.raising++;
  if ('outputs' in jq) tally.withOutputs++;
  // the input as the product gives it to a compiled program: the JSON format's values read
  const read = jsonFormat.readValues(encoder.encode(input.text));
  if ('error' in read || escapesHighSurrogateText(input.text)) {
    tally.engine++; // the product reads it as text and runs it on jq-wasm
    return undefined;
  }
  let outcome;
  try {
    outcome = compiled.run(read.values[0] ?? null, {
      inputText: read.texts?.[0],
    });
  } catch (error: unknown) {
    return {
      compiled: `threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      jq: show(jq),
    };
  }
  if ('engine' in outcome) {
    tally.engine++;
    tally.engineReasons.set(outcome.engine, (tally.engineReasons.get(outcome.engine) ?? 0) + 1);
    if (plain) tally.engineOnPlainInputs++;
    if ('raised' in jq) tally.engineOnErrors++;
    return undefined;
  }
  if ('rejected' in jq || 'broken' in jq) {
    if ('rejected' in jq) tally.jqRejected++;
    else tally.jqBroken++;
    return undefined;
  }
  tally.compared++;
  if ('outputs' in jq) tally.comparedWithOutputs++;
  if (agree(outcome, jq)) return undefined;
  return { compiled: show(outcome), jq: show(jq) };
}

function agree(compiled: { outputs: JsonValue[] } | { raised: JsonValue }, jq: JqOutcome): boolean {
  if ('outputs' in compiled) return 'outputs' in jq && sameValue(compiled.outputs, jq.outputs);
  if (!('raised' in jq)) return false;
  const kind = jqErrorKind(jq.raised);
  if (jqErrorKind(compiled.raised) !== kind) return false;
  return kind === 'error_text' || kind === 'error_value' ? sameValue(compiled.raised, jq.raised) : true;
}

/** Equal as values the product passes on: same types (bigint ≠ number), -0 ≠ 0, same key order. */
export function sameValue(a: JsonValue | JsonValue[], b: JsonValue | JsonValue[]): boolean {
  if (typeof a !== typeof b) return false;
  if (typeof a === 'number') return Object.is(a, b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, at) => sameValue(item, b[at] as JsonValue));
  }
  const keys = Object.keys(a);
  const other = Object.keys(b);
  if (keys.length !== other.length || keys.some((key, at) => key !== other[at])) return false;
  return keys.every((key) => sameValue(a[key] as JsonValue, b[key] as JsonValue));
}

/** An outcome as text for a report: values as JSON text, bigints and numbers told apart. */
export function show(outcome: JqOutcome | { outputs: JsonValue[] } | { raised: JsonValue }): string {
  if ('outputs' in outcome) return `outputs ${outcome.outputs.map(showValue).join(' , ') || '(none)'}`;
  if ('raised' in outcome) return `raised ${showValue(outcome.raised)} (${jqErrorKind(outcome.raised)})`;
  return 'rejected' in outcome ? `rejected ${outcome.rejected}` : `broken ${outcome.broken}`;
}

/** JSON text, except that a bigint ends in n, -0 is -0 and an integer-valued double says so. */
function showValue(value: JsonValue): string {
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'number') {
    if (Object.is(value, -0)) return '-0';
    const double = Number.isInteger(value) && !Number.isSafeInteger(value);
    return double || !Number.isFinite(value) ? `${String(value)} (double)` : String(value);
  }
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(showValue).join(',')}]`;
  return `{${Object.keys(value)
    .map((key) => `${JSON.stringify(key)}:${showValue(value[key] as JsonValue)}`)
    .join(',')}}`;
}

/** A mismatch as a report: the program, the input, and both answers. */
export function describeMismatch(mismatch: Mismatch): string {
  return [
    `program: ${mismatch.program}`,
    `input:   ${mismatch.input}`,
    `compiled ${mismatch.compiled}`,
    `jq 1.8   ${mismatch.jq}`,
  ].join('\n');
}
