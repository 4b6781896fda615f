// Walks one message on the wire into slots (write-view.ts), the way protoc parses: the last value of a
// singular field wins, a message field that occurs again merges, setting a oneof member clears the
// others, repeated scalars arrive packed or not, a map entry with a key seen before replaces the value.
// Unlike protoc, a declared field on the wrong wire type is an error, not an unknown field: it means the
// sender uses another schema. Unknown fields are skipped. Nesting is limited to MAX_NESTING.
import { TEXT_SINK, type ViewSink } from '../formats/view-sink.js';
import { Shape, fieldById, type FieldPlan, type MessagePlan, type ValuePlan } from './message-plan.js';
import { PathError, elementSegment, within } from './path-error.js';
import { Kind, Wire } from './scalar-kinds.js';
import { READ_SCALAR, type ReadScalar } from './view-scalars.js';
import { MAX_NESTING, type WireReader } from './wire-reader.js';
import { writeMessage, type Slots } from './write-view.js';

/** The slots of the message the reader holds, read to its end, each in the sink's form. */
export function readMessage<V>(plan: MessagePlan, reader: WireReader, sink: ViewSink<V>): Slots<V> {
  const slots: Slots<V> = [];
  new MessageReader(reader, sink).fields(plan, slots);
  return slots;
}

class MessageReader<V> {
  /** Messages entered so far; the top level is 0. */
  #depth = 0;

  constructor(
    private readonly reader: WireReader,
    private readonly sink: ViewSink<V>,
  ) {}

  /** Reads fields into `slots` until the reader's end. */
  fields(plan: MessagePlan, slots: Slots<V>): void {
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

  #field(field: FieldPlan, wireType: number, slots: Slots<V>): void {
    if (field.shape === Shape.Single) this.#single(field, wireType, slots);
    else if (field.shape === Shape.Repeated) this.#repeated(field, wireType, slots);
    else if (wireType === Wire.Len) this.#mapEntry(field, slots);
    else throw wrongWireType(wireType, field, Wire.Len);
  }

  #single(field: FieldPlan, wireType: number, slots: Slots<V>): void {
    if (wireType !== field.wireType) throw wrongWireType(wireType, field, field.wireType);
    for (const sibling of field.siblings) slots[sibling] = undefined;
    if (field.message === undefined) {
      slots[field.index] = this.#scalar(field);
      return;
    }
    let child = slots[field.index] as Slots<V> | undefined;
    if (child === undefined) slots[field.index] = child = [];
    this.#nested(field.message, child);
  }

  #repeated(field: FieldPlan, wireType: number, slots: Slots<V>): void {
    const reader = this.reader;
    let list = slots[field.index] as V[] | undefined;
    if (list === undefined) slots[field.index] = list = [];
    if (wireType === field.wireType) {
      list.push(field.message === undefined ? this.#scalar(field) : this.#messageView(field.message));
      return;
    }
    if (wireType !== Wire.Len || !field.packable) throw wrongWireType(wireType, field, field.wireType);
    const outer = reader.enter();
    while (reader.pos < reader.end) list.push(this.#scalar(field));
    reader.leave(outer);
  }

  /** One map entry: a small message with the key as field 1 and the value as field 2; either may be absent. */
  #mapEntry(field: FieldPlan, slots: Slots<V>): void {
    const reader = this.reader;
    const key = field.mapKey as ValuePlan;
    const value = field.mapValue as ValuePlan;
    let entries = slots[field.index] as Map<string, V> | undefined;
    if (entries === undefined) slots[field.index] = entries = new Map();
    const outer = reader.enter();
    // Keys are read as JSON text whatever the sink: they identify the entry, and a later one replaces it.
    let keyText = key.defaultText;
    let valueView: V | undefined;
    let valueSlots: Slots<V> | undefined;
    while (reader.pos < reader.end) {
      const tag = reader.varint32();
      const id = tag >>> 3;
      if (id === 1) keyText = this.#entryScalar(key, tag & 7, 'key', TEXT_SINK);
      else if (id !== 2) this.#skipUnknown(tag);
      else if (value.message === undefined) valueView = this.#entryScalar(value, tag & 7, 'value', this.sink);
      else valueSlots = this.#entryMessage(value.message, tag & 7, valueSlots ?? []);
    }
    reader.leave(outer);
    // JSON object keys are strings: an integer or bool key is quoted.
    entries.set(
      key.kind === Kind.String ? keyText : `"${keyText}"`,
      this.#entryValue(value, valueView, valueSlots),
    );
  }

  /** A map entry's value: as read, or its default when the entry has none. */
  #entryValue(value: ValuePlan, view: V | undefined, slots: Slots<V> | undefined): V {
    // A missing message value is an empty message, shown as one (its fields' defaults): the same view as a
    // value present but empty, so writing the view back and reading it again changes nothing.
    if (value.message !== undefined) return writeMessage(value.message, slots ?? [], this.sink);
    return view === undefined ? this.sink.constant(value.defaultText, value.defaultValue) : view;
  }

  #entryScalar<T>(part: ValuePlan, wireType: number, name: string, sink: ViewSink<T>): T {
    try {
      if (wireType !== part.wireType) throw wrongWireType(wireType, part, part.wireType);
      return (READ_SCALAR[part.kind] as ReadScalar)(this.reader, part, sink);
    } catch (error: unknown) {
      throw within(error, name);
    }
  }

  #entryMessage(plan: MessagePlan, wireType: number, slots: Slots<V>): Slots<V> {
    try {
      if (wireType !== Wire.Len)
        throw new PathError(`wire type ${wireType} where message ${plan.name} expects 2`);
      this.#nested(plan, slots);
      return slots;
    } catch (error: unknown) {
      throw within(error, 'value');
    }
  }

  #messageView(plan: MessagePlan): V {
    const slots: Slots<V> = [];
    this.#nested(plan, slots);
    return writeMessage(plan, slots, this.sink);
  }

  #scalar(value: ValuePlan): V {
    return (READ_SCALAR[value.kind] as ReadScalar)(this.reader, value, this.sink);
  }

  #nested(plan: MessagePlan, slots: Slots<V>): void {
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

function segmentOf<V>(field: FieldPlan, slots: Slots<V>): string {
  if (field.shape !== Shape.Repeated) return field.name;
  return elementSegment(field.name, (slots[field.index] as V[] | undefined)?.length ?? 0);
}

function wrongWireType(wireType: number, value: ValuePlan, expected: number): PathError {
  return new PathError(`wire type ${wireType} where ${value.typeName} expects wire type ${expected}`);
}
