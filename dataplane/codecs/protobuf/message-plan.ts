// What the two walkers need to know about a message, worked out once per protobufjs Type and cached: its
// fields in declaration order (the order the view writes), lookups by number (decoding) and by name
// (encoding), each field's kind, wire type, presence, oneof and the JSON text of its key and default.
// Plans are built with a work list, not recursion, so recursive and deeply chained types are fine.
import type protobuf from 'protobufjs';
import { protobufjs } from './protobufjs.js';
import { Kind, isPackable, scalarDefaultText, scalarKind, wireTypeOf } from './scalar-kinds.js';

export const Shape = { Single: 0, Repeated: 1, Map: 2 } as const;
export type Shape = (typeof Shape)[keyof typeof Shape];

export interface EnumPlan {
  /** Fully qualified, without the leading dot. */
  readonly name: string;
  /** JSON text of the name for each number; the first declared name when aliases share one. */
  readonly textByNumber: ReadonlyMap<number, string>;
  /** The same names as strings. */
  readonly nameByNumber: ReadonlyMap<number, string>;
  readonly numberByName: ReadonlyMap<string, number>;
}

/** One value's type: a field's element type, or a map's key or value type. */
export interface ValuePlan {
  readonly kind: Kind;
  readonly wireType: number;
  /** For reasons: `int64`, `enum shop.v1.Status`, `message shop.v1.Item`; of a repeated field, its elements. */
  readonly typeName: string;
  /** View text of the default value (`0`, `""`, the enum's zero name, `{}` for a message). */
  readonly defaultText: string;
  /** The default as a value: a scalar; null for a message (an empty message is built, never shared). */
  readonly defaultValue: null | boolean | number | string;
  readonly enumPlan: EnumPlan | undefined;
  readonly message: MessagePlan | undefined;
}

export interface FieldPlan extends ValuePlan {
  readonly name: string;
  readonly id: number;
  /** Position in the message's fields and in a decoded message's slots. */
  readonly index: number;
  readonly shape: Shape;
  /** A repeated scalar that may arrive packed (it may always arrive unpacked too). */
  readonly packable: boolean;
  /** Whether fromJsonView writes it packed. */
  readonly packed: boolean;
  /** Set or not set is known (proto3 `optional`, oneof members, messages): unset fields stay out of the view. */
  readonly presence: boolean;
  /** `"name":` */
  readonly keyText: string;
  /** Index in the message's oneofs, −1 for none (proto3 `optional` counts as none). */
  readonly oneof: number;
  /** Slot indices of the other members of its oneof: setting this field clears them. */
  readonly siblings: readonly number[];
  readonly mapKey: ValuePlan | undefined;
  readonly mapValue: ValuePlan | undefined;
}

export interface MessagePlan {
  readonly name: string;
  readonly fields: FieldPlan[];
  /** Fields by number below DENSE_IDS (an array index is the fastest lookup); the rest in `byId`. */
  readonly dense: (FieldPlan | undefined)[];
  readonly byId: Map<number, FieldPlan>;
  readonly byName: Map<string, FieldPlan>;
  readonly oneofs: string[];
}

const DENSE_IDS = 1024;

/** The field with this number, if the message declares one. */
export function fieldById(plan: MessagePlan, id: number): FieldPlan | undefined {
  return id < plan.dense.length ? plan.dense[id] : plan.byId.get(id);
}

const plans = new WeakMap<protobuf.Type, MessagePlan>();
const enums = new WeakMap<protobuf.Enum, EnumPlan>();

type Shell = (type: protobuf.Type) => MessagePlan;

/** The plan of a message type. Throws for a type the view cannot carry (a proto2 group). */
export function planFor(type: protobuf.Type): MessagePlan {
  const known = plans.get(type);
  if (known !== undefined) return known;
  const fresh = new Map<protobuf.Type, MessagePlan>();
  const work: protobuf.Type[] = [];
  const shell: Shell = (next) => {
    let plan = plans.get(next) ?? fresh.get(next);
    if (plan === undefined) {
      plan = { name: fullName(next), fields: [], dense: [], byId: new Map(), byName: new Map(), oneofs: [] };
      fresh.set(next, plan);
      work.push(next);
    }
    return plan;
  };
  const root = shell(type);
  for (let next = work.pop(); next !== undefined; next = work.pop()) fill(next, shell(next), shell);
  // Cached only when every reachable type planned, so a refused type leaves no half-built plans behind.
  for (const [planned, plan] of fresh) plans.set(planned, plan);
  return root;
}

