// The canonical printer: a graph object → the `CREATE …;` statement that declares it (what SHOW CREATE
// prints and users paste back). Parsing the output gives the same object again (round-trip.test.ts).
// Layout: upper-case keywords, one clause per line indented two spaces, a route's clauses further in.
import { DisplayNames, identifierOf } from '../api/display-names.js';
import { GRAPH_KINDS, type GraphKind, type GraphObject, type SpecByKind } from '../api/index.js';
import { configBlock, hostname, integer, jaqProgram, quote, resourceVersion } from './print-literals.js';
import type { ConfigValue } from './print-literals.js';
import {
  indent,
  messageErrorClause,
  quiesceClause,
  routeClauses,
  words,
  type Printing,
  type Reference,
} from './print-routes.js';
import { clause, type PrintOptions } from './clause-defaults.js';
import { KAFKA_CONFIG_KEYS } from '../api/kinds/kafka-client.js';

type Printer<K extends GraphKind> = (spec: SpecByKind[K], name: string, printing: Printing) => string[];

const PRINTERS: { [K in GraphKind]: Printer<K> } = {
  Schema: (spec, name) => [
    `CREATE SCHEMA ${name} (`,
    ...listed(
      spec.fields.map(
        (f) => `${f.name} ${f.type}${f.optional ? ' OPTIONAL' : ''}${f.sensitive ? ' SENSITIVE' : ''}`,
      ),
    ),
    ')',
  ],
  WireSchema: (spec, name, printing) => [
    [
      'CREATE WIRE',
      ...clause(printing, 'wire-format', spec.format),
      `SCHEMA ${name}`,
      ...clause(printing, 'wire-mode', `MODE ${spec.mode}`),
      '(',
    ].join(' '),
    ...listed(spec.fields.map((field) => `${field.name} ${field.type}`)),
    ')',
  ],
  Resource: (_spec, name) => [`CREATE RESOURCE ${name}`],
  Codec: printCodec,
  Relay: (spec, name, printing) => [
    [
      `CREATE RELAY ${name} SCHEMA ${printing.ref('Schema', spec.schema)}`,
      ...clause(printing, 'relay-branching', spec.branching),
    ].join(' '),
  ],
  Vhost: printVhost,
  Endpoint: (spec, name, printing) => [
    [
      `CREATE ENDPOINT ${name} ON ${printing.ref('Vhost', spec.vhost)} PATH ${quote(spec.path)}`,
      ...clause(printing, 'endpoint-type', `TYPE ${spec.type}`),
    ].join(' '),
  ],
  SyslogClient: printSyslogClient,
  KafkaClient: printKafkaClient,
  HttpIngestor: (spec, name, printing) => [
    `CREATE HTTP ENDPOINT INGESTOR ${name}`,
    ...indent([
      `FROM ${printing.ref('Endpoint', spec.endpoint)}`,
      ...clause(printing, 'mode', `MODE ${words(spec.mode)}`),
      quiesceClause(spec.quiesce),
      `DECODE USING ${printing.ref('Codec', spec.codec)}`,
      ...(spec.maxBodySize === undefined ? [] : [`MAX BODY SIZE ${spec.maxBodySize}`]),
      ...routeClauses(spec.routes, { ...printing, branching: true }),
      ...clause(printing, 'general-error', `ON GENERAL ERROR ${spec.onGeneralError}`),
    ]),
  ],
  SyslogIngestor: (spec, name, printing) => [
    `CREATE SYSLOG LISTENER INGESTOR ${name}`,
    ...indent([
      `FROM ${printing.ref('SyslogClient', spec.client)}`,
      ...clause(printing, 'mode', `MODE ${words(spec.mode)}`),
      quiesceClause(spec.quiesce),
      `DECODE USING ${printing.ref('Codec', spec.codec)}`,
      ...routeClauses(spec.routes, { ...printing, branching: true }),
      ...clause(printing, 'general-error', `ON GENERAL ERROR ${spec.onGeneralError}`),
    ]),
  ],
  TopicIngestor: (spec, name, printing) => [
    `CREATE TOPIC INGESTOR ${name}`,
    ...indent([
      `FROM ${printing.ref('KafkaClient', spec.client)}`,
      `TOPIC ${quote(spec.topic)}`,
      `GROUP ${quote(spec.group)}`,
      `START FROM ${spec.startFrom}`,
      `MODE ${words(spec.mode)}`,
      quiesceClause(spec.quiesce),
      `DECODE USING ${printing.ref('Codec', spec.codec)}`,
      ...routeClauses(spec.routes, { ...printing, branching: true }),
      ...clause(printing, 'general-error', `ON GENERAL ERROR ${spec.onGeneralError}`),
    ]),
  ],
  Junction: (spec, name, printing) => [
    `CREATE JUNCTION ${name}`,
    ...indent([
      `FROM ${spec.from.map((relay) => printing.ref('Relay', relay)).join(', ')}`,
      ...routeClauses(spec.routes, { ...printing, branching: true }),
      ...(spec.onGeneralError === undefined ? [] : [`ON GENERAL ERROR ${spec.onGeneralError}`]),
    ]),
  ],
  Correlator: printCorrelator,
  Emitter: printEmitter,
};

