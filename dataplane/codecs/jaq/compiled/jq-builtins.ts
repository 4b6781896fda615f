// The builtins of the compiled subset that take values (their arguments are evaluated first, as jq's
// `def f($a)`), each as jq 1.8 defines it (src/builtin.c and src/builtin.jq, quoted where it is jq).
// The builtins that take generators (map, select, first, limit, sort_by, …) are in jq-generators.ts.
import type { JsonObject, JsonValue } from '../../json-value.js';
import { add, negate } from './jq-operators.js';
import { asciiCase, codePointLength, codePointSlice, splitText, trimText } from './jq-strings.js';
import {
  compare, computed, described, dump, equal, failure, getOwn, JqError, kindOf, NeedsEngine,
  orderedKeys, setOwn, sortedKeys, toDouble, toText, truthy,
} from './jq-values.js'; // prettier-ignore

export type ValueBuiltin = (input: JsonValue, ...args: JsonValue[]) => JsonValue;

const INTEGER_LITERAL = /^-?(?:0|[1-9]\d*)$/;
const NUMBER_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** `.[]` of an array or object as an array of values, in jq's order. */
export function valuesOf(input: JsonValue): JsonValue[] {
  if (Array.isArray(input)) return input;
  if (input !== null && typeof input === 'object')
    return orderedKeys(input).map((key) => input[key] as JsonValue);
  throw failure(`Cannot iterate over ${described(input)}`);
}

function needString(name: string, value: JsonValue): string {
  if (typeof value !== 'string') throw failure(`${name} input must be a string`);
  return value;
}

function needArray(value: JsonValue, what: string): JsonValue[] {
  if (!Array.isArray(value)) throw failure(`${described(value)} ${what}`);
  return value;
}

function length(input: JsonValue): JsonValue {
  switch (typeof input) {
    case 'string':
      return codePointLength(input);
    case 'number':
      return computed(Math.abs(input));
    case 'bigint':
      return input < 0n ? -input : input; // jq 1.8 keeps a literal's digits here
    case 'boolean':
      throw failure(`${described(input)} has no length`);
    default:
      if (input === null) return 0;
      return Array.isArray(input) ? input.length : Object.keys(input).length;
  }
}

function keys(input: JsonValue, sorted: boolean): JsonValue {
  if (Array.isArray(input)) return input.map((_, index) => index);
  if (input !== null && typeof input === 'object') return sorted ? sortedKeys(input) : orderedKeys(input);
  throw failure(`${described(input)} has no keys`);
}

function has(input: JsonValue, key: JsonValue): JsonValue {
  if (input === null) return false;
  if (kindOf(input) === 'object' && typeof key === 'string') return Object.hasOwn(input as JsonObject, key);
  if (Array.isArray(input) && (typeof key === 'number' || typeof key === 'bigint')) {
    const index = Math.trunc(toDouble(key));
    return index >= 0 && index < input.length;
  }
  throw failure(`Cannot check whether ${kindOf(input)} has a ${kindOf(key)} key`);
}

/** jq's `contains` (src/builtin.c, f_contains): values of two kinds cannot be compared at the top. */
function contains(input: JsonValue, other: JsonValue): boolean {
  if (kindOf(input) !== kindOf(other))
    throw failure(`${described(input)} and ${described(other)} cannot have their containment checked`);
  return within(input, other);
}

/** src/jv.c, jv_contains: inside, a value of another kind is simply not contained. */
function within(input: JsonValue, other: JsonValue): boolean {
  const kind = kindOf(input);
  if (kind !== kindOf(other)) return false;
  if (kind === 'object') {
    const object = input as JsonObject;
    return Object.keys(other as JsonObject).every(
      (key) =>
        Object.hasOwn(object, key) &&
        within(object[key] as JsonValue, (other as JsonObject)[key] as JsonValue),
    );
  }
  if (kind === 'array')
    return (other as JsonValue[]).every((wanted) =>
      (input as JsonValue[]).some((item) => within(item, wanted)),
    );
  if (kind === 'string') return (input as string).includes(other as string);
  return equal(input, other);
}

/** `tonumber`: a number written as JavaScript writes it; any other spelling jq decides. */
function toNumber(input: JsonValue): JsonValue {
  if (typeof input === 'number' || typeof input === 'bigint') return input;
  if (typeof input !== 'string') throw failure(`${described(input)} cannot be parsed as a number`);
  if (!NUMBER_TEXT.test(input)) throw new NeedsEngine('error_text');
  const value = Number(input);
  if (INTEGER_LITERAL.test(input) && !Number.isSafeInteger(value)) return BigInt(input);
  if (String(value) !== input) throw new NeedsEngine('number_text');
  return value;
}

