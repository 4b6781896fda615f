// One reader per kind: reads a value from the wire and gives it to the view's sink (JSON text or values,
// formats/view-sink.ts). Integers are read from their bits (64-bit ones with every digit), enums by name
// (an unknown number as the number), floats in the shortest text that reads back to the same float, and
// the IEEE specials as the strings "NaN", "Infinity" and "-Infinity", as in proto3 JSON. A value is what
// parseJsonValue makes of that text.
import type { ViewSink } from '../formats/view-sink.js';
import { int64Value, sint64Value, uint64Value } from './int64-bits.js';
import type { ValuePlan } from './message-plan.js';
import { Kind } from './scalar-kinds.js';
import type { WireReader } from './wire-reader.js';

export type ReadScalar = <V>(reader: WireReader, value: ValuePlan, sink: ViewSink<V>) => V;

const unsupported: ReadScalar = () => {
  throw new Error('a message is not a scalar');
};

/** Indexed by Kind. */
export const READ_SCALAR: readonly ReadScalar[] = [
  (r, _, s) => s.numberText(doubleText(r.double())),
  (r, _, s) => s.numberText(floatText(r.float())),
  (r, _, s) => s.integer(r.varint32() | 0),
  (r, _, s) => s.integer(r.varint32()),
  (r, _, s) => s.integer(zigzag32(r.varint32())),
  (r, _, s) => s.integer(r.fixed32()),
  (r, _, s) => s.integer(r.fixed32() | 0),
  (r, _, s) => (r.varint64(), s.integer(int64Value(r.lo, r.hi))),
  (r, _, s) => (r.varint64(), s.integer(uint64Value(r.lo, r.hi))),
  (r, _, s) => (r.varint64(), s.integer(sint64Value(r.lo, r.hi))),
  (r, _, s) => (r.fixed64(), s.integer(uint64Value(r.lo, r.hi))),
  (r, _, s) => (r.fixed64(), s.integer(int64Value(r.lo, r.hi))),
  (r, _, s) => (r.varint64(), s.boolean((r.lo | r.hi) !== 0)),
  (r, _, s) => r.string(s),
  (r, _, s) => r.bytes(s),
  (r, value, s) => enumView(r.varint32() | 0, value, s),
  unsupported,
];

if (READ_SCALAR.length !== Kind.Message + 1) throw new Error('READ_SCALAR does not cover every kind');

function zigzag32(value: number): number {
  return (value >>> 1) ^ -(value & 1);
}

function enumView<V>(number: number, value: ValuePlan, sink: ViewSink<V>): V {
  const text = value.enumPlan?.textByNumber.get(number);
  if (text === undefined) return sink.integer(number);
  return sink.constant(text, value.enumPlan?.nameByNumber.get(number) as string);
}

export function doubleText(value: number): string {
  // String() of a finite double is valid JSON and the shortest text that reads back to it.
  if (!Number.isFinite(value)) return specialText(value);
  return value === 0 && Object.is(value, -0) ? '-0' : String(value);
}

/** The shortest decimal that reads back (through Math.fround) to the same float: 0.1f is `0.1`. */
export function floatText(value: number): string {
  if (!Number.isFinite(value)) return specialText(value);
  if (Number.isInteger(value) && Math.abs(value) < 16777216) return doubleText(value);
  for (let digits = 1; digits < 9; digits++) {
    const shorter = Number(value.toPrecision(digits));
    if (Math.fround(shorter) === value) return String(shorter);
  }
  return String(value);
}

function specialText(value: number): string {
  if (Number.isNaN(value)) return '"NaN"';
  return value > 0 ? '"Infinity"' : '"-Infinity"';
}
