// Codecs as a tagged union: what the runtime needs to decode and, where it can, encode.
import { SYSLOG_FIELDS, type GraphCodec, type JaqFormat } from '../../dataplane/graph/types.js';
import type { GraphObject } from '../api/index.js';
import type { CompileContext } from './context.js';
import { encodeProblem } from './check-emitters.js';

export function lowerCodec(ctx: CompileContext, codec: GraphObject<'Codec'>): GraphCodec {
  const { spec } = codec;
  const fields = ctx.schemaFields(spec.schema) ?? new Map();
  const canEncode = encodeProblem(codec, fields) === undefined;
  const base = { schema: spec.schema, canEncode };
  const programs = jaqPrograms(codec);
  switch (spec.from) {
    case 'WIRE_JSON': {
      const wire = spec.wireSchema === undefined ? undefined : ctx.accepted('WireSchema', spec.wireSchema);
      return {
        kind: 'wire-json',
        ...base,
        wireFields: wire?.spec.fields.map(({ name, type }) => ({ name, type })) ?? [],
      };
    }
    case 'SYSLOG':
      return { kind: 'syslog', ...base, fields: SYSLOG_FIELDS.filter((name) => fields.has(name)) };
    case 'PROTOBUF':
      return {
        kind: 'protobuf',
        ...base,
        descriptor: ctx.descriptors.get(codec.metadata.name) ?? {},
        message: spec.protobuf?.message ?? '',
        ...programs,
      };
    default:
      return { kind: 'jaq', ...base, format: spec.from satisfies JaqFormat, ...programs };
  }
}

function jaqPrograms({ spec }: GraphObject<'Codec'>): {
  ingestion: string;
  emitting?: string;
  encodeRfc3339: string[];
} {
  const ingestion = spec.jaq?.ingestion ?? '.';
  const emitting = spec.jaq?.emitting;
  const encodeRfc3339 = spec.encodeRfc3339 ?? [];
  return emitting === undefined ? { ingestion, encodeRfc3339 } : { ingestion, emitting, encodeRfc3339 };
}