function implode(input: JsonValue): JsonValue {
  if (!Array.isArray(input)) throw failure('implode input must be an array');
  let text = '';
  for (const code of input) {
    if (
      typeof code !== 'number' ||
      !Number.isInteger(code) ||
      code < 0 ||
      code > 0x10ffff ||
      (code >= 0xd800 && code <= 0xdfff)
    )
      throw new NeedsEngine('error_text');
    text += String.fromCodePoint(code);
  }
  return text;
}

function math(name: string, operation: (value: number) => number): ValueBuiltin {
  return (input) => {
    if (typeof input !== 'number' && typeof input !== 'bigint')
      throw failure(`${described(input)} number required`);
    return computed(operation(toDouble(input)));
  };
}

/** jq 1.8's `join($x)`: `reduce .[] as $i (null; (if .==null then "" else .+$x end) + ($i | if type=="boolean" or type=="number" then tostring else .//"" end)) // ""`. */
function join(input: JsonValue, separator: JsonValue): JsonValue {
  let joined: JsonValue = null;
  for (const item of valuesOf(input)) {
    const text =
      typeof item === 'boolean' || kindOf(item) === 'number' ? toText(item) : truthy(item) ? item : '';
    joined = add(joined === null ? '' : add(joined, separator), text);
  }
  return truthy(joined) ? joined : '';
}

function pick(input: JsonValue, better: (order: number) => boolean): JsonValue {
  const items = needArray(input, 'and cannot be iterated over');
  let best: JsonValue | undefined;
  for (const item of items) if (best === undefined || better(compare(item, best))) best = item;
  return best ?? null;
}

function sort(input: JsonValue): JsonValue[] {
  return [...needArray(input, 'cannot be sorted, as it is not an array')].sort(compare);
}

function flatten(input: JsonValue, depth: number): JsonValue[] {
  const flat: JsonValue[] = [];
  for (const item of valuesOf(input)) {
    if (Array.isArray(item) && depth !== 0) flat.push(...flatten(item, depth - 1));
    else flat.push(item);
  }
  return flat;
}

function startsOrEnds(name: string, test: (text: string, part: string) => boolean): ValueBuiltin {
  return (input, part) => {
    if (typeof input !== 'string' || typeof part !== 'string')
      throw failure(`${name}() requires string inputs`);
    return test(input, part);
  };
}

const startswith = startsOrEnds('startswith', (text, part) => text.startsWith(part));
const endswith = startsOrEnds('endswith', (text, part) => text.endsWith(part));

/** Keyed by `name/arity`. */
export const VALUE_BUILTINS: Record<string, ValueBuiltin> = {
  'not/0': (input) => !truthy(input),
  'length/0': length,
  'utf8bytelength/0': (input) => {
    if (typeof input !== 'string') throw failure(`${described(input)} only strings have UTF-8 byte length`);
    return Buffer.byteLength(input, 'utf8');
  },
  'keys/0': (input) => keys(input, true),
  'keys_unsorted/0': (input) => keys(input, false),
  'has/1': has,
  'in/1': (input, object) => has(object, input),
  'contains/1': contains,
  'inside/1': (input, object) => contains(object, input),
  'add/0': (input) => valuesOf(input).reduce<JsonValue>((sum, item) => add(sum, item), null),
  'any/0': (input) => valuesOf(input).some(truthy),
  'all/0': (input) => valuesOf(input).every(truthy),
  'type/0': kindOf,
  'tostring/0': toText,
  'tojson/0': dump,
  'tonumber/0': toNumber,
  'ascii_downcase/0': (input) => asciiCase(needString('explode', input), false),
  'ascii_upcase/0': (input) => asciiCase(needString('explode', input), true),
  'ltrimstr/1': (input, part) =>
    startswith(input, part) === true
      ? codePointSlice(input as string, codePointLength(part as string), Infinity)
      : input,
  'rtrimstr/1': (input, part) =>
    endswith(input, part) === true
      ? (input as string).slice(0, (input as string).length - (part as string).length)
      : input,
  'startswith/1': startswith,
  'endswith/1': endswith,
  'split/1': (input, separator) => {
    if (typeof input !== 'string' || typeof separator !== 'string')
      throw failure('split input and separator must be strings');
    return splitText(input, separator);
  },
  'join/1': join,
  'to_entries/0': (input) => {
    const names = keys(input, false) as (string | number)[];
    return names.map((key) => ({ key, value: index(input, key) }));
  },
  'from_entries/0': fromEntries,
  'floor/0': math('floor', Math.floor),
  'ceil/0': math('ceil', Math.ceil),
  'round/0': math('round', (value) => Math.sign(value) * Math.round(Math.abs(value))),
  'sqrt/0': math('sqrt', Math.sqrt),
  'fabs/0': math('fabs', Math.abs),
  // `def abs: if . < 0 then - . else . end;`
  'abs/0': (input) => (compare(input, 0) < 0 ? negate(input) : input),
  'min/0': (input) => pick(input, (order) => order < 0),
  'max/0': (input) => pick(input, (order) => order >= 0),
  'sort/0': sort,
  'unique/0': (input) =>
    sort(input).filter((item, at, all) => at === 0 || !equal(all[at - 1] as JsonValue, item)),
  // `def reverse: [.[length - 1 - range(0;length)]];`
  'reverse/0': (input) => {
    const count = toDouble(length(input) as number);
    const reversed: JsonValue[] = [];
    for (let at = 0; at < count; at += 1) reversed.push(index(input, count - 1 - at));
    return reversed;
  },
  'first/0': (input) => index(input, 0),
  'last/0': (input) => index(input, -1),
  'flatten/0': (input) => flatten(input, -1),
  'flatten/1': (input, depth) => {
    if (compare(depth, 0) < 0) throw new JqError('flatten depth must not be negative', true);
    return flatten(input, toDouble(depth as number));
  },
  'explode/0': (input) => Array.from(needString('explode', input), (char) => char.codePointAt(0) as number),
  'implode/0': implode,
  'trim/0': (input) => trimText(needString('trim', input), true, true),
  'ltrim/0': (input) => trimText(needString('trim', input), true, false),
  'rtrim/0': (input) => trimText(needString('trim', input), false, true),
  'toarray/0': (input) => (Array.isArray(input) ? input : [input]),
  'env/0': () => ({}),
};

