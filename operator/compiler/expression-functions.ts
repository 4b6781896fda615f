// The functions of the expression language (docs/language.md, "Expressions"; docs/runtime.md, "Functions"):
// arity, argument types and result typing.
import { FUNCTIONS, type FunctionName } from '../../dataplane/graph/expression.js';
import { commonType, isInteger, isNumeric, type Typing } from './expression-types.js';

export interface FunctionSpec {
  /** Fewest and most arguments (Infinity: any number). */
  arity: readonly [number, number];
  /** The result, or why the arguments do not fit. */
  result(args: readonly Typing[]): Typing | string;
}

const anyNull = (args: readonly Typing[]): boolean => args.some((arg) => arg.nullable);

const stringToString: FunctionSpec = {
  arity: [1, 1],
  result: ([text]) => expectString(text, 'its argument') ?? { type: 'STRING', nullable: anyNull([text!]) },
};

function expectString(arg: Typing | undefined, what: string): string | undefined {
  if (arg === undefined || arg.type === 'STRING' || arg.type === 'NULL') return undefined;
  return `${what} must be STRING, not ${arg.type}`;
}

function expectInteger(arg: Typing | undefined, what: string): string | undefined {
  if (arg === undefined || isInteger(arg.type) || arg.type === 'NULL') return undefined;
  return `${what} must be an integer, not ${arg.type}`;
}

export const FUNCTION_SPECS: Record<FunctionName, FunctionSpec> = {
  lower: stringToString,
  upper: stringToString,
  trim: stringToString,
  // Values of any type, converted as to_string does; null arguments are skipped, so the result is never null.
  concat: { arity: [1, Infinity], result: () => ({ type: 'STRING', nullable: false }) },
  coalesce: {
    arity: [2, Infinity],
    result: (args) => {
      const type = commonType(args);
      if (type === undefined) {
        return `its arguments must share a type, not ${args.map((arg) => arg.type).join(', ')}`;
      }
      return { type, nullable: args.every((arg) => arg.nullable) };
    },
  },
  length: {
    arity: [1, 1],
    result: ([text]) =>
      text !== undefined && !['STRING', 'BYTES', 'NULL'].includes(text.type)
        ? `its argument must be STRING or BYTES, not ${text.type}`
        : { type: 'I64', nullable: anyNull([text!]) },
  },
  substr: {
    arity: [2, 3],
    result: (args) =>
      expectString(args[0], 'the first argument') ??
      expectInteger(args[1], 'the start (1-based)') ??
      expectInteger(args[2], 'the length') ?? { type: 'STRING', nullable: anyNull(args) },
  },
  now: { arity: [0, 0], result: () => ({ type: 'DATETIME', nullable: false }) },
  to_string: { arity: [1, 1], result: (args) => ({ type: 'STRING', nullable: anyNull(args) }) },
  // A STRING that is not an integer, a fraction or a U64 beyond I64 converts to null.
  to_i64: {
    arity: [1, 1],
    result: ([value]) => {
      if (value === undefined) return { type: 'I64', nullable: true };
      if (!isNumeric(value.type) && !['STRING', 'BOOL', 'NULL'].includes(value.type)) {
        return `its argument must be STRING, BOOL or a number, not ${value.type}`;
      }
      const exact = value.type === 'BOOL' || (isInteger(value.type) && value.type !== 'U64');
      return { type: 'I64', nullable: value.nullable || !exact };
    },
  },
  abs: {
    arity: [1, 1],
    result: ([value]) =>
      value !== undefined && !isNumeric(value.type) && value.type !== 'NULL'
        ? `its argument must be a number, not ${value.type}`
        : { type: value?.type ?? 'I64', nullable: anyNull([value!]) },
  },
};

export function functionSpec(name: string): FunctionSpec | undefined {
  return (FUNCTIONS as readonly string[]).includes(name) ? FUNCTION_SPECS[name as FunctionName] : undefined;
}

export function describeArity([min, max]: readonly [number, number]): string {
  if (max === Infinity) return `at least ${min} argument${min === 1 ? '' : 's'}`;
  if (min === max) return `${min === 0 ? 'no' : min} argument${min === 1 ? '' : 's'}`;
  return `${min} to ${max} arguments`;
}
