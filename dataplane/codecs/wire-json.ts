// The JSON wire-schema codec, MODE STRICT (docs/runtime.md, "JSON wire-schema codec (MODE STRICT)"): one body
// is one JSON object is one record. Every key of the wire schema must be there with its wire type (`string`,
// `integer`), and no other key may be; a wire field the schema lacks is read and dropped, a schema field the
// wire schema lacks is null. Integers are exact (json-numbers.ts) and range-checked into the field's type;
// `string` feeds STRING, or DATETIME as RFC 3339 text. Null is accepted only where the record may hold it (an
// OPTIONAL field, or a wire field the schema drops). Decisions: docs/runtime.md ("JSON wire-schema codec").
import type { GraphCodec, GraphField, GraphSchema, WireType } from '../graph/types.js';
import { RecordError, messageError, quoteGraphName } from '../core/errors.js';
import type { RecordValues } from '../core/values.js';
import type { Codec, CodecFactory, DecodeResult, EncodeResult } from './codec.js';
import { NumberText, needsExactParse, parseExact } from './json-numbers.js';
import { wireReader, wireWriter, type WireRead, type WireWrite } from './wire-values.js';
import { readingRecordsInOrder } from './reading/records-in-order.js';

type WireJsonCodec = Extract<GraphCodec, { kind: 'wire-json' }>;

/** One key of the wire schema, with the schema field it feeds (if any). */
interface Slot {
  key: string;
  wire: WireType;
  field: GraphField | undefined;
  read: WireRead;
  write: WireWrite;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();

export const createWireJsonCodec: CodecFactory<'wire-json'> = (codec, schema) => {
  const decoder = wireJsonDecoder(codec, schema);
  return 'unsupported' in decoder
    ? decoder
    : readingRecordsInOrder(decoder, { kind: 'wire-json', codec, schema });
};

/** The codec reading on the calling thread, whatever the payload's size (a payload reader runs this). */
export function wireJsonDecoder(
  codec: WireJsonCodec,
  schema: GraphSchema,
): (Omit<Codec, 'decode'> & { decode(payload: Uint8Array): DecodeResult }) | { unsupported: string } {
  const fields = new Map(schema.fields.map((field) => [field.name, field]));
  const slots = new Map<string, Slot>();
  for (const { name, type } of codec.wireFields) {
    const field = fields.get(name);
    const read = wireReader(type, field, `key ${quoteGraphName(name)}`);
    if (typeof read === 'string') return { unsupported: read };
    slots.set(name, { key: name, wire: type, field, read, write: wireWriter(type, field) });
  }
  const unfilled = schema.fields.filter((field) => !slots.has(field.name));
  const required = unfilled.find((field) => !field.optional);
  if (required !== undefined) {
    return { unsupported: `schema field ${required.name} is not OPTIONAL and the wire schema lacks it` };
  }
  return new WireJson(schema, [...slots.values()], unfilled);
}

class WireJson implements Codec {
  readonly kind = 'wire-json' as const;
  private readonly byKey: Map<string, Slot>;
  private readonly integerKeys: string[];

  constructor(
    readonly schema: GraphSchema,
    private readonly slots: readonly Slot[],
    private readonly unfilled: readonly GraphField[],
  ) {
    this.byKey = new Map(slots.map((slot) => [slot.key, slot]));
    this.integerKeys = slots.filter((slot) => slot.wire === 'integer').map((slot) => slot.key);
  }

  decode(payload: Uint8Array): DecodeResult {
    let text: string;
    try {
      text = utf8.decode(payload);
    } catch {
      return { error: messageError('SR3001', 'the payload is not valid UTF-8') };
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
      if (this.lostPrecision(body)) body = parseExact(text);
    } catch {
      return { error: messageError('SR3002', 'the payload is not valid JSON') };
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return { error: messageError('SR3002', `the payload is ${jsonKind(body)}, not a JSON object`) };
    }
    try {
      return { records: [this.record(body as Record<string, unknown>)] };
    } catch (error: unknown) {
      if (error instanceof RecordError) return { error: error.toMessageError() };
      throw error;
    }
  }

  encode(record: Readonly<RecordValues>): EncodeResult {
    let text = '{';
    try {
      this.slots.forEach((slot, index) => {
        const value = slot.field === undefined ? null : (record[slot.field.name] ?? null);
        text += `${index === 0 ? '' : ','}${JSON.stringify(slot.key)}:${slot.write(value)}`;
      });
    } catch (error: unknown) {
      if (error instanceof RecordError) return { error: error.toMessageError() };
      throw error;
    }
    return { bytes: encoder.encode(`${text}}`) };
  }

  /** Whether JSON.parse may have rounded an integer key's number (then the body is parsed exactly). */
  private lostPrecision(body: unknown): boolean {
    if (typeof body !== 'object' || body === null) return false;
    for (const key of this.integerKeys) {
      const value = (body as Record<string, unknown>)[key];
      if (typeof value === 'number' && needsExactParse(value)) return true;
    }
    return false;
  }

  private record(body: Record<string, unknown>): RecordValues {
    const record: RecordValues = {};
    for (const field of this.unfilled) record[field.name] = null;
    let seen = 0;
    for (const key in body) {
      // The key is the payload's: only its position is told.
      if (!this.byKey.has(key)) throw unknownKey(seen + 1);
      seen += 1;
    }
    for (const slot of this.slots) {
      if (seen < this.slots.length && !Object.hasOwn(body, slot.key)) {
        throw new RecordError('SR3003', `key ${quoteGraphName(slot.key)} is missing`, { field: slot.key });
      }
      const value = readSlot(slot, body[slot.key]);
      if (slot.field !== undefined) record[slot.field.name] = value;
    }
    return record;
  }
}

/** A wire key's value; a RecordError names the key (a wire-schema name) in its detail. */
function readSlot(slot: Slot, json: unknown): ReturnType<WireRead> {
  try {
    return slot.read(json);
  } catch (error: unknown) {
    if (error instanceof RecordError && error.detail === undefined)
      throw new RecordError(error.code, error.reason, { field: slot.key });
    throw error;
  }
}

/** SR3004 for the key at 1-based `position` of the body, which the wire schema does not declare. */
function unknownKey(position: number): RecordError {
  return new RecordError('SR3004', `key ${position} of the object is not in the wire schema`, {
    keyPosition: position,
  });
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'a JSON array';
  if (value === null) return 'JSON null';
  if (value instanceof NumberText) return 'a JSON number';
  return `a JSON ${typeof value}`;
}