/**
 * `from_entries`: `map({ (.key // .Key // .name // .Name): if has("value") then .value else .Value end })
 * | add // {}`.
 */
function fromEntries(input: JsonValue): JsonValue {
  let result: JsonValue = null;
  for (const entry of valuesOf(input)) {
    let key: JsonValue = null;
    for (const name of ['key', 'Key', 'name', 'Name']) {
      key = index(entry, name);
      if (truthy(key)) break;
    }
    if (typeof key !== 'string')
      throw failure(key === null ? 'Cannot use null (null) as object key' : 'Object keys must be strings');
    const value = has(entry, 'value') === true ? index(entry, 'value') : index(entry, 'Value');
    const object: JsonObject = {};
    setOwn(object, key, value);
    result = add(result, object);
  }
  return truthy(result) ? result : {};
}

/** `.[k]` (jq's jv_get): a key of an object, an index of an array (whole part; negative from the end). */
export function index(target: JsonValue, key: JsonValue): JsonValue {
  if (typeof key === 'string') {
    if (target !== null && typeof target === 'object' && !Array.isArray(target)) return getOwn(target, key);
    if (target === null) return null;
  } else if (typeof key === 'number' || typeof key === 'bigint') {
    if (Array.isArray(target)) {
      const whole = Math.trunc(toDouble(key));
      const at = whole < 0 ? target.length + whole : whole;
      return at >= 0 && at < target.length ? (target[at] as JsonValue) : null;
    }
    if (target === null) return null;
  } else if (key !== null && typeof key === 'object' && !Array.isArray(key)) {
    throw new NeedsEngine('error_text'); // a slice object, as `path` uses
  } else if (Array.isArray(key) && Array.isArray(target))
    throw new NeedsEngine('error_text'); // indices
  else if (target === null && key === null) throw failure('Cannot index null with null');
  throw failure(`Cannot index ${kindOf(target)} with ${kindOf(key)}`);
}

/** `.[from:to]` (jq's parse_slice): bounds from the end when negative, start floored, end rounded up. */
export function slice(target: JsonValue, from: JsonValue, to: JsonValue): JsonValue {
  if (target === null) return null;
  if (typeof target !== 'string' && !Array.isArray(target))
    throw failure(`Cannot index ${kindOf(target)} with object`);
  const size = typeof target === 'string' ? codePointLength(target) : target.length;
  const start = bound(from ?? 0, size);
  const end = bound(to ?? size, size);
  const first = Math.floor(Math.min(Math.max(start, 0), size));
  let last = Math.min(end, size);
  if (last < first) last = first;
  const whole = Math.ceil(last);
  return typeof target === 'string' ? codePointSlice(target, first, whole) : target.slice(first, whole);
}

function bound(value: JsonValue, size: number): number {
  if (typeof value !== 'number' && typeof value !== 'bigint')
    throw failure('Start and end indices of an array slice must be numbers');
  const number = toDouble(value);
  return number < 0 ? number + size : number;
}
