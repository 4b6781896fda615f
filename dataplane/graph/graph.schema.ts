// JSON Schema (draft-07, for ajv) of the Graph in types.ts. Strict: every object closes with
// additionalProperties: false, so a graph from a newer or broken compiler is refused rather than half-read.
import { BINARY_OPERATORS, FUNCTIONS } from './expression.js';
import { FIELD_TYPES } from './field-types.js';
import { DISPLAY_RECORDS, GRAPH_API_VERSION, SYSLOG_FIELDS } from './types.js';

type JsonSchema = Record<string, unknown>;

const NAME = '^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$';
/** A domain is a Kubernetes namespace: a DNS label. */
const DOMAIN = '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$';
const FIELD = '^[A-Za-z_][A-Za-z0-9_]*$';
/** A statement identifier as written (or a resource name). */
const DISPLAY = '^[A-Za-z][A-Za-z0-9_-]{0,62}$';

const ref = (name: string): JsonSchema => ({ $ref: `#/definitions/${name}` });
const closed = (properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
  additionalProperties: false,
});
const tagged = (tag: string, variants: JsonSchema[]): JsonSchema => ({
  type: 'object',
  discriminator: { propertyName: tag },
  required: [tag],
  oneOf: variants,
});
const records = (item: JsonSchema): JsonSchema => ({
  type: 'object',
  propertyNames: { pattern: NAME },
  additionalProperties: item,
});
const constant = (value: string): JsonSchema => ({ const: value });
const oneOfStrings = (values: readonly string[]): JsonSchema => ({ type: 'string', enum: [...values] });
const name: JsonSchema = { type: 'string', pattern: NAME };
const fieldName: JsonSchema = { type: 'string', pattern: FIELD };
const text: JsonSchema = { type: 'string', minLength: 1 };
const positive: JsonSchema = { type: 'integer', minimum: 1 };
const millis: JsonSchema = { type: 'integer', minimum: 0 };
const names: JsonSchema = { type: 'array', items: name };
const fieldNames: JsonSchema = { type: 'array', items: fieldName, uniqueItems: true };
const branching = constant('UNBRANCHED');

const exprTyping = { type: oneOfStrings([...FIELD_TYPES, 'NULL']), nullable: { type: 'boolean' } };
const span = closed({ start: millis, end: millis });
const exprVariant = (kind: string, properties: Record<string, JsonSchema>): JsonSchema =>
  closed({ kind: constant(kind), ...properties, ...exprTyping, span }, ['span']);

const expr = tagged('kind', [
  exprVariant('literal', {
    literal: oneOfStrings(['STRING', 'INTEGER', 'FLOAT', 'BOOL', 'NULL']),
    value: { type: ['string', 'boolean', 'null'] },
  }),
  exprVariant('field', {
    scope: oneOfStrings(['input', 'metadata', 'output', 'left', 'right', 'error']),
    name: fieldName,
  }),
  exprVariant('unary', { op: oneOfStrings(['NOT', '-']), operand: ref('expr') }),
  exprVariant('binary', { op: oneOfStrings(BINARY_OPERATORS), left: ref('expr'), right: ref('expr') }),
  exprVariant('is-null', { negated: { type: 'boolean' }, operand: ref('expr') }),
  exprVariant('call', { name: oneOfStrings(FUNCTIONS), args: { type: 'array', items: ref('expr') } }),
]);

const assignments: JsonSchema = {
  type: 'array',
  items: closed({ field: fieldName, value: ref('expr') }),
};

const messageErrorPolicy = tagged('action', [
  closed({ action: constant('LOG') }),
  closed({ action: constant('SEND_TO'), relay: name, inherit: fieldNames, set: assignments }),
]);

const route = closed({
  to: name,
  inherit: fieldNames,
  set: assignments,
  branching,
  flush: constant('IMMEDIATE'),
  onMessageError: ref('messageErrorPolicy'),
});

const quiesce = tagged('action', [
  closed({ action: constant('SUSPEND') }),
  closed({ action: constant('DROP') }),
  closed({
    action: constant('BUFFER'),
    maxBytes: positive,
    onOverflow: oneOfStrings(['DROP_OLDEST', 'DROP_NEWEST']),
  }),
]);

const mountedFile = closed({ resource: name, version: positive, file: text });

