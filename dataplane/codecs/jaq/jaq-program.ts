// How a user's jq program is run: wrapped so that a batch of inputs keeps each input's outputs (or its
// error) apart, so `$ENV` and `env` show nothing of the process, and so compile errors point into the
// user's own text. The program starts on line 2 of every wrapper; line 1 holds the prelude.
//
//   batch:   prelude  def __sr_user:⏎<program>⏎;  .[] | try {ok: [__sr_user]} catch {error: .}
//   check:   prelude  def __sr_user:⏎<program>⏎;  empty | __sr_user        (compiles, never runs it)
//
// One line of output per input: `{"ok":[outputs…]}` or `{"error":<value>}`. A program that calls `halt`
// or `halt_error` ends the whole batch early; the caller sees fewer lines than inputs.

import { jsonKind } from '../json-kind.js';
import type { JsonValue } from '../json-value.js';

const PRELUDE = 'def env: {}; {} as $ENV | def __sr_user:\n';
const BODY_END = '\n;';

/** The program that runs a JSON array of inputs, one output line per input. */
export function batchProgram(program: string): string {
  return `${PRELUDE}${program}${BODY_END} .[] | try {ok: [__sr_user]} catch {error: .}`;
}

/** A program that jq compiles (finding every syntax error and undefined name) but never runs. */
export function checkProgram(program: string): string {
  return `${PRELUDE}${program}${BODY_END} empty | __sr_user`;
}

/**
 * jq's compile error (its stderr for exit status 3) in terms of the user's program: the first message,
 * with the line counted from the program's first line, e.g. `syntax error, unexpected '}' (line 2,
 * column 6)`. The program text is the user's own, so quoting jq's message is safe.
 */
export function compileProblem(stderr: string, program: string): string {
  const first = /^jq: error: (.*?)(?: at <top-level>, line (\d+), column (\d+):)?$/m.exec(stderr);
  if (first === null) return stderr.split('\n')[0]?.replace(/^jq: error: /, '') ?? 'jq failed';
  const [, message = '', line, column] = first;
  if (line === undefined) return message;
  const programLine = Number(line) - 1;
  const lines = program.split('\n').length;
  if (programLine < 1 || programLine > lines) return `${message} (at the end of the program)`;
  return `${message} (line ${programLine}, column ${column ?? '?'})`;
}

const MAX_REASON = 200;

/**
 * How jq's own error messages begin (src/jv.c, builtin.c, execute.c, builtin.jq of jq 1.8): a type error
 * names a type and the value in parentheses, the rest start with one of these words or name the builtin.
 * Text a program raises itself, or a builtin raises with a value as its message (`join`), matches none of
 * them and is not shown.
 */
const JQ_MESSAGE =
  /^(?:(?:null|boolean|number|string|array|object) \(|(?:Cannot|Invalid|Unfinished|Expected|Object|Objects|Range|Out of|Array|Regex|Path|Paths|Only|Exceeds|Unmatched|Truncated|Bad|Potentially) |date "|[a-z_][a-z0-9_]*(?:\(\)|\/\d+)? (?:requires|input must|argument|cannot|is not) )/;

/**
 * What the program raised, for a reason, without payload values. Only jq's own messages are shown, and
 * with the values they quote elided (`Cannot iterate over string (…)`); any other text — what a program
 * passes to `error` — may be built from the payload and is not shown. A non-string error value is named by
 * its type only. With SENSITIVE fields in the schema no message is shown at all.
 */
export function runtimeProblem(error: unknown, withhold: boolean): string {
  if (typeof error !== 'string') return `error(${jsonKind(error as JsonValue)})`;
  if (withhold) return 'an error (its message is withheld: the schema has SENSITIVE fields)';
  if (!JQ_MESSAGE.test(error))
    return 'error(a string) (not shown: text a program raises may hold payload values)';
  return `an error: ${elideValues(error)}`;
}

/** jq's message with every quoted string and parenthesised group (where jq puts values) elided. */
function elideValues(error: string): string {
  let text = error.replace(/"(?:[^"\\]|\\.)*"?/g, '"…"').replace(/'[^']*'?/g, "'…'");
  for (let previous = ''; previous !== text;) {
    previous = text;
    text = text.replace(/\([^()]+\)/g, '(…)');
  }
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON)}…` : text;
}
