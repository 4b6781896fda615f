// Writes a decoded message (its slots) as the view, through a sink (JSON text or values,
// formats/view-sink.ts): fields in declaration order with their proto names; a field without presence
// that was not on the wire shows its default (`0`, `""`, `[]`, `{}`, the enum's zero name); a field with
// presence that was not on the wire stays out. Scalars, repeated elements and map entries are already in
// the sink's form, so this only joins.
import type { ViewSink } from '../formats/view-sink.js';
import { Shape, type FieldPlan, type MessagePlan } from './message-plan.js';

/**
 * One decoded message: a slot per field, by FieldPlan.index. A scalar is its view, a repeated field the
 * views of its elements, a map its entries (key as JSON text → value view), a message field the slots of
 * the message (kept open because a second occurrence on the wire merges into it).
 */
export type Slot<V> = V | V[] | Map<string, V> | Slots<V> | undefined;
export type Slots<V> = Slot<V>[];

export function writeMessage<V>(plan: MessagePlan, slots: Slots<V>, sink: ViewSink<V>): V {
  let object = sink.object();
  for (const field of plan.fields) {
    const slot = slots[field.index];
    if (slot === undefined && field.presence) continue;
    const view = slot === undefined ? defaultView(field, sink) : slotView<V>(field, slot, sink);
    object = sink.entry(object, field.name, view, field.keyText);
  }
  return sink.endObject(object);
}

function defaultView<V>(field: FieldPlan, sink: ViewSink<V>): V {
  if (field.shape === Shape.Repeated) return sink.endArray(sink.array());
  if (field.shape === Shape.Map) return sink.endObject(sink.object());
  return sink.constant(field.defaultText, field.defaultValue);
}

function slotView<V>(field: FieldPlan, slot: Slot<V>, sink: ViewSink<V>): V {
  switch (field.shape) {
    case Shape.Single:
      return field.message === undefined ? (slot as V) : writeMessage(field.message, slot as Slots<V>, sink);
    case Shape.Repeated: {
      let array = sink.array();
      for (const item of slot as V[]) array = sink.item(array, item);
      return sink.endArray(array);
    }
    default: {
      let object = sink.object();
      for (const [key, value] of slot as Map<string, V>) object = sink.entryText(object, key, value);
      return sink.endObject(object);
    }
  }
}
