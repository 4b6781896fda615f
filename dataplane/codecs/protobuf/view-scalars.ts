// One reader per kind: reads a value from the wire and returns its JSON text in the view. Integers are
// written from their bits (64-bit ones with every digit), enums by name (an unknown number as the
// number), floats in the shortest text that reads back to the same float, and the IEEE specials as the
// strings "NaN", "Infinity" and "-Infinity", as in proto3 JSON.
import { int64Text, sint64Text, uint64Text } from './int64-bits.js';
import type { ValuePlan } from './message-plan.js';
import { Kind } from './scalar-kinds.js';
import type { WireReader } from './wire-reader.js';

export type ReadText = (reader: WireReader, value: ValuePlan) => string;

const unsupported: ReadText = () => {
  throw new Error('a message is not a scalar');
};

/** Indexed by Kind. */
export const READ_TEXT: readonly ReadText[] = [
  (r) => doubleText(r.double()),
  (r) => floatText(r.float()),
  (r) => String(r.varint32() | 0),
  (r) => String(r.varint32()),
  (r) => String(zigzag32(r.varint32())),
  (r) => String(r.fixed32()),
  (r) => String(r.fixed32() | 0),
  (r) => (r.varint64(), int64Text(r.lo, r.hi)),
  (r) => (r.varint64(), uint64Text(r.lo, r.hi)),
  (r) => (r.varint64(), sint64Text(r.lo, r.hi)),
  (r) => (r.fixed64(), uint64Text(r.lo, r.hi)),
  (r) => (r.fixed64(), int64Text(r.lo, r.hi)),
  (r) => (r.varint64(), (r.lo | r.hi) === 0 ? 'false' : 'true'),
  (r) => r.stringText(),
  (r) => r.bytesText(),
  (r, value) => enumText(r.varint32() | 0, value),
  unsupported,
];

if (READ_TEXT.length !== Kind.Message + 1) throw new Error('READ_TEXT does not cover every kind');

function zigzag32(value: number): number {
  return (value >>> 1) ^ -(value & 1);
}

function enumText(number: number, value: ValuePlan): string {
  return value.enumPlan?.textByNumber.get(number) ?? String(number);
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
