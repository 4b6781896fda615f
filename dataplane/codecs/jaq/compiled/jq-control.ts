// `try` and the folds (`reduce`, `foreach`) as closures (jq-closures.ts compiles the rest).
import type { JsonValue } from '../../json-value.js';
import type { Ast } from './jq-ast.js';
import { generator, single, type Code, type Emit } from './jq-code.js';
import { Outside } from './jq-parser.js';
import { charge, JqError, NeedsEngine } from './jq-values.js';

/** Values bound by `as`, `reduce` and `foreach`, by slot (one program runs one input at a time). */
export type Variables = JsonValue[];

/** Errors from what follows a `try` pass through it: they are wrapped with the `try` they belong to. */
class Downstream {
  constructor(
    readonly error: JqError,
    readonly owner: object,
  ) {}
}

export function tryCode(body: Code, handler: Code | undefined, handlerReadsError: boolean): Code {
  const caught = (error: unknown, emit: Emit): void => {
    if (!(error instanceof JqError)) throw error;
    if (handler === undefined) return;
    if (!error.exact && handlerReadsError) throw new NeedsEngine('error_text');
    handler.gen(error.value, emit);
  };
  const one = body.single;
  if (one !== undefined)
    return generator((input, emit) => {
      let value: JsonValue;
      try {
        value = one(input);
      } catch (error: unknown) {
        caught(error, emit);
        return;
      }
      emit(value);
    });
  return generator((input, emit) => {
    const owner = {};
    try {
      body.gen(input, (value) => {
        try {
          emit(value);
        } catch (error: unknown) {
          throw error instanceof JqError ? new Downstream(error, owner) : error;
        }
      });
    } catch (error: unknown) {
      if (error instanceof Downstream && error.owner === owner) throw error.error;
      caught(error, emit);
    }
  });
}

/** Whether a `catch` handler's output depends on the error it is given (its input). */
export function readsInput(handler: Ast | undefined): boolean {
  if (handler === undefined) return false;
  switch (handler.kind) {
    case 'literal':
    case 'variable':
    case 'env':
      return false;
    case 'call':
      return !(
        handler.name === 'empty' ||
        (handler.name === 'error' && handler.args.length === 1 && !readsInput(handler.args[0]))
      );
    case 'comma':
    case 'alternative':
      return readsInput(handler.left) || readsInput(handler.right);
    case 'pipe':
      return readsInput(handler.left);
    default:
      return true;
  }
}

/** `reduce`: the update's last output is the new state; no output makes it null (jq 1.8). */
export function reduce(
  ast: Extract<Ast, { kind: 'reduce' }>,
  parts: { source: Code; init: Code; update: Code },
  vars: Variables,
): Code {
  const { source, init, update } = parts;
  const step = update.single;
  const fold = (input: JsonValue, start: JsonValue): JsonValue => {
    let state = start;
    source.gen(input, (value) => {
      charge(1);
      vars[ast.slot] = value;
      if (step !== undefined) state = step(state);
      else {
        let last: JsonValue = null;
        update.gen(state, (next) => {
          last = next;
        });
        state = last;
      }
    });
    return state;
  };
  const start = init.single;
  // jq 1.8 runs the source of every initial value after the first on null, not on the input: left to jq
  if (start === undefined) throw new Outside('`reduce` with an initial value of several outputs', ast.offset);
  return single((input) => fold(input, start(input)));
}

/** `foreach`: every output of the update is the state and is extracted. */
export function foreach(
  ast: Extract<Ast, { kind: 'foreach' }>,
  parts: { source: Code; init: Code; update: Code; extract: Code | undefined },
  vars: Variables,
): Code {
  const { source, init, update, extract } = parts;
  return generator((input, emit) =>
    init.gen(input, (start) => {
      let state = start;
      source.gen(input, (value) => {
        charge(1);
        vars[ast.slot] = value;
        let updated = false;
        update.gen(state, (next) => {
          updated = true;
          state = next;
          if (extract === undefined) emit(next);
          else extract.gen(next, emit);
        });
        if (!updated) state = null; // an update with no output leaves null, as in jq 1.8
      });
    }),
  );
}
