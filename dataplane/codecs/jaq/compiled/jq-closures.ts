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
import { VALUE_BUILTINS } from './jq-builtins.js';
import { generator, iterate, map1, single, withArguments, type Code, type Fn } from './jq-code.js';
import { foreach, readsInput, reduce, tryCode, type Variables } from './jq-control.js';
import { specialBuiltin } from './jq-generators.js';
import { negate, OPERATORS } from './jq-operators.js';
import { field, indexCode, iterateOptional, sliceCode } from './jq-paths.js';
import { charge, failure, setOwn, toText, truthy } from './jq-values.js';

export type { Variables };

export function compile(ast: Ast, vars: Variables): Code {
  switch (ast.kind) {
    case 'identity':
      return single((input) => input);
    case 'recurse': // `..` is `recurse`
      return specialBuiltin('recurse', []) as Code;
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
      return sliceCode(
        compile(ast.target, vars),
        ast.from && compile(ast.from, vars),
        ast.to && compile(ast.to, vars),
        ast.optional === true,
      );
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
    case 'reduce': {
      const [source, init, update] = [ast.source, ast.init, ast.update].map((part) => compile(part, vars));
      return reduce(ast, { source: source as Code, init: init as Code, update: update as Code }, vars);
    }
    case 'foreach': {
      const [source, init, update] = [ast.source, ast.init, ast.update].map((part) => compile(part, vars));
      const extract = ast.extract && compile(ast.extract, vars);
      return foreach(
        ast,
        { source: source as Code, init: init as Code, update: update as Code, extract },
        vars,
      );
    }
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

function pipe(left: Code, right: Code): Code {
  const [first, then] = [left.single, right.single];
  if (first !== undefined && then !== undefined) return single((input) => then(first(input)));
  if (first !== undefined) return generator((input, emit) => right.gen(first(input), emit));
  return generator((input, emit) => left.gen(input, (value) => right.gen(value, emit)));
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