export interface PrintObjectOptions extends PrintOptions {
  /** The domain's objects, whose statements wrote the names the object refers to. */
  names?: DisplayNames;
}

/**
 * The canonical `CREATE …;` statement for one object (`leaveOut` leaves default clauses out). Names are
 * written as their statements wrote them (docs/decisions/0025): the object's own from its annotation,
 * references from `names` when given; any other name as the identifier of its resource name.
 */
export function printObject(object: GraphObject, options: PrintObjectOptions = {}): string {
  const { names = new DisplayNames(), ...print } = options;
  const printer = PRINTERS[object.kind] as Printer<GraphKind>;
  const ref: Reference = (kind, name) => names.identifier(kind, name);
  const lines = printer(object.spec, identifierOf(object), { ...print, ref });
  return `${lines.join('\n')};`;
}

/** Every object, in dependency order (GRAPH_KINDS) and then by name, a blank line between statements. */
export function printObjects(objects: readonly GraphObject[]): string {
  const sorted = [...objects].sort(byKindThenName);
  const names = new DisplayNames(objects);
  return sorted.length === 0
    ? ''
    : `${sorted.map((object) => printObject(object, { names })).join('\n\n')}\n`;
}

const KIND_ORDER = new Map<string, number>(GRAPH_KINDS.map((definition, index) => [definition.kind, index]));

function byKindThenName(a: GraphObject, b: GraphObject): number {
  const byKind = (KIND_ORDER.get(a.kind) ?? 0) - (KIND_ORDER.get(b.kind) ?? 0);
  if (byKind !== 0) return byKind;
  const [nameA, nameB] = [a.metadata.name, b.metadata.name];
  return nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
}

function printCodec(spec: SpecByKind['Codec'], name: string, printing: Printing): string[] {
  const { protobuf, jaq, encodeRfc3339 } = spec;
  const wire = spec.wireSchema === undefined ? '' : printing.ref('WireSchema', spec.wireSchema);
  const from = spec.from === 'WIRE_JSON' ? `WIRE JSON SCHEMA ${wire}`.trimEnd() : spec.from;
  const protobufClauses =
    protobuf === undefined
      ? []
      : [
          `USING RESOURCE ${printing.ref('Resource', protobuf.using.resource)} VERSION ${resourceVersion(protobuf.using.version)}`,
          ...configBlock(
            [
              ['file', protobuf.file],
              ['include', protobuf.include],
            ],
            '  ',
          ),
          `MESSAGE ${quote(protobuf.message)}`,
        ];
  const jaqClauses =
    jaq === undefined
      ? []
      : [
          'WITH JAQ TRANSFORMATIONS',
          `  ON INGESTION ${jaqProgram(jaq.ingestion)}`,
          ...(jaq.emitting === undefined ? [] : [`  ON EMITTING ${jaqProgram(jaq.emitting)}`]),
        ];
  const encode =
    encodeRfc3339 === undefined || encodeRfc3339.length === 0
      ? []
      : [`ENCODE ${encodeRfc3339.map((field) => `${field} AS RFC3339`).join(', ')}`];
  return [
    `CREATE CODEC ${name}`,
    ...indent([
      `FROM ${from}`,
      ...protobufClauses,
      `TO SCHEMA ${printing.ref('Schema', spec.schema)}`,
      ...jaqClauses,
      ...encode,
    ]),
  ];
}

function printVhost(spec: SpecByKind['Vhost'], name: string, printing: Printing): string[] {
  const head = `CREATE VHOST ${name} ${spec.hostnames.map(hostname).join(', ')}`;
  const { tls } = spec;
  if (tls === undefined) return [head];
  if (tls.secretName !== undefined) return [head, `  TLS SECRET ${quote(tls.secretName)}`];
  const entries: [string, ConfigValue][] = [];
  if (tls.certFile !== undefined) entries.push(['tls_cert_file', tls.certFile]);
  if (tls.keyFile !== undefined) entries.push(['tls_key_file', tls.keyFile]);
  const mount = tls.mount === undefined ? '' : ` ${mountText(tls.mount, printing.ref)}`;
  return [head, ...indent([`TLS${mount}`, ...configBlock(entries, '  ')])];
}

/** CONFIG keys in the order of docs/language.md's tables, with their snake_case names. */
const SYSLOG_CONFIG_KEYS = [
  ['protocol', 'protocol'],
  ['addr', 'addr'],
  ['maxMessageSize', 'max_message_size'],
  ['framing', 'framing'],
  ['tlsCertFile', 'tls_cert_file'],
  ['tlsKeyFile', 'tls_key_file'],
  ['tlsCaFile', 'tls_ca_file'],
] as const;

