// The shape of compiled jq (jq-closures.ts): a generator `(input, emit) => void` calls `emit` once per
// output and throws JqError for an error; an expression with exactly one output is also a plain function.
import type { JsonValue } from '../../json-value.js';
import { charge, failure, orderedKeys } from './jq-values.js';

export type Emit = (value: JsonValue) => void;
export type Gen = (input: JsonValue, emit: Emit) => void;
export type Fn = (input: JsonValue) => JsonValue;
export interface Code {
  gen: Gen;
  single?: Fn;
}

export function single(fn: Fn): Code {
  return { single: fn, gen: (input, emit) => emit(fn(input)) };
}

export function generator(gen: Gen): Code {
  return { gen };
}

/** `.[]`: an array's elements or an object's values, each a step of the run's work. */
export function iterate(value: JsonValue, emit: Emit): void {
  if (Array.isArray(value)) {
    charge(value.length);
    for (let at = 0; at < value.length; at += 1) emit(value[at] as JsonValue);
  } else if (value !== null && typeof value === 'object') {
    const keys = orderedKeys(value);
    charge(keys.length);
    for (const key of keys) emit(value[key] as JsonValue);
  } else throw failure(`Cannot iterate over ${value === null ? 'null' : typeof value}`);
}

/** A value builtin on its arguments' outputs, the first argument the outer loop (jq's `def f($a; $b)`). */
export function withArguments(args: Code[], fn: (input: JsonValue, ...args: JsonValue[]) => JsonValue): Code {
  const singles = args.map((arg) => arg.single);
  if (singles.every((arg) => arg !== undefined)) {
    const [first, second] = singles;
    if (first === undefined) return single(fn);
    if (second === undefined) return single((input) => fn(input, first(input)));
    return single((input) => fn(input, first(input), second(input)));
  }
  return generator((input, emit) => {
    const values: JsonValue[] = [];
    const next = (at: number): void => {
      if (at === args.length) {
        emit(fn(input, ...values));
        return;
      }
      (args[at] as Code).gen(input, (value) => {
        values[at] = value;
        next(at + 1);
      });
    };
    next(0);
  });
}

/** An expression whose outputs go through `fn` one by one. */
export function map1(operand: Code, fn: (value: JsonValue) => JsonValue): Code {
  const one = operand.single;
  if (one !== undefined) return single((input) => fn(one(input)));
  return generator((input, emit) => operand.gen(input, (value) => emit(fn(value))));
}
