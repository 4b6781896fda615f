// One writer per kind: puts a converted value (view-values.ts) on the wire in its type's encoding —
// varints (zig-zag for sint32/sint64, ten bytes for negative int32 and enums), fixed little-endian
// integers, IEEE floats, and length-prefixed strings and bytes.
import { split64, zigzag64, type Halves } from './int64-bits.js';
import { Kind } from './scalar-kinds.js';
import type { WireValue } from './view-values.js';
import type { WireWriter } from './wire-writer.js';

export type WriteValue = (writer: WireWriter, value: WireValue) => void;

const halves: Halves = { lo: 0, hi: 0 };
const bits = (value: WireValue): Halves => split64(value as number | bigint, halves);

/** Indexed by Kind. */
const WRITE_VALUE: readonly WriteValue[] = [
  (w, v) => w.double(v as number),
  (w, v) => w.float(v as number),
  (w, v) => w.int32(v as number),
  (w, v) => w.varint32(v as number),
  (w, v) => w.varint32(((v as number) << 1) ^ ((v as number) >> 31)),
  (w, v) => w.fixed32(v as number),
  (w, v) => w.fixed32(v as number),
  (w, v) => varint64(w, bits(v)),
  (w, v) => varint64(w, bits(v)),
  (w, v) => varint64(w, zigzag64(bits(v))),
  (w, v) => fixed64(w, bits(v)),
  (w, v) => fixed64(w, bits(v)),
  (w, v) => w.varint32(v === true ? 1 : 0),
  (w, v) => w.string(v as string),
  (w, v) => w.bytes(v as Uint8Array),
  (w, v) => w.int32(v as number),
  () => {
    throw new Error('a message is not a scalar');
  },
];

if (WRITE_VALUE.length !== Kind.Message + 1) throw new Error('WRITE_VALUE does not cover every kind');

export function writeValue(writer: WireWriter, kind: Kind, value: WireValue): void {
  (WRITE_VALUE[kind] as WriteValue)(writer, value);
}

function varint64(writer: WireWriter, value: Halves): void {
  writer.varint64(value.lo, value.hi);
}

function fixed64(writer: WireWriter, value: Halves): void {
  writer.fixed64(value.lo, value.hi);
}

/** Whether a field without presence leaves this value off the wire (proto3: defaults are not written). */
export function isDefault(value: WireValue): boolean {
  switch (typeof value) {
    case 'number':
      // −0.0 is not the default: protoc compares the bits.
      return value === 0 && !Object.is(value, -0);
    case 'bigint':
      return value === 0n;
    case 'boolean':
      return !value;
    default:
      return value.length === 0;
  }
}