function printSyslogClient(spec: SpecByKind['SyslogClient'], name: string, printing: Printing): string[] {
  const entries: [string, ConfigValue][] = [];
  for (const [field, key] of SYSLOG_CONFIG_KEYS) {
    const value = spec.config[field];
    if (value !== undefined) entries.push([key, value]);
  }
  return [
    `CREATE CLIENT ${name}`,
    ...indent([
      ...clause(printing, 'client-type', 'TYPE SYSLOG'),
      ...(spec.mount === undefined ? [] : [mountText(spec.mount, printing.ref)]),
      ...configBlock(entries, '  '),
    ]),
  ];
}

/** CONFIG keys in the order of docs/language.md's table, with their snake_case names. */
const KAFKA_CONFIG_ORDER = [
  'bootstrapServers',
  'clientId',
  'securityProtocol',
  'saslMechanism',
  'saslUsername',
  'saslPasswordFile',
  'tlsCaFile',
  'tlsCertFile',
  'tlsKeyFile',
] as const;

function printKafkaClient(spec: SpecByKind['KafkaClient'], name: string, printing: Printing): string[] {
  const entries: [string, ConfigValue][] = [];
  for (const field of KAFKA_CONFIG_ORDER) {
    const value = spec.config[field];
    if (value !== undefined)
      entries.push([KAFKA_CONFIG_KEYS[field], Array.isArray(value) ? value.join(',') : value]);
  }
  return [
    `CREATE CLIENT ${name}`,
    ...indent([
      'TYPE KAFKA',
      ...(spec.mount === undefined ? [] : [mountText(spec.mount, printing.ref)]),
      ...configBlock(entries, '  '),
    ]),
  ];
}

function printCorrelator(spec: SpecByKind['Correlator'], name: string, printing: Printing): string[] {
  const action = (side: SpecByKind['Correlator']['onTimeout']['left']) =>
    side.action === 'DROP'
      ? 'DROP'
      : `SEND TO ${side.relay === undefined ? '' : printing.ref('Relay', side.relay)}`.trimEnd();
  return [
    `CREATE CORRELATOR ${name}`,
    ...indent([
      `LEFT FROM ${printing.ref('Relay', spec.left)}`,
      `RIGHT FROM ${printing.ref('Relay', spec.right)}`,
      `CORRELATE WHERE ${spec.where}`,
      `MATCH ${spec.match}`,
      `MAX TIME ${spec.maxTime}`,
      ...(spec.maxPending === undefined ? [] : [`MAX PENDING ${integer(spec.maxPending)}`]),
      `ON CORRELATION TIMEOUT ${action(spec.onTimeout.left)}, ${action(spec.onTimeout.right)}`,
      ...clause(printing, 'correlator-branching', spec.branching),
      ...routeClauses(spec.routes, { ...printing, branching: false }),
    ]),
  ];
}

/** `TO SYSLOG <client>`, or `TO KAFKA <client>` with its TOPIC and KEY lines. */
function emitterTarget(to: SpecByKind['Emitter']['to'], printing: Printing): string[] {
  if (to.type === 'SYSLOG') return [`TO SYSLOG ${printing.ref('SyslogClient', to.client)}`];
  return [
    `TO KAFKA ${printing.ref('KafkaClient', to.client)}`,
    ...indent([
      `TOPIC ${quote(to.topic ?? '')}`,
      // The key on a line of its own: expression text from YAML may end in a `-- comment`.
      ...(to.key === undefined ? [] : [`KEY ${to.key}`]),
    ]),
  ];
}

function printEmitter(spec: SpecByKind['Emitter'], name: string, printing: Printing): string[] {
  const { allowSensitive, batch } = spec;
  // A Kafka emitter writes its MODE always: ACK and NO ACK are both real choices there.
  const mode = `MODE ${spec.mode}`;
  const modeIsDefault = spec.to.type === 'SYSLOG' && spec.mode === 'NO_ACK';
  return [
    `CREATE EMITTER ${name}`,
    ...indent([
      `FROM ${printing.ref('Relay', spec.from)}`,
      ...emitterTarget(spec.to, printing),
      ...(modeIsDefault ? clause(printing, 'mode', mode) : [mode]),
      `RETRY POLICY BACKOFF ${spec.retry.backoff} MAX ${spec.retry.max}`,
      `ENCODE USING ${printing.ref('Codec', spec.codec)}`,
      ...(allowSensitive === undefined || allowSensitive.length === 0
        ? []
        : [`ALLOW SENSITIVE (${allowSensitive.join(', ')})`]),
      ...(batch === undefined ? [] : [`BATCH MAX SIZE ${integer(batch.maxSize)} MAX TIME ${batch.maxTime}`]),
      ...clause(printing, 'flush', `FLUSH ${spec.flush}`),
      ...messageErrorClause(spec.onMessageError, printing),
      ...clause(printing, 'general-error', `ON GENERAL ERROR ${spec.onGeneralError}`),
    ]),
  ];
}

function mountText(mount: { resource: string; version: number | string }, ref: Reference): string {
  return `MOUNT ${ref('Resource', mount.resource)} VERSION ${resourceVersion(mount.version)}`;
}

/** Items of a parenthesised list, one per line, comma-separated. */
function listed(items: readonly string[]): string[] {
  return indent(items.map((item, index) => `${item}${index < items.length - 1 ? ',' : ''}`));
}
