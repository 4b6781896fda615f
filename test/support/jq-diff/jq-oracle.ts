// jq 1.8 (jq-wasm, in this thread) as the reference of the compiled path: a program runs on a batch of
// input texts exactly as the product's engine runs it (jaq-program.ts batchProgram: `$ENV` and `env` are
// `{}`, each input's outputs or the value it raised on one line), and each line is read back with
// parseJsonValue, as the product reads jq's output.
import { createRequire } from 'node:module';
import type { Jq } from 'jq-wasm';
import { parseJsonValue, type JsonValue } from '../../../dataplane/codecs/json-value.js';
import { batchProgram } from '../../../dataplane/codecs/jaq/jaq-program.js';

export type JqOutcome =
  | { outputs: JsonValue[] }
  | { raised: JsonValue }
  /** jq does not parse the input text (a lone high surrogate): the product's jq path fails the batch. */
  | { rejected: string }
  /** jq could not run the batch (it ran out of memory, or printed what is not one line per input). */
  | { broken: string };

export interface JqBatch {
  /** jq refused the program: a syntax error, an unknown builtin. */
  compileError?: string;
  outcomes: JqOutcome[];
}

// jq-wasm is CommonJS with an ESM entry that the test loader resolves differently: require keeps one copy.
const { loadJq } = createRequire(import.meta.url)('jq-wasm') as typeof import('jq-wasm');

export class JqOracle {
  readonly #jq: Jq;

  private constructor(jq: Jq) {
    this.#jq = jq;
  }

  static async load(): Promise<JqOracle> {
    return new JqOracle(await loadJq());
  }

  /** The jq version the answers come from (jq-1.8.2). */
  get version(): string {
    return this.#jq.version;
  }

  /** Runs `program` on every input text; one outcome per input. */
  run(program: string, inputs: readonly string[]): JqBatch {
    const wrapped = batchProgram(program);
    const batch = this.#raw(`[${inputs.join(',')}]`, wrapped);
    if (batch.exitCode === 3) return { compileError: batch.stderr.trim(), outcomes: [] };
    const lines = batch.stdout.split('\n').filter((line) => line !== '');
    const outcomes =
      batch.exitCode === 0 && lines.length === inputs.length
        ? lines.map(readLine)
        : inputs.map((input) => this.#one(wrapped, input));
    return { outcomes };
  }

  /** One input alone: what the batch could not say (which input jq refused, or where it broke). */
  #one(wrapped: string, input: string): JqOutcome {
    const { exitCode, stdout, stderr } = this.#raw(`[${input}]`, wrapped);
    const lines = stdout.split('\n').filter((line) => line !== '');
    if (exitCode === 2 || /parse error/.test(stderr)) return { rejected: stderr.trim() };
    if (exitCode !== 0 || lines.length !== 1) return { broken: `exit ${exitCode}: ${stderr.trim()}` };
    return readLine(lines[0] ?? '');
  }

  #raw(input: string, program: string): { exitCode: number; stdout: string; stderr: string } {
    try {
      return this.#jq.raw(input, program, ['-c']);
    } catch (error: unknown) {
      return { exitCode: -1, stdout: '', stderr: error instanceof Error ? error.message : String(error) };
    }
  }
}

/** `{"ok":[…]}` or `{"error":…}`, read as the product reads jq's output. */
function readLine(line: string): JqOutcome {
  const value = parseJsonValue(line);
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    if (Array.isArray(value.ok)) return { outputs: value.ok };
    if ('error' in value) return { raised: value.error };
  }
  return { broken: `unexpected line ${line.slice(0, 200)}` };
}
