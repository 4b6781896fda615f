// Arithmetic in the result type the compiler chose (docs/compiler.md "Expression types"): the wider
// operand type, I64 when neither contains the other, F64 with an F64. Integers are exact — I64 and U64 in
// bigint, the narrower ones in numbers (every U32 product is below 2^64, so a result out of range is
// still seen as out of range) — and a result outside the type is an overflow (SR3102). Integer division
// truncates toward zero; dividing by zero is SR3101, for F64 too (no Infinity or NaN enters a record).
import type { ExprType } from '../graph/expression.js';
import { INTEGER_RANGES, type FieldType } from '../graph/field-types.js';
import { representAs } from './convert.js';
import { RecordError } from '../core/errors.js';
import { GraphBuildError, type Evaluate, type Operand } from './scope.js';
import { representationOf, type Value } from '../core/values.js';

export type ArithmeticOperator = '+' | '-' | '*' | '/';

type Compute<T> = (a: T, b: T) => T;

export function arithmetic(op: ArithmeticOperator, left: Operand, right: Operand, type: ExprType): Evaluate {
  if (type === 'NULL') return () => null;
  const compute = computeIn(op, type);
  const toLeft = representAs(left.type, type);
  const toRight = representAs(right.type, type);
  const [a, b] = [left.evaluate, right.evaluate];
  return (s) => {
    const x = a(s);
    if (x === null) return null;
    const y = b(s);
    if (y === null) return null;
    return compute(toLeft(x), toRight(y));
  };
}

/** Unary minus: the compiler types it I64 (F64 for an F64 operand); -(-2^63) overflows. */
export function negate(operand: Operand, type: ExprType): Evaluate {
  const inner = operand.evaluate;
  if (type === 'F64') {
    const toNumber = representAs(operand.type, 'F64');
    return (s) => {
      const value = inner(s);
      return value === null ? null : -(toNumber(value) as number);
    };
  }
  if (type !== 'I64') throw new GraphBuildError(`unary - typed ${type}`);
  const toBig = representAs(operand.type, 'I64');
  const check = checked('I64');
  return (s) => {
    const value = inner(s);
    return value === null ? null : check(-(toBig(value) as bigint));
  };
}

function computeIn(op: ArithmeticOperator, type: ExprType): Compute<Value> {
  if (type === 'F64') return floatOp(op) as Compute<Value>;
  if (type === 'NULL' || !Object.hasOwn(INTEGER_RANGES, type)) {
    throw new GraphBuildError(`arithmetic ${op} typed ${type}`);
  }
  if (representationOf(type) === 'bigint') return bigintOp(op, type) as Compute<Value>;
  return smallIntegerOp(op, type) as Compute<Value>;
}

function divisionByZero(): RecordError {
  return new RecordError('SR3101', 'division by zero');
}

function overflow(type: FieldType): RecordError {
  return new RecordError('SR3102', `arithmetic overflow: the result does not fit ${type}`);
}

function checked(type: FieldType): (value: bigint) => bigint {
  const [low, high] = INTEGER_RANGES[type] ?? [0n, 0n];
  return (value) => {
    if (value < low || value > high) throw overflow(type);
    return value;
  };
}

function bigintOp(op: ArithmeticOperator, type: FieldType): Compute<bigint> {
  const check = checked(type);
  switch (op) {
    case '+':
      return (a, b) => check(a + b);
    case '-':
      return (a, b) => check(a - b);
    case '*':
      return (a, b) => check(a * b);
    case '/':
      return (a, b) => {
        if (b === 0n) throw divisionByZero();
        return check(a / b);
      };
  }
}

function smallIntegerOp(op: ArithmeticOperator, type: FieldType): Compute<number> {
  const [lowBig, highBig] = INTEGER_RANGES[type] ?? [0n, 0n];
  const [low, high] = [Number(lowBig), Number(highBig)];
  const check = (value: number): number => {
    if (value < low || value > high) throw overflow(type);
    return value;
  };
  switch (op) {
    case '+':
      return (a, b) => check(a + b);
    case '-':
      return (a, b) => check(a - b);
    case '*':
      return (a, b) => check(a * b);
    case '/':
      return (a, b) => {
        if (b === 0) throw divisionByZero();
        // + 0 turns -0 into 0.
        return check(Math.trunc(a / b) + 0);
      };
  }
}

function floatOp(op: ArithmeticOperator): Compute<number> {
  const finite = (value: number): number => {
    if (!Number.isFinite(value)) throw overflow('F64');
    return value;
  };
  switch (op) {
    case '+':
      return (a, b) => finite(a + b);
    case '-':
      return (a, b) => finite(a - b);
    case '*':
      return (a, b) => finite(a * b);
    case '/':
      return (a, b) => {
        if (b === 0) throw divisionByZero();
        return finite(a / b);
      };
  }
}
