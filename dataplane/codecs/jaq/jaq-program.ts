// How a user's jq program is run: wrapped so that a batch of inputs keeps each input's outputs (or its
// error) apart, so `$ENV` and `env` show nothing of the process, and so compile errors point into the
// user's own text. The program starts on line 2 of every wrapper; line 1 holds the prelude.
//
//   batch:   prelude  def __sr_user:⏎<program>⏎;  .[] | try {ok: [__sr_user]} catch {error: .}
//   check:   prelude  def __sr_user:⏎<program>⏎;  empty | __sr_user        (compiles, never runs it)
//
// One line of output per input: `{"ok":[outputs…]}` or `{"error":<value>}`. A program that calls `halt`
// or `halt_error` ends the whole batch early; the caller sees fewer lines than inputs.

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
