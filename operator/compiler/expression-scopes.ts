// What each scope holds where an expression is written (docs/compiler.md, "Scopes"):
// `input.` the decoded or relayed record, `metadata.` what the source knows about a message, `left.` and
// `right.` in correlators, `error.` in ON MESSAGE ERROR handlers, `output.` the fields assigned so far.
import type { GraphObject } from '../api/index.js';
import type { CompileContext, RelaySchema, SchemaField } from './context.js';
import { schemaDifference, type FieldSet } from './schema-difference.js';
import type { ScopeField, ScopeFields } from './type-expression.js';

const field = (type: ScopeField['type'], nullable: boolean): ScopeField => ({
  type,
  nullable,
  sensitive: false,
});

/** `metadata.` of each ingestor kind. */
export const METADATA_FIELDS = {
  HttpIngestor: new Map<string, ScopeField>([
    // The peer of the HTTP connection (ip:port); null when the socket is already gone.
    ['remote_addr', field('STRING', true)],
    // The Host header, lower-cased with the port stripped (what the vhost matched).
    ['host', field('STRING', false)],
    // The request path (what the endpoint matched), without the query string.
    ['path', field('STRING', false)],
    // The Content-Type header, when the request has one.
    ['content_type', field('STRING', true)],
  ]),
  SyslogIngestor: new Map<string, ScopeField>([
    // Datagram source (UDP) or connection peer (TCP, TLS), as ip:port (docs/compiler.md, "Scopes").
    ['peer_addr', field('STRING', true)],
  ]),
  TopicIngestor: new Map<string, ScopeField>([
    // Where the message was read: its topic, partition and offset.
    ['topic', field('STRING', false)],
    ['partition', field('I32', false)],
    ['offset', field('I64', false)],
    // The message key as UTF-8 text; null when the message has none or it is not UTF-8.
    ['key', field('STRING', true)],
    // The message's timestamp (create or log-append time, as the topic keeps it).
    ['timestamp', field('DATETIME', false)],
  ]),
} as const;

/** What `metadata.` describes, for messages. */
const METADATA_OF: Readonly<Record<keyof typeof METADATA_FIELDS, string>> = {
  HttpIngestor: 'HTTP request',
  SyslogIngestor: 'syslog message',
  TopicIngestor: 'Kafka message',
};

/** `error.` in ON MESSAGE ERROR handlers. */
export const ERROR_FIELDS = new Map<string, ScopeField>([
  ['code', field('STRING', false)],
  ['message', field('STRING', false)],
  // The raw payload as text; null when it is not UTF-8 or the source schema has SENSITIVE fields.
  ['payload', field('STRING', true)],
]);

export function metadataScope(kind: keyof typeof METADATA_FIELDS): ScopeFields {
  return { what: `metadata of a ${METADATA_OF[kind]}`, fields: METADATA_FIELDS[kind] };
}

export function errorScope(): ScopeFields {
  return { what: 'error', fields: ERROR_FIELDS };
}

/** A scope over schema fields; `allNullable` for handler inputs, which may not have decoded at all. */
export function schemaScope(
  what: string,
  fields: ReadonlyMap<string, SchemaField>,
  allNullable = false,
): ScopeFields {
  const scope = new Map<string, ScopeField>();
  for (const [name, schemaField] of fields) {
    scope.set(name, {
      type: schemaField.type,
      nullable: allNullable || schemaField.optional,
      sensitive: schemaField.sensitive,
    });
  }
  return { what, fields: scope };
}

/** The input of an ingestor: its codec's schema. Undefined while the codec is not accepted. */
export function codecInput(
  ctx: CompileContext,
  codecName: string,
): ReadonlyMap<string, SchemaField> | undefined {
  const codec = ctx.accepted('Codec', codecName);
  return codec && ctx.schemaFields(codec.spec.schema);
}

/**
 * The input of a junction: the fields of its first relay, nullable or sensitive if so in any relay.
 * Undefined while a relay is not accepted or the relays disagree (check-junctions reports that).
 */
export function junctionInput(
  ctx: CompileContext,
  junction: GraphObject<'Junction'>,
): ReadonlyMap<string, SchemaField> | undefined {
  const schemas = junction.spec.from.map((relay) => ctx.relaySchema(relay));
  const [first] = schemas;
  if (
    first === undefined ||
    schemas.some((schema) => schema === undefined || relayDifference(first, schema))
  ) {
    return undefined;
  }
  const merged = new Map<string, SchemaField>();
  for (const [name, field] of first.fields) {
    const all = schemas.map((schema) => schema?.fields.get(name));
    merged.set(name, {
      ...field,
      optional: all.some((f) => f === undefined || f.optional),
      sensitive: all.some((f) => f?.sensitive === true),
    });
  }
  return merged;
}

/** A relay's fields, named for messages: `relay orders`. */
export function relayFields(relay: RelaySchema): FieldSet {
  return { what: `relay ${relay.shown.relay}`, fields: relay.fields };
}

/** How two relays merged by a junction differ in field names or types, or undefined when they agree. */
export function relayDifference(a: RelaySchema, b: RelaySchema): string | undefined {
  return schemaDifference(relayFields(a), relayFields(b), 'same-types');
}
