// The proto field types the JSON view handles, as small numbers the hot loops switch on, with the wire type
// one value of each travels in and the view text of its default value.

export const Kind = {
  Double: 0,
  Float: 1,
  Int32: 2,
  Uint32: 3,
  Sint32: 4,
  Fixed32: 5,
  Sfixed32: 6,
  Int64: 7,
  Uint64: 8,
  Sint64: 9,
  Fixed64: 10,
  Sfixed64: 11,
  Bool: 12,
  String: 13,
  Bytes: 14,
  Enum: 15,
  Message: 16,
} as const;
export type Kind = (typeof Kind)[keyof typeof Kind];

/** Wire types (protobuf encoding guide). */
export const Wire = { Varint: 0, I64: 1, Len: 2, StartGroup: 3, EndGroup: 4, I32: 5 } as const;

const SCALARS: Readonly<Record<string, Kind>> = {
  double: Kind.Double,
  float: Kind.Float,
  int32: Kind.Int32,
  uint32: Kind.Uint32,
  sint32: Kind.Sint32,
  fixed32: Kind.Fixed32,
  sfixed32: Kind.Sfixed32,
  int64: Kind.Int64,
  uint64: Kind.Uint64,
  sint64: Kind.Sint64,
  fixed64: Kind.Fixed64,
  sfixed64: Kind.Sfixed64,
  bool: Kind.Bool,
  string: Kind.String,
  bytes: Kind.Bytes,
};

/** The kind of a scalar proto type name (`int64`), or undefined for an enum or message reference. */
export function scalarKind(protoType: string): Kind | undefined {
  return Object.hasOwn(SCALARS, protoType) ? SCALARS[protoType] : undefined;
}

export function wireTypeOf(kind: Kind): number {
  switch (kind) {
    case Kind.Double:
    case Kind.Fixed64:
    case Kind.Sfixed64:
      return Wire.I64;
    case Kind.Float:
    case Kind.Fixed32:
    case Kind.Sfixed32:
      return Wire.I32;
    case Kind.String:
    case Kind.Bytes:
    case Kind.Message:
      return Wire.Len;
    default:
      return Wire.Varint;
  }
}

/** Whether repeated values of this kind may be packed (every scalar but string and bytes). */
export function isPackable(kind: Kind): boolean {
  return wireTypeOf(kind) !== Wire.Len;
}

export function is64Bit(kind: Kind): boolean {
  return kind >= Kind.Int64 && kind <= Kind.Sfixed64;
}

/** View text of a scalar's default (enums and messages have their own). */
export function scalarDefaultText(kind: Kind): string {
  switch (kind) {
    case Kind.Bool:
      return 'false';
    case Kind.String:
    case Kind.Bytes:
      return '""';
    default:
      return '0';
  }
}
