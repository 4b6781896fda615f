// A jq tree (jq-ast.ts) as JavaScript closures. A generator is `(input, emit) => void`: it calls `emit` once
// per output, in jq's order, and builds no arrays of outputs; an error is thrown (JqError) and unwinds the
// generators until a `try` takes it. An expression that always has exactly one output is also kept as a
// plain function (`single`), which is how most of a routing program runs: `.a.b`, `{k: .v}`, `x + 1`.
//
// Order of outputs, as jq 1.8: a binary operator's right side is the outer loop (`[(1,2)+(10,20)]` is
// [11,12,21,22]); `and`/`or`, an object's entries and a string's interpolations, left to right outside in
// as jq does (entries: first outer; interpolations: last outer).
import type { JsonObject, JsonValue } from '../../json-value.js';
import type { Ast } from './jq-ast.js';
import { VALUE_BUILTINS, index, slice } from './jq-builtins.js';
import { specialBuiltin } from './jq-generators.js';
import { negate, OPERATORS } from './jq-operators.js';
import { Outside } from './jq-parser.js';
import { charge, failure, JqError, NeedsEngine, setOwn, toText, truthy } from './jq-values.js';
import { generator, iterate, single, withArguments, type Code, type Emit, type Fn } from './jq-code.js';

/** Values bound by `as`, `reduce` and `foreach`, by slot (one program runs one input at a time). */
export type Variables = JsonValue[];

export function compile(ast: Ast, vars: Variables): Code {
  switch (ast.kind) {
    case 'identity':
      return single((input) => input);
    case 'recurse':
      return generator(recurseAll);
    case 'literal': {
      const value = ast.value;
      return single(() => value);
    }
    case 'env':
      return single(() => ({}));
    case 'variable': {
      const slot = ast.slot;
      return single(() => vars[slot] as JsonValue);
    }
    case 'string':
      return interpolation(ast.parts.map((part) => (typeof part === 'string' ? part : compile(part, vars))));
    case 'index':
      if (ast.optional === true) return indexCode(compile(ast.target, vars), compile(ast.key, vars), true);
      if (ast.key.kind === 'literal' && typeof ast.key.value === 'string')
        return field(compile(ast.target, vars), ast.key.value);
      return indexCode(compile(ast.target, vars), compile(ast.key, vars), false);
    case 'slice':
      return sliceCode(ast, vars);
    case 'iterate': {
      const target = compile(ast.target, vars);
      const each = ast.optional === true ? iterateOptional : iterate;
      const fn = target.single;
      if (fn !== undefined) return generator((input, emit) => each(fn(input), emit));
      return generator((input, emit) => target.gen(input, (value) => each(value, emit)));
    }
    case 'try':
      return tryCode(
        compile(ast.body, vars),
        ast.handler && compile(ast.handler, vars),
        readsInput(ast.handler),
      );
    case 'array':
      return arrayCode(ast.body && compile(ast.body, vars));
    case 'object':
      return objectCode(
        ast.entries.map(({ key, value }) => ({ key: compile(key, vars), value: compile(value, vars) })),
      );
    case 'pipe':
      return pipe(compile(ast.left, vars), compile(ast.right, vars));
    case 'comma': {
      const left = compile(ast.left, vars).gen;
      const right = compile(ast.right, vars).gen;
      return generator((input, emit) => {
        left(input, emit);
        right(input, emit);
      });
    }
    case 'alternative':
      return alternative(compile(ast.left, vars), compile(ast.right, vars));
    case 'and':
    case 'or':
      return logical(ast.kind, compile(ast.left, vars), compile(ast.right, vars));
    case 'binary':
      return binary(OPERATORS[ast.operator], compile(ast.left, vars), compile(ast.right, vars));
    case 'negate':
      return map1(compile(ast.operand, vars), negate);
    case 'if':
      return ifCode(
        compile(ast.condition, vars),
        compile(ast.then, vars),
        ast.otherwise && compile(ast.otherwise, vars),
      );
    case 'bind':
      return bind(compile(ast.source, vars), ast.slot, compile(ast.body, vars), vars);
    case 'reduce':
      return reduce(ast, vars);
    case 'foreach':
      return foreach(ast, vars);
    case 'call': {
      const args = ast.args.map((arg) => compile(arg, vars));
      const special = specialBuiltin(ast.name, args);
      if (special !== undefined) return special;
      const fn = VALUE_BUILTINS[`${ast.name}/${args.length}`];
      if (fn === undefined) throw new Error(`no builtin ${ast.name}/${args.length}`); // the parser checked
      return withArguments(args, fn);
    }
  }
}

