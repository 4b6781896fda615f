// The way back (ON EMITTING; docs/codecs-protobuf.md): the value the emitting program yields, read as the
// message's JSON view and encoded as the message. Strict, because a value the view would never hold is a
// mistake in the program: an unknown key, a JSON type that does not fit, an integer out of range or with a
// fraction, an unknown enum name, text that is not base64 — each is one message error (SR3008) naming the
// field path and the expected type. Null means "not set". Fields go on the wire in the order of the keys.
import type protobuf from 'protobufjs';
import { type MessageError, messageError } from '../../core/errors.js';
import { jsonKind } from '../json-kind.js';
import type { JsonObject, JsonValue } from '../json-value.js';
import { Shape, planFor, type FieldPlan, type MessagePlan, type ValuePlan } from './message-plan.js';
import { PathError, within } from './path-error.js';
import { Kind, Wire } from './scalar-kinds.js';
import { CONVERT, integerKeyOf, type WireValue } from './view-values.js';
import { MAX_NESTING } from './wire-reader.js';
import { WireWriter } from './wire-writer.js';
import { isDefault, writeValue } from './write-scalars.js';

export type FromJsonViewResult = { bytes: Uint8Array } | { error: MessageError };

const writer = new WireWriter();

/** The encoded message, or one message error (SR3008). Never throws for a bad value. */
export function fromJsonView(type: protobuf.Type, value: JsonValue): FromJsonViewResult {
  const plan = planFor(type);
  writer.reset();
  try {
    writeMessage(plan, objectOf(value, plan), 0);
  } catch (error: unknown) {
    if (error instanceof PathError) return { error: error.toMessageError('SR3008') };
    // As in jsonView: a stack or an allocation that still runs out fails the value, not the codec.
    if (error instanceof RangeError) {
      return { error: messageError('SR3008', 'the value is too deep or too large to encode') };
    }
    throw error;
  }
  return { bytes: writer.finish() };
}

function writeMessage(plan: MessagePlan, object: JsonObject, depth: number): void {
  if (depth > MAX_NESTING) throw new PathError(`messages nested deeper than ${MAX_NESTING}`);
  let chosen: string[] | undefined;
  let position = 0;
  for (const key in object) {
    position += 1;
    const field = plan.byName.get(key);
    // The key came from the value (a program's output): only its position is told.
    if (field === undefined) {
      throw new PathError(`key ${position} of the object is not a field of message ${plan.name}`);
    }
    const value = object[key] as JsonValue;
    if (value === null) continue;
    if (field.oneof >= 0) chosen = choose(plan, field, chosen ?? []);
    try {
      writeField(field, value, depth);
    } catch (error: unknown) {
      throw within(error, field.name);
    }
  }
}

/** Records a oneof member as set; a second member of the same oneof is an error. */
function choose(plan: MessagePlan, field: FieldPlan, chosen: string[]): string[] {
  const other = chosen[field.oneof];
  if (other !== undefined) {
    throw new PathError(`oneof ${plan.oneofs[field.oneof]} has both ${other} and ${field.name} set`);
  }
  chosen[field.oneof] = field.name;
  return chosen;
}

function writeField(field: FieldPlan, value: JsonValue, depth: number): void {
  if (field.shape === Shape.Repeated) writeRepeated(field, value, depth);
  else if (field.shape === Shape.Map) writeMap(field, value, depth);
  else if (field.message !== undefined)
    writeNested(field, field.message, objectOf(value, field.message), depth);
  else {
    const converted = convert(field, value);
    if (field.presence || !isDefault(converted)) writeScalar(field, converted);
  }
}

function writeRepeated(field: FieldPlan, value: JsonValue, depth: number): void {
  if (!Array.isArray(value))
    throw new PathError(`expected repeated ${field.typeName} (an array), got ${jsonKind(value)}`);
  if (field.packed && value.length > 0) {
    writer.tag(field.id, Wire.Len);
    const mark = writer.begin();
    value.forEach((element, index) => {
      try {
        writeValue(writer, field.kind, convert(field, element));
      } catch (error: unknown) {
        throw within(error, `[${index}]`);
      }
    });
    writer.end(mark);
    return;
  }
  value.forEach((element, index) => {
    try {
      if (field.message !== undefined)
        writeNested(field, field.message, objectOf(element, field.message), depth);
      else writeScalar(field, convert(field, element));
    } catch (error: unknown) {
      throw within(error, `[${index}]`);
    }
  });
}

/** Each key becomes one entry: key as field 1, value as field 2, both always written (as protoc does). */
function writeMap(field: FieldPlan, value: JsonValue, depth: number): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new PathError(`expected ${field.typeName} (an object), got ${jsonKind(value)}`);
  }
  const key = field.mapKey as ValuePlan;
  const entryValue = field.mapValue as ValuePlan;
  for (const text in value) {
    writer.tag(field.id, Wire.Len);
    const mark = writer.begin();
    writeEntryKey(key, text);
    try {
      writeEntryValue(entryValue, value[text] as JsonValue, depth);
    } catch (error: unknown) {
      throw within(error, 'value');
    }
    writer.end(mark);
  }
}

function writeEntryKey(key: ValuePlan, text: string): void {
  let converted: WireValue;
  try {
    if (key.kind === Kind.String) converted = convert(key, text);
    else if (key.kind !== Kind.Bool) converted = convert(key, integerKeyOf(text, key));
    else if (text === 'true' || text === 'false') converted = text === 'true';
    else throw new PathError('expected a map key of type bool ("true" or "false"), got another string');
  } catch (error: unknown) {
    throw within(error, 'key');
  }
  writer.tag(1, key.wireType);
  writeValue(writer, key.kind, converted);
}

function writeEntryValue(value: ValuePlan, json: JsonValue, depth: number): void {
  if (value.message !== undefined) {
    writer.tag(2, Wire.Len);
    const mark = writer.begin();
    writeMessage(value.message, objectOf(json, value.message), depth + 1);
    writer.end(mark);
    return;
  }
  writer.tag(2, value.wireType);
  writeValue(writer, value.kind, convert(value, json));
}

function writeNested(field: FieldPlan, plan: MessagePlan, object: JsonObject, depth: number): void {
  writer.tag(field.id, Wire.Len);
  const mark = writer.begin();
  writeMessage(plan, object, depth + 1);
  writer.end(mark);
}

function writeScalar(field: FieldPlan, value: WireValue): void {
  writer.tag(field.id, field.wireType);
  writeValue(writer, field.kind, value);
}

function convert(plan: ValuePlan, value: JsonValue): WireValue {
  return (CONVERT[plan.kind] as (typeof CONVERT)[number])(value, plan);
}

function objectOf(value: JsonValue, plan: MessagePlan): JsonObject {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  throw new PathError(`expected message ${plan.name} (an object), got ${jsonKind(value)}`);
}
