// Codecs as a tagged union: what the runtime needs to decode and, where it can, encode.
import { SYSLOG_FIELDS, type GraphCodec, type JaqFormat } from '../../dataplane/graph/types.js';
import type { GraphObject } from '../api/index.js';
import type { CompileContext } from './context.js';
import { encodeProblem } from './check-emitters.js';
import { required } from './internal-error.js';

export function lowerCodec(ctx: CompileContext, codec: GraphObject<'Codec'>): GraphCodec {
  const { spec } = codec;
  const fields = required(ctx.schemaFields(spec.schema), codec, `schema ${spec.schema}`);
  const canEncode = encodeProblem(codec, fields) === undefined;
  const base = { schema: spec.schema, canEncode };
  switch (spec.from) {
    case 'WIRE_JSON': {
      const name = required(spec.wireSchema, codec, 'its wire schema');
      const wire = required(ctx.accepted('WireSchema', name), codec, `wire schema ${name}`);
      return {
        kind: 'wire-json',
        ...base,
        wireFields: wire.spec.fields.map(({ name, type }) => ({ name, type })),
      };
    }
    case 'SYSLOG':
      return { kind: 'syslog', ...base, fields: SYSLOG_FIELDS.filter((name) => fields.has(name)) };
    case 'PROTOBUF': {
      const resolved = required(ctx.descriptors.get(codec.metadata.name), codec, 'its protobuf message');
      return { kind: 'protobuf', ...base, ...resolved, ...jaqPrograms(codec) };
    }
    default:
      return { kind: 'jaq', ...base, format: spec.from satisfies JaqFormat, ...jaqPrograms(codec) };
  }
}

function jaqPrograms(codec: GraphObject<'Codec'>): {
  ingestion: string;
  emitting?: string;
  encodeRfc3339: string[];
} {
  const { ingestion, emitting } = required(codec.spec.jaq, codec, 'its JAQ programs');
  const encodeRfc3339 = codec.spec.encodeRfc3339 ?? [];
  return emitting === undefined ? { ingestion, encodeRfc3339 } : { ingestion, emitting, encodeRfc3339 };
}
