// Walks one message on the wire into slots (write-view.ts), the way protoc parses: the last value of a
// singular field wins, a message field that occurs again merges, setting a oneof member clears the
// others, repeated scalars arrive packed or not, a map entry with a key seen before replaces the value.
// Unlike protoc, a declared field on the wrong wire type is an error, not an unknown field: it means the
// sender uses another schema. Unknown fields are skipped. Nesting is limited to MAX_NESTING.
import { Shape, fieldById, type FieldPlan, type MessagePlan, type ValuePlan } from './message-plan.js';
import { PathError, elementSegment, within } from './path-error.js';
import { Kind, Wire } from './scalar-kinds.js';
import { READ_TEXT, type ReadText } from './view-scalars.js';
import { MAX_NESTING, type WireReader } from './wire-reader.js';
import { writeMessage, type Slots } from './write-view.js';

/** The slots of the message the reader holds, read to its end. */
export function readMessage(plan: MessagePlan, reader: WireReader): Slots {
  const slots: Slots = [];
  new MessageReader(reader).fields(plan, slots);
  return slots;
}

class MessageReader {
  /** Messages entered so far; the top level is 0. */
  #depth = 0;

  constructor(private readonly reader: WireReader) {}

  /** Reads fields into `slots` until the reader's end. */
  fields(plan: MessagePlan, slots: Slots): void {
    const reader = this.reader;
    while (reader.pos < reader.end) {
      const tag = reader.varint32();
      const field = fieldById(plan, tag >>> 3);
      if (field === undefined) {
        this.#skipUnknown(tag);
        continue;
      }
      try {
        this.#field(field, tag & 7, slots);
      } catch (error: unknown) {
        throw within(error, segmentOf(field, slots));
      }
    }
  }

  #field(field: FieldPlan, wireType: number, slots: Slots): void {
    if (field.shape === Shape.Single) this.#single(field, wireType, slots);
    else if (field.shape === Shape.Repeated) this.#repeated(field, wireType, slots);
    else if (wireType === Wire.Len) this.#mapEntry(field, slots);
    else throw wrongWireType(wireType, field, Wire.Len);
  }

  #single(field: FieldPlan, wireType: number, slots: Slots): void {
    if (wireType !== field.wireType) throw wrongWireType(wireType, field, field.wireType);
    for (const sibling of field.siblings) slots[sibling] = undefined;
    if (field.message === undefined) {
      slots[field.index] = readScalar(field, this.reader);
      return;
    }
    let child = slots[field.index] as Slots | undefined;
    if (child === undefined) slots[field.index] = child = [];
    this.#nested(field.message, child);
  }

  #repeated(field: FieldPlan, wireType: number, slots: Slots): void {
    const reader = this.reader;
    let list = slots[field.index] as string[] | undefined;
    if (list === undefined) slots[field.index] = list = [];
    if (wireType === field.wireType) {
      list.push(field.message === undefined ? readScalar(field, reader) : this.#messageText(field.message));
      return;
    }
    if (wireType !== Wire.Len || !field.packable) throw wrongWireType(wireType, field, field.wireType);
    const outer = reader.enter();
    while (reader.pos < reader.end) list.push(readScalar(field, reader));
    reader.leave(outer);
  }

  /** One map entry: a small message with the key as field 1 and the value as field 2; either may be absent. */
  #mapEntry(field: FieldPlan, slots: Slots): void {
    const reader = this.reader;
    const key = field.mapKey as ValuePlan;
    const value = field.mapValue as ValuePlan;
    let entries = slots[field.index] as Map<string, string> | undefined;
    if (entries === undefined) slots[field.index] = entries = new Map();
    const outer = reader.enter();
    let keyText = key.defaultText;
    let valueText = value.defaultText;
    let valueSlots: Slots | undefined;
    while (reader.pos < reader.end) {
      const tag = reader.varint32();
      const id = tag >>> 3;
      if (id === 1) keyText = this.#entryScalar(key, tag & 7, 'key');
      else if (id !== 2) this.#skipUnknown(tag);
      else if (value.message === undefined) valueText = this.#entryScalar(value, tag & 7, 'value');
      else valueSlots = this.#entryMessage(value.message, tag & 7, valueSlots ?? []);
    }
    reader.leave(outer);
    // A missing message value is an empty message, shown as one (its fields' defaults): the same view as a
    // value present but empty, so writing the view back and reading it again changes nothing.
    if (value.message !== undefined) valueText = writeMessage(value.message, valueSlots ?? []);
    // JSON object keys are strings: an integer or bool key is quoted.
    entries.set(key.kind === Kind.String ? keyText : `"${keyText}"`, valueText);
  }

  #entryScalar(part: ValuePlan, wireType: number, name: string): string {
    try {
      if (wireType !== part.wireType) throw wrongWireType(wireType, part, part.wireType);
      return readScalar(part, this.reader);
    } catch (error: unknown) {
      throw within(error, name);
    }
  }

  #entryMessage(plan: MessagePlan, wireType: number, slots: Slots): Slots {
    try {
      if (wireType !== Wire.Len)
        throw new PathError(`wire type ${wireType} where message ${plan.name} expects 2`);
      this.#nested(plan, slots);
      return slots;
    } catch (error: unknown) {
      throw within(error, 'value');
    }
  }

  #messageText(plan: MessagePlan): string {
    const slots: Slots = [];
    this.#nested(plan, slots);
    return writeMessage(plan, slots);
  }

  #nested(plan: MessagePlan, slots: Slots): void {
    if (++this.#depth > MAX_NESTING) throw new PathError(`messages nested deeper than ${MAX_NESTING}`);
    const outer = this.reader.enter();
    this.fields(plan, slots);
    this.reader.leave(outer);
    this.#depth--;
  }

  #skipUnknown(tag: number): void {
    const id = tag >>> 3;
    if (id === 0) throw new PathError('field number 0, which no message has');
    try {
      this.reader.skip(tag & 7, id, this.#depth);
    } catch (error: unknown) {
      // The field number is the payload's, not the .proto's: the path says only that it is unknown.
      throw within(error, UNKNOWN_FIELD);
    }
  }
}

/** The path segment of a field the message does not declare. */
const UNKNOWN_FIELD = '(an unknown field)';

function readScalar(value: ValuePlan, reader: WireReader): string {
  return (READ_TEXT[value.kind] as ReadText)(reader, value);
}

function segmentOf(field: FieldPlan, slots: Slots): string {
  if (field.shape !== Shape.Repeated) return field.name;
  return elementSegment(field.name, (slots[field.index] as string[] | undefined)?.length ?? 0);
}

function wrongWireType(wireType: number, value: ValuePlan, expected: number): PathError {
  return new PathError(`wire type ${wireType} where ${value.typeName} expects wire type ${expected}`);
}