/** `..`: the input, then everything inside it, depth first. */
function recurseAll(input: JsonValue, emit: Emit): void {
  emit(input);
  if (input !== null && typeof input === 'object') iterate(input, (value) => recurseAll(value, emit));
}

function map1(operand: Code, fn: (value: JsonValue) => JsonValue): Code {
  const one = operand.single;
  if (one !== undefined) return single((input) => fn(one(input)));
  return generator((input, emit) => operand.gen(input, (value) => emit(fn(value))));
}

function pipe(left: Code, right: Code): Code {
  const [first, then] = [left.single, right.single];
  if (first !== undefined && then !== undefined) return single((input) => then(first(input)));
  if (first !== undefined) return generator((input, emit) => right.gen(first(input), emit));
  return generator((input, emit) => left.gen(input, (value) => right.gen(value, emit)));
}

/** `.name`: the commonest step of a program. */
function field(target: Code, name: string): Code {
  const read = (value: JsonValue): JsonValue =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.hasOwn(value, name)
        ? (value[name] as JsonValue)
        : null
      : index(value, name);
  return map1(target, read);
}

/** `.[k]`; optional (`.[k]?`): a value that cannot be indexed so gives no output. */
function indexCode(target: Code, key: Code, optional: boolean): Code {
  const [of, by] = [target.single, key.single];
  if (of !== undefined && by !== undefined && !optional)
    return single((input) => {
      const name = by(input);
      return index(of(input), name);
    });
  const step = optional
    ? optionalStep(index)
    : (value: JsonValue, name: JsonValue, emit: Emit) => emit(index(value, name));
  // the key is the outer loop (jq's gen_index: the key's subexpression runs first)
  return generator((input, emit) =>
    key.gen(input, (name) => target.gen(input, (value) => step(value, name, emit))),
  );
}

/** A step whose failure is no output (jq's INDEX_OPT); what follows it may still fail. */
function optionalStep(
  operation: (value: JsonValue, ...args: JsonValue[]) => JsonValue,
): (value: JsonValue, arg: JsonValue, emit: Emit, more?: JsonValue) => void {
  return (value, arg, emit, more) => {
    let result: JsonValue;
    try {
      result = more === undefined ? operation(value, arg) : operation(value, arg, more);
    } catch (error: unknown) {
      if (error instanceof JqError) return;
      throw error;
    }
    emit(result);
  };
}

/** `.[]?`: no outputs from a value that is not an array or object (jq's EACH_OPT). */
function iterateOptional(value: JsonValue, emit: Emit): void {
  if (value !== null && typeof value === 'object') iterate(value, emit);
}

function sliceCode(ast: Extract<Ast, { kind: 'slice' }>, vars: Variables): Code {
  const none: Code = single(() => null);
  const target = compile(ast.target, vars);
  const from = ast.from === undefined ? none : compile(ast.from, vars);
  const to = ast.to === undefined ? none : compile(ast.to, vars);
  const cut = (value: JsonValue, start: JsonValue, end: JsonValue, emit: Emit): void => {
    if (ast.optional === true) optionalSlice(value, start, emit, end);
    else emit(slice(value, start, end));
  };
  // `from` is the outer loop, as in jq
  return generator((input, emit) =>
    from.gen(input, (start) =>
      to.gen(input, (end) => target.gen(input, (value) => cut(value, start, end, emit))),
    ),
  );
}

const optionalSlice = optionalStep(slice);

/** Errors from what follows a `try` pass through it: they are wrapped with the `try` they belong to. */
class Downstream {
  constructor(
    readonly error: JqError,
    readonly owner: object,
  ) {}
}

