// The builtins of the compiled subset that take generators, each as jq 1.8's src/builtin.jq defines it
// (quoted), written as closures: `empty`, `error`, `select`, `map`, the type filters, `range`, `first`,
// `limit`, `isempty`, `any`/`all`, `*_by`, `with_entries`, `last/1`, `add/1`, `recurse`.
import type { JsonValue } from '../../json-value.js';
import { VALUE_BUILTINS, valuesOf } from './jq-builtins.js';
import { generator, iterate, single, type Code, type Emit, type Fn } from './jq-code.js';
import { add } from './jq-operators.js';
import {
  charge,
  compare,
  failure,
  JqError,
  kindOf,
  NeedsEngine,
  toDouble,
  truthy,
  type Kind,
} from './jq-values.js';

/** Names and arities of the generator builtins (jq-builtins-table.ts lists them with the others). */
export const GENERATOR_BUILTINS = [
  'empty/0', 'error/0', 'error/1', 'select/1', 'map/1', 'values/0', 'nulls/0', 'booleans/0', 'numbers/0',
  'strings/0', 'arrays/0', 'objects/0', 'iterables/0', 'scalars/0', 'range/1', 'range/2', 'first/1',
  'limit/2', 'isempty/1', 'any/1', 'all/1', 'any/2', 'all/2', 'sort_by/1', 'group_by/1', 'unique_by/1',
  'min_by/1', 'max_by/1', 'with_entries/1', 'last/1', 'add/1', 'recurse/0',
]; // prettier-ignore

const TYPE_FILTERS: Record<string, (kind: Kind, value: JsonValue) => boolean> = {
  values: (_, value) => value !== null,
  nulls: (kind) => kind === 'null',
  booleans: (kind) => kind === 'boolean',
  numbers: (kind) => kind === 'number',
  strings: (kind) => kind === 'string',
  arrays: (kind) => kind === 'array',
  objects: (kind) => kind === 'object',
  iterables: (kind) => kind === 'array' || kind === 'object',
  scalars: (kind) => kind !== 'array' && kind !== 'object',
};

export function specialBuiltin(name: string, args: Code[]): Code | undefined {
  const [f, g] = args;
  const filter = TYPE_FILTERS[name];
  if (filter !== undefined)
    return generator((input, emit) => {
      if (filter(kindOf(input), input)) emit(input);
    });
  switch (`${name}/${args.length}`) {
    case 'empty/0':
      return generator(() => undefined);
    case 'error/0':
      return single((input) => raise(input));
    case 'error/1': // `def error(msg): msg|error;`
      return generator((input) => (f as Code).gen(input, raise));
    case 'select/1':
      return select(f as Code);
    case 'map/1': // `def map(f): [.[] | f];`
      return single((input) => collect((emit) => iterate(input, (value) => (f as Code).gen(value, emit))));
    case 'recurse/0': // `def recurse: recurse(.[]?);`
      return generator(function recurse(input: JsonValue, emit: Emit): void {
        emit(input);
        if (input !== null && typeof input === 'object') iterate(input, (value) => recurse(value, emit));
      });
    case 'range/1':
      return range(
        single(() => 0),
        f as Code,
      );
    case 'range/2':
      return range(f as Code, g as Code);
    case 'first/1': // `def first(g): label $out | g | ., break $out;`
      return generator((input, emit) => limited(input, f as Code, 1, emit));
    case 'limit/2':
      return limit(f as Code, g as Code);
    case 'isempty/1': // `def isempty(g): first((g|false), true);`
      return single((input) => !produces(input, f as Code, () => true));
    case 'any/1':
      return anyAll(true, EACH, f as Code);
    case 'all/1':
      return anyAll(false, EACH, f as Code);
    case 'any/2':
      return anyAll(true, f as Code, g as Code);
    case 'all/2':
      return anyAll(false, f as Code, g as Code);
    case 'sort_by/1':
      return byKeys(f as Code, (items, keys) => order(keys).map((at) => items[at] as JsonValue));
    case 'group_by/1':
      return byKeys(f as Code, (items, keys) => groups(items, keys));
    case 'unique_by/1': // `[group_by(f)[] | .[0]]`
      return byKeys(f as Code, (items, keys) => groups(items, keys).map((group) => group[0] as JsonValue));
    case 'min_by/1':
      return byKeys(f as Code, (items, keys) => best(items, keys, (order) => order < 0));
    case 'max_by/1':
      return byKeys(f as Code, (items, keys) => best(items, keys, (order) => order >= 0));
    case 'with_entries/1': // `def with_entries(f): to_entries | map(f) | from_entries;`
      return single((input) => {
        const entries = VALUE_BUILTINS['to_entries/0']?.(input) as JsonValue[];
        const mapped = collect((emit) => iterate(entries, (entry) => (f as Code).gen(entry, emit)));
        return (VALUE_BUILTINS['from_entries/0'] as Fn)(mapped);
      });
    case 'last/1': // `def last(f): reduce f as $x (null; $x);`
      return single((input) => {
        let last: JsonValue = null;
        (f as Code).gen(input, (value) => {
          charge(1);
          last = value;
        });
        return last;
      });
    case 'add/1': // `def add(f): reduce f as $x (null; . + $x);`
      return single((input) => {
        let sum: JsonValue = null;
        (f as Code).gen(input, (value) => {
          charge(1);
          sum = add(sum, value);
        });
        return sum;
      });
    default:
      return undefined;
  }
}

