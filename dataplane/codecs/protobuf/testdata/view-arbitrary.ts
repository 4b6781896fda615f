// Test support: fast-check arbitraries of JSON views in their canonical form — exactly what jsonView
// writes, parsed with parseJsonValue — generated from a message plan: every field without presence
// present, fields with presence sometimes, at most one member per oneof, floats in their shortest text,
// enums by their first name (unknown numbers as numbers), 64-bit integers as bigint beyond 2^53.
import fc from 'fast-check';
import type { JsonObject, JsonValue } from '../../json-value.js';
import { Shape, type FieldPlan, type MessagePlan, type ValuePlan } from '../message-plan.js';
import { Kind } from '../scalar-kinds.js';
import { floatText } from '../view-scalars.js';

type Arb = fc.Arbitrary<JsonValue>;

const int = (min: number, max: number): Arb => fc.integer({ min, max });
const exact = (value: bigint): JsonValue => (Number.isSafeInteger(Number(value)) ? Number(value) : value);
const edges = [0n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) - 1n];
const long = (min: bigint, max: bigint): Arb =>
  fc
    .oneof(fc.bigInt({ min, max }), fc.constantFrom(min, max, ...edges.filter((v) => v >= min && v <= max)))
    .map(exact);
const special = (value: number): JsonValue =>
  Number.isNaN(value) ? 'NaN' : value === Infinity ? 'Infinity' : value === -Infinity ? '-Infinity' : value;

const INT32 = int(-(2 ** 31), 2 ** 31 - 1);
const UINT32 = int(0, 2 ** 32 - 1);
const INT64 = long(-(2n ** 63n), 2n ** 63n - 1n);
const UINT64 = long(0n, 2n ** 64n - 1n);

/** Indexed by Kind (enums and messages have their own). */
const SCALARS: readonly Arb[] = [
  fc.double().map(special),
  fc.float().map((f) => (Number.isFinite(f) ? (JSON.parse(floatText(f)) as number) : special(f))),
  INT32,
  UINT32,
  INT32,
  UINT32,
  INT32,
  INT64,
  UINT64,
  INT64,
  UINT64,
  INT64,
  fc.boolean(),
  fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 8 })),
  fc.uint8Array({ maxLength: 12 }).map((bytes) => Buffer.from(bytes).toString('base64')),
];

function scalar(value: ValuePlan): Arb {
  return value.kind === Kind.Enum ? enumValue(value) : (SCALARS[value.kind] as Arb);
}

function enumValue(value: ValuePlan): Arb {
  const names = new Map<number, string>();
  for (const [number, text] of value.enumPlan?.textByNumber ?? [])
    names.set(number, JSON.parse(text) as string);
  const byNumber = (number: JsonValue): JsonValue => names.get(number as number) ?? number;
  return fc.oneof(fc.constantFrom(...names.keys()), INT32).map(byNumber);
}

function mapKey(key: ValuePlan): fc.Arbitrary<string> {
  if (key.kind === Kind.String) return fc.string({ maxLength: 6 });
  if (key.kind === Kind.Bool) return fc.constantFrom('true', 'false');
  return (scalar(key) as fc.Arbitrary<number | bigint>).map(String);
}

function valueOf(value: ValuePlan, depth: number): Arb {
  return value.message === undefined ? scalar(value) : message(value.message, depth + 1);
}

function fieldValue(field: FieldPlan, depth: number): Arb {
  if (field.shape === Shape.Repeated) return fc.array(valueOf(field, depth), { maxLength: 3 });
  if (field.shape === Shape.Map) {
    const options = { maxKeys: 3, noNullPrototype: true };
    return fc.dictionary(
      mapKey(field.mapKey as ValuePlan),
      valueOf(field.mapValue as ValuePlan, depth),
      options,
    );
  }
  return valueOf(field, depth);
}

/** Recursive types stop at `MAX_DEPTH`: below it, message fields are left out and lists are empty. */
const MAX_DEPTH = 3;

export function message(plan: MessagePlan, depth = 0): fc.Arbitrary<JsonObject> {
  const usable = plan.fields.filter(
    (field) => depth < MAX_DEPTH || field.message === undefined || field.shape !== Shape.Single,
  );
  const plain = usable.filter((field) => field.oneof < 0);
  const model: Record<string, Arb> = {};
  for (const field of plain) {
    const bounded =
      depth >= MAX_DEPTH && field.message !== undefined
        ? fc.constant(field.shape === Shape.Map ? {} : [])
        : fieldValue(field, depth);
    model[field.name] = bounded;
  }
  const required = plain.filter((field) => !field.presence).map((field) => field.name);
  const record = fc.record(model, { requiredKeys: required, noNullPrototype: true });
  const members = usable.filter((field) => field.oneof >= 0);
  if (members.length === 0) return record;
  const member = fc.option(
    fc.oneof(...members.map((field) => fieldValue(field, depth).map((value) => ({ [field.name]: value })))),
    { nil: {} },
  );
  return fc.tuple(record, member).map(([fields, chosen]) => ({ ...fields, ...chosen }));
}

/** Floats and doubles: a bigint in the parsed view (an integral double written without exponent) is that double. */
export function normalise(value: JsonValue, plan: MessagePlan): JsonValue {
  const out: JsonObject = {};
  for (const [key, entry] of Object.entries(value as JsonObject)) {
    const field = plan.byName.get(key);
    out[key] = field === undefined ? entry : normaliseField(entry, field);
  }
  return out;
}

function normaliseField(value: JsonValue, field: FieldPlan): JsonValue {
  if (field.shape === Shape.Repeated)
    return (value as JsonValue[]).map((element) => normaliseValue(element, field));
  if (field.shape !== Shape.Map) return normaliseValue(value, field);
  const entries = Object.entries(value as JsonObject).map(([key, entry]) => [
    key,
    normaliseValue(entry, field.mapValue as ValuePlan),
  ]);
  return Object.fromEntries(entries) as JsonObject;
}

function normaliseValue(value: JsonValue, plan: ValuePlan): JsonValue {
  if (plan.message !== undefined) return normalise(value, plan.message);
  const floating = plan.kind === Kind.Double || plan.kind === Kind.Float;
  return floating && typeof value === 'bigint' ? Number(value) : value;
}