function tryCode(body: Code, handler: Code | undefined, handlerReadsError: boolean): Code {
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
function readsInput(handler: Ast | undefined): boolean {
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

function arrayCode(body: Code | undefined): Code {
  if (body === undefined) return single(() => []);
  const one = body.single;
  if (one !== undefined) return single((input) => [one(input)]);
  return single((input) => {
    const items: JsonValue[] = [];
    body.gen(input, (value) => {
      charge(1);
      items.push(value);
    });
    return items;
  });
}

function objectCode(entries: { key: Code; value: Code }[]): Code {
  const keyOf = (key: JsonValue): string => {
    if (typeof key !== 'string')
      throw failure(key === null ? 'Cannot use null (null) as object key' : 'Object keys must be strings');
    return key;
  };
  if (entries.every(({ key, value }) => key.single !== undefined && value.single !== undefined)) {
    const fns = entries.map(({ key, value }) => ({ key: key.single as Fn, value: value.single as Fn }));
    return single((input) => {
      const object: JsonObject = {};
      for (const entry of fns) setOwn(object, keyOf(entry.key(input)), entry.value(input));
      return object;
    });
  }
  return generator((input, emit) => {
    const chosen: [string, JsonValue][] = [];
    const next = (at: number): void => {
      const entry = entries[at];
      if (entry === undefined) {
        const object: JsonObject = {};
        for (const [key, value] of chosen) setOwn(object, key, value);
        emit(object);
        return;
      }
      entry.key.gen(input, (key) => {
        const name = keyOf(key);
        entry.value.gen(input, (value) => {
          chosen[at] = [name, value];
          next(at + 1);
        });
      });
    };
    next(0);
  });
}

/** `"a\(x)b\(y)"`: the last interpolation is the outer loop. */
function interpolation(parts: (string | Code)[]): Code {
  if (parts.every((part) => typeof part === 'string' || part.single !== undefined)) {
    const fns = parts.map((part) => (typeof part === 'string' ? part : (part.single as Fn)));
    // jq evaluates the last interpolation first (it decides which error is raised)
    return single((input) => {
      let text = '';
      for (let at = fns.length - 1; at >= 0; at -= 1) {
        const part = fns[at] as string | Fn;
        text = (typeof part === 'string' ? part : toText(part(input))) + text;
      }
      return text;
    });
  }
  return generator((input, emit) => {
    const before = (at: number, tail: string): void => {
      if (at < 0) {
        emit(tail);
        return;
      }
      const part = parts[at] as string | Code;
      if (typeof part === 'string') before(at - 1, part + tail);
      else part.gen(input, (value) => before(at - 1, toText(value) + tail));
    };
    before(parts.length - 1, '');
  });
}

function alternative(left: Code, right: Code): Code {
  const [first, second] = [left.single, right.single];
  if (first !== undefined && second !== undefined)
    return single((input) => {
      const value = first(input);
      return truthy(value) ? value : second(input);
    });
  return generator((input, emit) => {
    let found = false;
    left.gen(input, (value) => {
      if (!truthy(value)) return;
      found = true;
      emit(value);
    });
    if (!found) right.gen(input, emit);
  });
}

function logical(kind: 'and' | 'or', left: Code, right: Code): Code {
  const decided = kind === 'or'; // the left value that decides without the right side
  const [first, second] = [left.single, right.single];
  if (first !== undefined && second !== undefined)
    return single((input) => (truthy(first(input)) === decided ? decided : truthy(second(input))));
  return generator((input, emit) =>
    left.gen(input, (value) => {
      if (truthy(value) === decided) emit(decided);
      else right.gen(input, (other) => emit(truthy(other)));
    }),
  );
}

function binary(operator: (left: JsonValue, right: JsonValue) => JsonValue, left: Code, right: Code): Code {
  const [first, second] = [left.single, right.single];
  if (first !== undefined && second !== undefined)
    return single((input) => {
      const rightValue = second(input);
      return operator(first(input), rightValue);
    });
  return generator((input, emit) =>
    right.gen(input, (rightValue) => left.gen(input, (leftValue) => emit(operator(leftValue, rightValue)))),
  );
}

function ifCode(condition: Code, then: Code, otherwise: Code | undefined): Code {
  const [test, yes, no] = [
    condition.single,
    then.single,
    otherwise === undefined ? (input: JsonValue) => input : otherwise.single,
  ];
  if (test !== undefined && yes !== undefined && no !== undefined)
    return single((input) => (truthy(test(input)) ? yes(input) : no(input)));
  return generator((input, emit) =>
    condition.gen(input, (value) => {
      if (truthy(value)) then.gen(input, emit);
      else if (otherwise !== undefined) otherwise.gen(input, emit);
      else emit(input);
    }),
  );
}

function bind(source: Code, slot: number, body: Code, vars: Variables): Code {
  const [value, then] = [source.single, body.single];
  if (value !== undefined && then !== undefined)
    return single((input) => {
      vars[slot] = value(input);
      return then(input);
    });
  return generator((input, emit) =>
    source.gen(input, (bound) => {
      vars[slot] = bound;
      body.gen(input, emit);
    }),
  );
}

/** `reduce`: the update's last output is the new state; no output makes it null (jq 1.8). */
function reduce(ast: Extract<Ast, { kind: 'reduce' }>, vars: Variables): Code {
  const source = compile(ast.source, vars);
  const init = compile(ast.init, vars);
  const update = compile(ast.update, vars);
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
function foreach(ast: Extract<Ast, { kind: 'foreach' }>, vars: Variables): Code {
  const source = compile(ast.source, vars);
  const init = compile(ast.init, vars);
  const update = compile(ast.update, vars);
  const extract = ast.extract && compile(ast.extract, vars);
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
