// Emitters: the codec can encode — a JAQ or protobuf codec needs ON EMITTING (SR2014), a SYSLOG codec
// needs facility, severity and message in its schema (SR2013), a wire JSON codec always can — and the
// codec's schema fits the records of the relay (SR2019): each of its fields is a relay field of the same
// type, never null where the codec's schema does not allow it.
import { displayName } from '../api/display-names.js';
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext, type RelaySchema, type SchemaField } from './context.js';
import { relayFields } from './expression-scopes.js';
import { schemaDifference } from './schema-difference.js';

const SYSLOG_ENCODE_FIELDS = ['facility', 'severity', 'message'] as const;

/** Why a codec cannot encode, with the code to report; undefined if it can. */
export function encodeProblem(
  codec: GraphObject<'Codec'>,
  fields: ReadonlyMap<string, SchemaField>,
  schemaShown = codec.spec.schema,
): { code: 'SR2013' | 'SR2014'; message: string } | undefined {
  if (codec.spec.from === 'SYSLOG') {
    const missing = SYSLOG_ENCODE_FIELDS.filter((name) => !fields.has(name));
    if (missing.length === 0) return undefined;
    return {
      code: 'SR2013',
      message: `SYSLOG codec ${displayName(codec)} cannot encode: schema ${schemaShown} lacks ${missing.join(', ')} (encoding needs facility, severity and message)`,
    };
  }
  if (codec.spec.jaq !== undefined && codec.spec.jaq.emitting === undefined) {
    return {
      code: 'SR2014',
      message: `codec ${displayName(codec)} has only an ON INGESTION program and cannot encode; add ON EMITTING <program>`,
    };
  }
  return undefined;
}

export function checkEmitters(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    if (object.kind !== 'Emitter') continue;
    const codec = ctx.accepted('Codec', object.spec.codec);
    const fields = codec && ctx.schemaFields(codec.spec.schema);
    if (codec === undefined || fields === undefined) continue;
    const problem = encodeProblem(codec, fields, ctx.show('Schema', codec.spec.schema));
    if (problem !== undefined) {
      ctx.report(keyOf(object), problem.code, 'spec.codec', `${label(object)}: ${problem.message}`);
    }
    const relay = ctx.relaySchema(object.spec.from);
    if (relay !== undefined) checkFit(ctx, object, codec, relay);
  }
}

function checkFit(
  ctx: CompileContext,
  emitter: GraphObject<'Emitter'>,
  codec: GraphObject<'Codec'>,
  relay: RelaySchema,
): void {
  const fields = ctx.schemaFields(codec.spec.schema);
  if (fields === undefined) return;
  const schema = ctx.show('Schema', codec.spec.schema);
  const codecFields = { what: `schema ${schema}`, fields };
  const mismatch = schemaDifference(codecFields, relayFields(relay), 'carries');
  if (mismatch === undefined) return;
  ctx.report(
    keyOf(emitter),
    'SR2019',
    'spec.codec',
    `${label(emitter)}: codec ${displayName(codec)} encodes schema ${schema}, which does not fit the records of relay ${relay.shown.relay} (schema ${relay.shown.schema}): ${mismatch}`,
  );
}