function raise(value: JsonValue): never {
  throw new JqError(value, true);
}

function collect(run: (emit: Emit) => void): JsonValue[] {
  const items: JsonValue[] = [];
  run((value) => {
    charge(1);
    items.push(value);
  });
  return items;
}

/** `def select(f): if f then . else empty end;` */
function select(f: Code): Code {
  const test = f.single;
  if (test !== undefined)
    return generator((input, emit) => {
      if (truthy(test(input))) emit(input);
    });
  return generator((input, emit) =>
    f.gen(input, (value) => {
      if (truthy(value)) emit(input);
    }),
  );
}

/** `range($from; $upto)`: $from the outer loop; steps of one while below $upto. */
function range(from: Code, upto: Code): Code {
  return generator((input, emit) =>
    from.gen(input, (start) =>
      upto.gen(input, (end) => {
        if (kindOf(start) !== 'number' || kindOf(end) !== 'number')
          throw failure('Range bounds must be numeric');
        const last = toDouble(end as number);
        for (let value = toDouble(start as number); value < last; value += 1) {
          charge(1);
          emit(value);
        }
      }),
    ),
  );
}

/** Emits the first `count` outputs of `f` (at least one when count > 0), then stops `f`. */
function limited(input: JsonValue, f: Code, count: number, emit: Emit): void {
  const stop = {};
  let left = count;
  try {
    f.gen(input, (value) => {
      left -= 1;
      emit(value);
      if (left <= 0) throw stop;
    });
  } catch (error: unknown) {
    if (error !== stop) throw error;
  }
}

/**
 * `def limit($n; expr): if $n > 0 then label $out | foreach expr as $item ($n; . - 1; $item, if . <= 0
 * then break $out else empty end) elif $n == 0 then empty else error("limit doesn't support negative count") end;`
 */
function limit(count: Code, f: Code): Code {
  return generator((input, emit) =>
    count.gen(input, (n) => {
      if (typeof n !== 'number' && typeof n !== 'bigint') throw new NeedsEngine('error_text');
      const value = toDouble(n);
      if (value > 0) limited(input, f, value, emit);
      else if (value < 0) throw new JqError("limit doesn't support negative count", true);
    }),
  );
}

/** Whether `f` has an output for which `stopsAt` holds; stops `f` there. */
function produces(input: JsonValue, f: Code, stopsAt: (value: JsonValue) => boolean): boolean {
  const stop = {};
  try {
    f.gen(input, (value) => {
      if (stopsAt(value)) throw stop;
    });
  } catch (error: unknown) {
    if (error === stop) return true;
    throw error;
  }
  return false;
}

const EACH: Code = generator(iterate);

/**
 * `def any(generator; condition): isempty(generator|condition or empty)|not;`
 * `def all(generator; condition): isempty(generator|condition and empty);`
 */
function anyAll(any: boolean, source: Code, condition: Code): Code {
  return single((input) => {
    const found = produces(input, source, (value) =>
      produces(value, condition, (test) => truthy(test) === any),
    );
    return any ? found : !found;
  });
}

/** `f(map([f]))`: the items of an array with the outputs of `f` for each, as jq's `_*_by_impl` take them. */
function byKeys(f: Code, then: (items: JsonValue[], keys: JsonValue[][]) => JsonValue): Code {
  return single((input) => {
    const items = valuesOf(input);
    const keys = items.map((item) => collect((emit) => f.gen(item, emit)));
    if (!Array.isArray(input)) throw failure(`Cannot sort ${kindOf(input)}, as it is not an array`);
    return then(items, keys);
  });
}

/** Positions sorted by their keys; equal keys keep their order. */
function order(keys: JsonValue[][]): number[] {
  return keys.map((_, at) => at).sort((a, b) => compare(keys[a] as JsonValue, keys[b] as JsonValue));
}

function groups(items: JsonValue[], keys: JsonValue[][]): JsonValue[][] {
  const result: JsonValue[][] = [];
  let previous: JsonValue | undefined;
  for (const at of order(keys)) {
    const key = keys[at] as JsonValue;
    if (previous !== undefined && compare(previous, key) === 0) result.at(-1)?.push(items[at] as JsonValue);
    else result.push([items[at] as JsonValue]);
    previous = key;
  }
  return result;
}

/** `_min_by_impl` keeps the first smallest, `_max_by_impl` the last largest; null for no items. */
function best(items: JsonValue[], keys: JsonValue[][], better: (order: number) => boolean): JsonValue {
  let chosen: number | undefined;
  for (let at = 0; at < items.length; at += 1)
    if (chosen === undefined || better(compare(keys[at] as JsonValue, keys[chosen] as JsonValue)))
      chosen = at;
  return chosen === undefined ? null : (items[chosen] as JsonValue);
}