function fill(type: protobuf.Type, plan: MessagePlan, shell: Shell): void {
  const oneofs = type.oneofsArray.filter((oneof) => !oneof.isProto3Optional);
  plan.oneofs.push(...oneofs.map((oneof) => oneof.name));
  // Extension fields (declaringField set) are left out: the view treats them as unknown fields.
  const declared = type.fieldsArray.filter((field) => field.declaringField === null);
  declared.forEach((field, index) => {
    field.resolve();
    if (field.delimited) {
      throw new Error(
        `field ${field.name} of message ${plan.name} is a group, which the JSON view does not carry`,
      );
    }
    const oneof = field.partOf === null ? -1 : oneofs.indexOf(field.partOf);
    const siblings =
      oneof < 0 ? [] : declared.filter((other) => other !== field && other.partOf === field.partOf);
    const made = fieldPlan(field, index, oneof, shell);
    plan.fields.push({ ...made, siblings: siblings.map((other) => declared.indexOf(other)) });
  });
  const maxDense = Math.max(0, ...plan.fields.map((field) => field.id).filter((id) => id < DENSE_IDS));
  plan.dense.push(...Array.from({ length: maxDense + 1 }, () => undefined));
  for (const field of plan.fields) {
    if (field.id < DENSE_IDS) plan.dense[field.id] = field;
    else plan.byId.set(field.id, field);
    plan.byName.set(field.name, field);
  }
}

function fieldPlan(
  field: protobuf.Field,
  index: number,
  oneof: number,
  shell: Shell,
): Omit<FieldPlan, 'siblings'> {
  const value = valuePlan(field.type, field.resolvedType, shell);
  const map = field instanceof protobufjs().MapField;
  const shape = map ? Shape.Map : field.repeated ? Shape.Repeated : Shape.Single;
  const packable = shape === Shape.Repeated && isPackable(value.kind);
  return {
    ...value,
    ...shapeTexts(
      shape,
      map ? `map<${field.keyType}, ${value.typeName}>` : value.typeName,
      value.defaultText,
    ),
    name: field.name,
    id: field.id,
    index,
    shape,
    packable,
    packed: packable && field.packed,
    presence: shape === Shape.Single && hasPresence(field, value),
    keyText: `${JSON.stringify(field.name)}:`,
    oneof,
    mapKey: map ? valuePlan(field.keyType, null, shell) : undefined,
    mapValue: map ? value : undefined,
  };
}

/** A message field always has presence; protobufjs says so for oneof members and proto3 `optional`. */
function hasPresence(field: protobuf.Field, value: ValuePlan): boolean {
  return value.kind === Kind.Message || field.partOf !== null || Boolean(field.hasPresence);
}

function shapeTexts(
  shape: Shape,
  typeName: string,
  defaultText: string,
): { typeName: string; defaultText: string } {
  if (shape === Shape.Repeated) return { typeName, defaultText: '[]' };
  return { typeName, defaultText: shape === Shape.Map ? '{}' : defaultText };
}

function valuePlan(protoType: string, resolved: protobuf.ReflectionObject | null, shell: Shell): ValuePlan {
  const scalar = scalarKind(protoType);
  if (resolved instanceof protobufjs().Type) {
    const message = shell(resolved);
    return base(Kind.Message, `message ${message.name}`, '{}', { message });
  }
  if (resolved instanceof protobufjs().Enum) {
    const enumPlan = enumPlanFor(resolved);
    return base(Kind.Enum, `enum ${enumPlan.name}`, enumPlan.textByNumber.get(0) ?? '0', { enumPlan });
  }
  if (scalar === undefined) throw new Error(`type ${protoType} is not resolved`);
  return base(scalar, protoType, scalarDefaultText(scalar), {});
}

function base(
  kind: Kind,
  typeName: string,
  defaultText: string,
  refs: { enumPlan?: EnumPlan; message?: MessagePlan },
): ValuePlan {
  return {
    kind,
    wireType: wireTypeOf(kind),
    typeName,
    defaultText,
    defaultValue: kind === Kind.Message ? null : (JSON.parse(defaultText) as string | number | boolean),
    enumPlan: refs.enumPlan,
    message: refs.message,
  };
}

function enumPlanFor(type: protobuf.Enum): EnumPlan {
  let plan = enums.get(type);
  if (plan === undefined) {
    const textByNumber = new Map<number, string>();
    const nameByNumber = new Map<number, string>();
    const numberByName = new Map<string, number>();
    for (const [name, number] of Object.entries(type.values)) {
      numberByName.set(name, number);
      if (!textByNumber.has(number)) textByNumber.set(number, JSON.stringify(name));
      if (!nameByNumber.has(number)) nameByNumber.set(number, name);
    }
    plan = { name: fullName(type), textByNumber, nameByNumber, numberByName };
    enums.set(type, plan);
  }
  return plan;
}

function fullName(object: protobuf.ReflectionObject): string {
  return object.fullName.replace(/^\./, '');
}
