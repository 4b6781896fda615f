// Field types of internal schemas: STRING, I64, U8, DATETIME and the rest (docs/language.md,
// "Schemas").
export const FIELD_TYPES = [
  'STRING',
  'BOOL',
  'U8',
  'U16',
  'U32',
  'U64',
  'I32',
  'I64',
  'F64',
  'DATETIME',
  'BYTES',
] as const;

export type FieldType = (typeof FIELD_TYPES)[number];

export const INTEGER_TYPES: readonly FieldType[] = ['U8', 'U16', 'U32', 'U64', 'I32', 'I64'];

/** Inclusive range of each integer type, as bigint so 64-bit bounds are exact. */
export const INTEGER_RANGES: Record<string, readonly [bigint, bigint]> = {
  U8: [0n, 255n],
  U16: [0n, 65535n],
  U32: [0n, 4294967295n],
  U64: [0n, 18446744073709551615n],
  I32: [-2147483648n, 2147483647n],
  I64: [-9223372036854775808n, 9223372036854775807n],
};

export function isIntegerType(type: FieldType): boolean {
  return INTEGER_TYPES.includes(type);
}