const schema = closed({
  fields: {
    type: 'array',
    minItems: 1,
    items: closed({
      name: fieldName,
      type: oneOfStrings(FIELD_TYPES),
      optional: { type: 'boolean' },
      sensitive: { type: 'boolean' },
    }),
  },
});

const codecBase = { schema: name, canEncode: { type: 'boolean' } };
const jaqPrograms = { ingestion: text, emitting: text, encodeRfc3339: fieldNames };
const codec = tagged('kind', [
  closed({
    kind: constant('wire-json'),
    ...codecBase,
    wireFields: {
      type: 'array',
      minItems: 1,
      items: closed({ name: fieldName, type: oneOfStrings(['string', 'integer']) }),
    },
  }),
  closed(
    {
      kind: constant('jaq'),
      ...codecBase,
      format: oneOfStrings(['JSON', 'YAML', 'TOML', 'XML', 'CBOR']),
      ...jaqPrograms,
    },
    ['emitting'],
  ),
  closed(
    {
      kind: constant('protobuf'),
      ...codecBase,
      descriptor: ref('protobufNamespace'),
      message: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$' },
      ...jaqPrograms,
    },
    ['emitting'],
  ),
  closed({
    kind: constant('syslog'),
    ...codecBase,
    fields: { type: 'array', items: oneOfStrings(SYSLOG_FIELDS), uniqueItems: true },
  }),
]);

const client = closed(
  {
    protocol: oneOfStrings(['udp', 'tcp', 'tls']),
    host: text,
    port: { type: 'integer', minimum: 0, maximum: 65535 },
    maxMessageSize: positive,
    framing: oneOfStrings(['octet-counting', 'non-transparent']),
    mount: closed({ resource: name, version: positive }),
    tls: closed({ certFile: mountedFile, keyFile: mountedFile, caFile: mountedFile }, [
      'certFile',
      'keyFile',
      'caFile',
    ]),
  },
  ['framing', 'mount', 'tls'],
);

const kafkaClient = closed(
  {
    brokers: {
      type: 'array',
      minItems: 1,
      items: closed({ host: text, port: { type: 'integer', minimum: 1, maximum: 65535 } }),
    },
    clientId: text,
    securityProtocol: oneOfStrings(['plaintext', 'ssl', 'sasl_plaintext', 'sasl_ssl']),
    sasl: closed({
      mechanism: oneOfStrings(['plain', 'scram-sha-256', 'scram-sha-512']),
      username: text,
      passwordFile: mountedFile,
    }),
    tls: closed({ caFile: mountedFile, certFile: mountedFile, keyFile: mountedFile }, [
      'caFile',
      'certFile',
      'keyFile',
    ]),
    mount: closed({ resource: name, version: positive }),
  },
  ['sasl', 'tls', 'mount'],
);

const routes: JsonSchema = { type: 'array', minItems: 1, items: ref('route') };

const httpIngestor = closed(
  {
    endpoint: name,
    vhost: name,
    hostnames: { type: 'array', minItems: 1, items: text },
    path: { type: 'string', pattern: '^/' },
    tls: {
      oneOf: [closed({ secretName: text }), closed({ certFile: mountedFile, keyFile: mountedFile })],
    },
    mode: constant('NO_ACK'),
    quiesce: ref('quiesce'),
    codec: name,
    maxBodyBytes: positive,
    routes,
    onGeneralError: constant('LOG'),
  },
  ['tls'],
);

const syslogIngestor = closed({
  client: name,
  mode: constant('NO_ACK'),
  quiesce: ref('quiesce'),
  codec: name,
  routes,
  onGeneralError: constant('LOG'),
});

const topicIngestor = closed({
  client: name,
  topic: text,
  group: text,
  startFrom: oneOfStrings(['EARLIEST', 'LATEST']),
  mode: oneOfStrings(['ACK', 'NO_ACK']),
  quiesce: tagged('action', [closed({ action: constant('SUSPEND') }), closed({ action: constant('DROP') })]),
  codec: name,
  routes,
  onGeneralError: constant('LOG'),
});

const junction = closed({
  from: { ...names, minItems: 1 },
  routes,
  onGeneralError: constant('LOG'),
});

