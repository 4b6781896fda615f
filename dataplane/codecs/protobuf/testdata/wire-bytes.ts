// Test support: hand-built wire bytes, for payloads no encoder would write (wrong wire types, truncations,
// duplicates, unknown fields, groups).

/** Concatenates byte chunks (numbers are single bytes). */
export function bytes(...chunks: (Uint8Array | number[] | number)[]): Uint8Array {
  const parts = chunks.map((chunk) => (typeof chunk === 'number' ? [chunk] : [...chunk]));
  return Uint8Array.from(parts.flat());
}

/** A varint of an unsigned 64-bit value (negative numbers as their 64-bit two's complement). */
export function varint(value: number | bigint): number[] {
  let rest = BigInt.asUintN(64, BigInt(value));
  const out: number[] = [];
  while (rest > 0x7fn) {
    out.push(Number(rest & 0x7fn) | 0x80);
    rest >>= 7n;
  }
  out.push(Number(rest));
  return out;
}

export function tag(field: number, wireType: number): number[] {
  return varint(field * 8 + wireType);
}

/** A length-delimited field: tag, length, content. */
export function len(field: number, ...content: (Uint8Array | number[] | number)[]): Uint8Array {
  const body = bytes(...content);
  return bytes(tag(field, 2), varint(body.length), body);
}

/** A varint field. */
export function vint(field: number, value: number | bigint): number[] {
  return [...tag(field, 0), ...varint(value)];
}

export function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
