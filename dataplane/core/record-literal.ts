// Records made by one object literal per schema, for the hot paths that build a record per message (the
// SYSLOG codec, INHERIT ALL in the record builder). Filling `{}` with `record[name] = value` over the field
// names makes every store a keyed, megamorphic one that adds a property (a runtime call each); a literal
// `{ "facility": …, "severity": … }` is allocated from one boilerplate, so all records of a schema share
// one hidden class and the reads downstream (`input.facility`) stay monomorphic.
//
// The literal is generated source (`new Function`), one function per schema: closures built from a shared
// template per field count (`{ [k0]: …, [k1]: … }`) share their inline caches between schemas, and with a
// few schemas of the same size live they went megamorphic at ~1 µs a record (measured; the generated form
// stays at ~15 ns). Only field names are embedded, and only as JSON string literals (JSON.stringify
// escapes quotes, backslashes, line terminators and lone surrogates); `__proto__` is written as a computed
// key, so it is an own field like any other and never sets the prototype. Nothing else reaches the source.
import type { RecordValues, Value } from './values.js';

/** Reads one field's value from the two arguments a codec passes (e.g. the payload and its scan). */
export type FieldRead<A, B> = (a: A, b: B) => Value;

const PROTO = '__proto__';

/** `name` as a property key of an object literal in generated source. */
function keyOf(name: string): string {
  const literal = JSON.stringify(name);
  return name === PROTO ? `[${literal}]` : literal;
}

/** Reading own field `name` of the record `i` in generated source (`__proto__` only when it is own). */
function readOf(name: string): string {
  const literal = JSON.stringify(name);
  return name === PROTO ? `Object.getOwnPropertyDescriptor(i, ${literal})?.value` : `i[${literal}]`;
}

/**
 * A function making the record `{ names[0]: reads[0](a, b), … }`, fields in schema order; one per schema,
 * so that its calls and its result's shape are its own.
 */
export function readingLiteral<A, B>(
  names: readonly string[],
  reads: readonly FieldRead<A, B>[],
): (a: A, b: B) => RecordValues {
  if (reads.length !== names.length) throw new RangeError('one read per field name');
  const bind = names.map((_, index) => `const r${index} = reads[${index}];`).join(' ');
  const fields = names.map((name, index) => `${keyOf(name)}: r${index}(a, b)`).join(', ');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- only JSON-quoted field names, see above
  const make = new Function('reads', `"use strict"; ${bind} return (a, b) => ({ ${fields} });`) as (
    reads: readonly FieldRead<A, B>[],
  ) => (a: A, b: B) => RecordValues;
  return make(reads);
}

/** A record without fields to read from: every inherited field reads as null (no prototype to find). */
const NO_INPUT: Readonly<RecordValues> = Object.freeze(Object.create(null) as RecordValues);

/**
 * A function making the record of `names` (schema order) from an input record: the fields in `inherit`
 * are copied (a field the input lacks is null), the others are null; without input all are null.
 */
export function inheritingLiteral(
  names: readonly string[],
  inherit: ReadonlySet<string>,
): (input: Readonly<RecordValues> | undefined) => RecordValues {
  const fields = names
    .map((name) => `${keyOf(name)}: ${inherit.has(name) ? `${readOf(name)} ?? null` : 'null'}`)
    .join(', ');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- only JSON-quoted field names, see above
  const make = new Function(
    'none',
    `"use strict"; return (input) => { const i = input ?? none; return { ${fields} }; };`,
  ) as (none: Readonly<RecordValues>) => (input: Readonly<RecordValues> | undefined) => RecordValues;
  return make(NO_INPUT);
}

/** A function returning the index in `names` of the first field that is null in a record, or -1. */
export function requiredCheck(names: readonly string[]): (record: Readonly<RecordValues>) => number {
  if (names.length === 0) return () => -1;
  const tests = names.map((name, index) => `${readOf(name)} === null ? ${index} : `).join('');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- only JSON-quoted field names, see above
  return new Function('i', `"use strict"; return ${tests}-1;`) as (record: Readonly<RecordValues>) => number;
}