const timeoutAction = tagged('action', [
  closed({ action: constant('DROP') }),
  closed({ action: constant('SEND_TO'), relay: name }),
]);

const correlator = closed({
  left: name,
  right: name,
  where: ref('expr'),
  keys: { type: 'array', items: closed({ left: fieldName, right: fieldName }) },
  match: oneOfStrings(['EARLIEST', 'LATEST']),
  maxTimeMs: positive,
  maxPending: positive,
  onTimeout: closed({ left: timeoutAction, right: timeoutAction }),
  branching,
  routes,
});

const emitter = closed(
  {
    from: name,
    client: name,
    kafka: closed({ topic: text, key: ref('expr') }, ['key']),
    codec: name,
    mode: oneOfStrings(['ACK', 'NO_ACK']),
    retry: closed({ backoffMs: millis, maxMs: millis }),
    batch: closed({ maxSize: positive, maxTimeMs: millis }),
    flush: constant('IMMEDIATE'),
    onMessageError: ref('messageErrorPolicy'),
    onGeneralError: constant('LOG'),
  },
  ['kafka', 'batch'],
);

/** protobufjs JSON: namespaces nest types, enums, services and further namespaces. */
const protobufDefinitions: Record<string, JsonSchema> = {
  protobufNamespace: closed({ options: { type: 'object' }, nested: ref('protobufNested') }, [
    'options',
    'nested',
  ]),
  protobufNested: {
    type: 'object',
    additionalProperties: {
      anyOf: [ref('protobufNamespace'), ref('protobufType'), ref('protobufEnum'), ref('protobufService')],
    },
  },
  protobufType: closed(
    {
      edition: { type: 'string' },
      options: { type: 'object' },
      oneofs: {
        type: 'object',
        additionalProperties: closed({ oneof: fieldNames, options: { type: 'object' } }, ['options']),
      },
      fields: { type: 'object', additionalProperties: ref('protobufField') },
      extensions: { type: 'array' },
      reserved: { type: 'array' },
      group: { type: 'boolean' },
      nested: ref('protobufNested'),
    },
    ['edition', 'options', 'oneofs', 'extensions', 'reserved', 'group', 'nested'],
  ),
  protobufField: closed(
    {
      edition: { type: 'string' },
      rule: oneOfStrings(['repeated', 'required']),
      keyType: text,
      type: text,
      id: { type: 'integer', minimum: 0 },
      extend: text,
      options: { type: 'object' },
    },
    ['edition', 'rule', 'keyType', 'extend', 'options'],
  ),
  protobufEnum: closed(
    {
      edition: { type: 'string' },
      options: { type: 'object' },
      valuesOptions: { type: 'object' },
      values: { type: 'object', additionalProperties: { type: 'integer' } },
      reserved: { type: 'array' },
    },
    ['edition', 'options', 'valuesOptions', 'reserved'],
  ),
  protobufService: closed(
    {
      edition: { type: 'string' },
      options: { type: 'object' },
      methods: { type: 'object' },
      nested: ref('protobufNested'),
    },
    ['edition', 'options', 'nested'],
  ),
};

export const GRAPH_SCHEMA: JsonSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'https://streamroute.io/schemas/graph/v1.json',
  title: 'streamroute Graph',
  ...closed(
    {
      apiVersion: constant(GRAPH_API_VERSION),
      domain: { type: 'string', pattern: DOMAIN },
      schemas: records(schema),
      codecs: records(codec),
      relays: records(closed({ schema: name, branching })),
      clients: records(client),
      kafkaClients: records(kafkaClient),
      httpIngestors: records(httpIngestor),
      syslogIngestors: records(syslogIngestor),
      topicIngestors: records(topicIngestor),
      junctions: records(junction),
      correlators: records(correlator),
      emitters: records(emitter),
      names: {
        type: 'object',
        properties: Object.fromEntries(
          DISPLAY_RECORDS.map((record) => [record, records({ type: 'string', pattern: DISPLAY })]),
        ),
        additionalProperties: false,
      },
    },
    // Graphs compiled before Kafka have neither record (an operator older than its data plane, mid-upgrade).
    ['names', 'kafkaClients', 'topicIngestors'],
  ),
  definitions: {
    expr,
    route,
    messageErrorPolicy,
    quiesce,
    ...protobufDefinitions,
  },
};
