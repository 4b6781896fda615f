// Writes a decoded message (its slots) as JSON text: fields in declaration order with their proto names;
// a field without presence that was not on the wire shows its default (`0`, `""`, `[]`, `{}`, the enum's
// zero name); a field with presence that was not on the wire stays out. Scalars, repeated elements and
// map entries are already JSON text, so this only joins.
import { Shape, type FieldPlan, type MessagePlan } from './message-plan.js';

/**
 * One decoded message: a slot per field, by FieldPlan.index. A scalar is its JSON text, a repeated field
 * the texts of its elements, a map its entries (key text → value text), a message field the slots of the
 * message (kept open because a second occurrence on the wire merges into it).
 */
export type Slot = string | string[] | Map<string, string> | Slots | undefined;
export type Slots = Slot[];

export function writeMessage(plan: MessagePlan, slots: Slots): string {
  let text = '{';
  let separator = '';
  for (const field of plan.fields) {
    const slot = slots[field.index];
    if (slot === undefined && field.presence) continue;
    text += separator + field.keyText + (slot === undefined ? field.defaultText : slotText(field, slot));
    separator = ',';
  }
  return `${text}}`;
}

function slotText(field: FieldPlan, slot: Exclude<Slot, undefined>): string {
  switch (field.shape) {
    case Shape.Single:
      return field.message === undefined ? (slot as string) : writeMessage(field.message, slot as Slots);
    case Shape.Repeated:
      return `[${(slot as string[]).join(',')}]`;
    default:
      return mapText(slot as Map<string, string>);
  }
}

function mapText(entries: Map<string, string>): string {
  let text = '{';
  let separator = '';
  for (const [key, value] of entries) {
    text += `${separator}${key}:${value}`;
    separator = ',';
  }
  return `${text}}`;
}
