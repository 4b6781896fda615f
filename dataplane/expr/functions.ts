// The functions of the expression language (docs/runtime.md, "Functions"; FUNCTIONS), each compiled for the
// static types of its arguments. Text functions count and cut Unicode code points; the rest of the decisions
// are in docs/runtime.md ("Functions").
import { FUNCTIONS, type ExprType, type FunctionName } from '../graph/expression.js';
import { INTEGER_RANGES } from '../graph/field-types.js';
import { representAs } from './convert.js';
import { RecordError } from '../core/errors.js';
import { GraphBuildError, type Evaluate, type ExpressionOptions, type Operand } from './scope.js';
import { toI64, toText } from './text-conversions.js';
import type { Value } from '../core/values.js';

type Build = (args: readonly Operand[], type: ExprType, options: ExpressionOptions) => Evaluate;

/** The function with null in, null out applied to one argument. */
function unary(args: readonly Operand[], apply: (value: Value) => Value): Evaluate {
  const [arg] = args;
  if (arg === undefined) throw new GraphBuildError('a function call lacks its argument');
  const inner = arg.evaluate;
  return (s) => {
    const value = inner(s);
    return value === null ? null : apply(value);
  };
}

const BUILDERS: Record<FunctionName, Build> = {
  lower: (args) => unary(args, (value) => (value as string).toLowerCase()),
  upper: (args) => unary(args, (value) => (value as string).toUpperCase()),
  trim: (args) => unary(args, (value) => (value as string).trim()),
  length: (args) =>
    unary(args, (value) =>
      BigInt(value instanceof Uint8Array ? value.length : codePointCount(value as string)),
    ),
  to_string: (args) => unary(args, toText(args[0]?.type ?? 'NULL')),
  to_i64: (args) => unary(args, toI64(args[0]?.type ?? 'NULL')),
  abs: (args, type) => unary(args, absolute(type)),
  now: (_args, _type, options) => () => options.now(),
  concat: (args) => {
    const parts = args.map((arg) => ({ evaluate: arg.evaluate, text: toText(arg.type) }));
    return (s) => {
      let joined = '';
      for (const part of parts) {
        const value = part.evaluate(s);
        if (value !== null) joined += part.text(value) as string;
      }
      return joined;
    };
  },
  coalesce: (args, type) => {
    if (type === 'NULL') return () => null;
    const parts = args.map((arg) => ({ evaluate: arg.evaluate, convert: representAs(arg.type, type) }));
    return (s) => {
      for (const part of parts) {
        const value = part.evaluate(s);
        if (value !== null) return part.convert(value);
      }
      return null;
    };
  },
  substr: (args) => {
    const [text, start, count] = args.map((arg) => arg.evaluate);
    if (text === undefined || start === undefined) throw new GraphBuildError('substr() needs two arguments');
    return (s) => {
      const value = text(s);
      const from = value === null ? null : start(s);
      const length = from === null || count === undefined ? undefined : count(s);
      if (value === null || from === null || length === null) return null;
      return substring(value as string, BigInt(from as number | bigint), length);
    };
  },
};

export function call(
  name: string,
  args: readonly Operand[],
  type: ExprType,
  options: ExpressionOptions,
): Evaluate {
  if (!(FUNCTIONS as readonly string[]).includes(name))
    throw new GraphBuildError(`unknown function ${name}()`);
  return BUILDERS[name as FunctionName](args, type, options);
}

function absolute(type: ExprType): (value: Value) => Value {
  if (type === 'F64') return (value) => Math.abs(value as number);
  if (type === 'U8' || type === 'U16' || type === 'U32' || type === 'U64') return (value) => value;
  const high = (INTEGER_RANGES[type as string] ?? [0n, 0n])[1];
  const overflow = (): RecordError =>
    new RecordError('SR3102', `arithmetic overflow: abs() of the lowest ${type} does not fit ${type}`);
  if (type === 'I64') {
    return (value) => {
      const magnitude = (value as bigint) < 0n ? -(value as bigint) : (value as bigint);
      if (magnitude > high) throw overflow();
      return magnitude;
    };
  }
  return (value) => {
    const magnitude = Math.abs(value as number);
    if (magnitude > Number(high)) throw overflow();
    return magnitude;
  };
}

/** Code points, not UTF-16 units: a surrogate pair counts once. */
export function codePointCount(text: string): number {
  let count = text.length;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xdc00 && unit <= 0xdfff && index > 0) {
      const previous = text.charCodeAt(index - 1);
      if (previous >= 0xd800 && previous <= 0xdbff) count -= 1;
    }
  }
  return count;
}

/**
 * SQL's substr over code points: characters `start` to `start + length - 1` (1-based), clipped to the
 * text, so a start below 1 eats into the length; a negative length is SR3103.
 */
export function substring(text: string, start: bigint, length: Value | undefined): string {
  if (length !== undefined && BigInt(length as number | bigint) < 0n) {
    throw new RecordError('SR3103', 'substr(): the length must not be negative');
  }
  const points = codePointCount(text) === text.length ? undefined : Array.from(text);
  const size = BigInt(points?.length ?? text.length);
  const end = length === undefined ? size + 1n : start + BigInt(length as number | bigint);
  const [first, last] = clip(start, end, size);
  if (last <= first) return '';
  return points === undefined ? text.slice(first, last) : points.slice(first, last).join('');
}

/** Positions `start` (1-based) to `end` (exclusive) as 0-based slice bounds within `size` characters. */
function clip(start: bigint, end: bigint, size: bigint): [number, number] {
  const from = start < 1n ? 1n : start;
  const to = end > size + 1n ? size + 1n : end;
  return [Number(from) - 1, Number(to) - 1];
}
