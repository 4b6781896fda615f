// The canonical printer: a graph object → the `CREATE …;` statement that declares it (what SHOW CREATE
// prints and users paste back). Parsing the output gives the same object again (round-trip.test.ts).
// Layout: upper-case keywords, one clause per line indented two spaces, a route's clauses further in.
import { GRAPH_KINDS, type GraphKind, type GraphObject, type SpecByKind } from '../api/index.js';
import {
  configBlock,
  hostname,
  identifier,
  integer,
  jaqProgram,
  quote,
  resourceVersion,
} from './print-literals.js';
import type { ConfigValue } from './print-literals.js';
import { indent, messageErrorClause, quiesceClause, routeClauses, words } from './print-routes.js';
import { clause, type PrintOptions } from './clause-defaults.js';

type Printer<K extends GraphKind> = (spec: SpecByKind[K], name: string, options: PrintOptions) => string[];

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
  WireSchema: (spec, name, options) => [
    [
      'CREATE WIRE',
      ...clause(options, 'wire-format', spec.format),
      `SCHEMA ${name}`,
      ...clause(options, 'wire-mode', `MODE ${spec.mode}`),
      '(',
    ].join(' '),
    ...listed(spec.fields.map((field) => `${field.name} ${field.type}`)),
    ')',
  ],
  Resource: (_spec, name) => [`CREATE RESOURCE ${name}`],
  Codec: printCodec,
  Relay: (spec, name, options) => [
    [
      `CREATE RELAY ${name} SCHEMA ${identifier(spec.schema)}`,
      ...clause(options, 'relay-branching', spec.branching),
    ].join(' '),
  ],
  Vhost: printVhost,
  Endpoint: (spec, name, options) => [
    [
      `CREATE ENDPOINT ${name} ON ${identifier(spec.vhost)} PATH ${quote(spec.path)}`,
      ...clause(options, 'endpoint-type', `TYPE ${spec.type}`),
    ].join(' '),
  ],
  SyslogClient: printSyslogClient,
  HttpIngestor: (spec, name, options) => [
    `CREATE HTTP ENDPOINT INGESTOR ${name}`,
    ...indent([
      `FROM ${identifier(spec.endpoint)}`,
      ...clause(options, 'mode', `MODE ${words(spec.mode)}`),
      quiesceClause(spec.quiesce),
      `DECODE USING ${identifier(spec.codec)}`,
      ...(spec.maxBodySize === undefined ? [] : [`MAX BODY SIZE ${spec.maxBodySize}`]),
      ...routeClauses(spec.routes, { ...options, branching: true }),
      ...clause(options, 'general-error', `ON GENERAL ERROR ${spec.onGeneralError}`),
    ]),
  ],
  SyslogIngestor: (spec, name, options) => [
    `CREATE SYSLOG LISTENER INGESTOR ${name}`,
    ...indent([
      `FROM ${identifier(spec.client)}`,
      ...clause(options, 'mode', `MODE ${words(spec.mode)}`),
      quiesceClause(spec.quiesce),
      `DECODE USING ${identifier(spec.codec)}`,
      ...routeClauses(spec.routes, { ...options, branching: true }),
      ...clause(options, 'general-error', `ON GENERAL ERROR ${spec.onGeneralError}`),
    ]),
  ],
  Junction: (spec, name, options) => [
    `CREATE JUNCTION ${name}`,
    ...indent([
      `FROM ${spec.from.map(identifier).join(', ')}`,
      ...routeClauses(spec.routes, { ...options, branching: true }),
      ...(spec.onGeneralError === undefined ? [] : [`ON GENERAL ERROR ${spec.onGeneralError}`]),
    ]),
  ],
  Correlator: printCorrelator,
  Emitter: printEmitter,
};

/** The canonical `CREATE …;` statement for one object (`options` leave default clauses out). */
export function printObject(object: GraphObject, options: PrintOptions = {}): string {
  const printer = PRINTERS[object.kind] as Printer<GraphKind>;
  const lines = printer(object.spec, identifier(object.metadata.name), options);
  return `${lines.join('\n')};`;
}

/** Every object, in dependency order (GRAPH_KINDS) and then by name, a blank line between statements. */
export function printObjects(objects: readonly GraphObject[]): string {
  const sorted = [...objects].sort(byKindThenName);
  return sorted.length === 0 ? '' : `${sorted.map((object) => printObject(object)).join('\n\n')}\n`;
}

const KIND_ORDER = new Map<string, number>(GRAPH_KINDS.map((definition, index) => [definition.kind, index]));

function byKindThenName(a: GraphObject, b: GraphObject): number {
  const byKind = (KIND_ORDER.get(a.kind) ?? 0) - (KIND_ORDER.get(b.kind) ?? 0);
  if (byKind !== 0) return byKind;
  const [nameA, nameB] = [a.metadata.name, b.metadata.name];
  return nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
}

function printCodec(spec: SpecByKind['Codec'], name: string): string[] {
  const { protobuf, jaq, encodeRfc3339 } = spec;
  const from =
    spec.from === 'WIRE_JSON' ? `WIRE JSON SCHEMA ${identifier(spec.wireSchema ?? '')}`.trimEnd() : spec.from;
  const protobufClauses =
    protobuf === undefined
      ? []
      : [
          `USING RESOURCE ${identifier(protobuf.using.resource)} VERSION ${resourceVersion(protobuf.using.version)}`,
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
      `TO SCHEMA ${identifier(spec.schema)}`,
      ...jaqClauses,
      ...encode,
    ]),
  ];
}

function printVhost(spec: SpecByKind['Vhost'], name: string): string[] {
  const head = `CREATE VHOST ${name} ${spec.hostnames.map(hostname).join(', ')}`;
  const { tls } = spec;
  if (tls === undefined) return [head];
  if (tls.secretName !== undefined) return [head, `  TLS SECRET ${quote(tls.secretName)}`];
  const entries: [string, ConfigValue][] = [];
  if (tls.certFile !== undefined) entries.push(['tls_cert_file', tls.certFile]);
  if (tls.keyFile !== undefined) entries.push(['tls_key_file', tls.keyFile]);
  const mount = tls.mount === undefined ? '' : ` ${mountText(tls.mount)}`;
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

function printSyslogClient(spec: SpecByKind['SyslogClient'], name: string, options: PrintOptions): string[] {
  const entries: [string, ConfigValue][] = [];
  for (const [field, key] of SYSLOG_CONFIG_KEYS) {
    const value = spec.config[field];
    if (value !== undefined) entries.push([key, value]);
  }
  return [
    `CREATE CLIENT ${name}`,
    ...indent([
      ...clause(options, 'client-type', 'TYPE SYSLOG'),
      ...(spec.mount === undefined ? [] : [mountText(spec.mount)]),
      ...configBlock(entries, '  '),
    ]),
  ];
}

function printCorrelator(spec: SpecByKind['Correlator'], name: string, options: PrintOptions): string[] {
  const action = (side: SpecByKind['Correlator']['onTimeout']['left']) =>
    side.action === 'DROP' ? 'DROP' : `SEND TO ${identifier(side.relay ?? '')}`.trimEnd();
  return [
    `CREATE CORRELATOR ${name}`,
    ...indent([
      `LEFT FROM ${identifier(spec.left)}`,
      `RIGHT FROM ${identifier(spec.right)}`,
      `CORRELATE WHERE ${spec.where}`,
      `MATCH ${spec.match}`,
      `MAX TIME ${spec.maxTime}`,
      ...(spec.maxPending === undefined ? [] : [`MAX PENDING ${integer(spec.maxPending)}`]),
      `ON CORRELATION TIMEOUT ${action(spec.onTimeout.left)}, ${action(spec.onTimeout.right)}`,
      ...clause(options, 'correlator-branching', spec.branching),
      ...routeClauses(spec.routes, { ...options, branching: false }),
    ]),
  ];
}

function printEmitter(spec: SpecByKind['Emitter'], name: string, options: PrintOptions): string[] {
  const { allowSensitive, batch } = spec;
  return [
    `CREATE EMITTER ${name}`,
    ...indent([
      `FROM ${identifier(spec.from)}`,
      `TO ${spec.to.type} ${identifier(spec.to.client)}`,
      ...clause(options, 'mode', `MODE ${spec.mode}`),
      `RETRY POLICY BACKOFF ${spec.retry.backoff} MAX ${spec.retry.max}`,
      `ENCODE USING ${identifier(spec.codec)}`,
      ...(allowSensitive === undefined || allowSensitive.length === 0
        ? []
        : [`ALLOW SENSITIVE (${allowSensitive.join(', ')})`]),
      ...(batch === undefined ? [] : [`BATCH MAX SIZE ${integer(batch.maxSize)} MAX TIME ${batch.maxTime}`]),
      ...clause(options, 'flush', `FLUSH ${spec.flush}`),
      ...messageErrorClause(spec.onMessageError, options),
      ...clause(options, 'general-error', `ON GENERAL ERROR ${spec.onGeneralError}`),
    ]),
  ];
}

function mountText(mount: { resource: string; version: number | string }): string {
  return `MOUNT ${identifier(mount.resource)} VERSION ${resourceVersion(mount.version)}`;
}

/** Items of a parenthesised list, one per line, comma-separated. */
function listed(items: readonly string[]): string[] {
  return indent(items.map((item, index) => `${item}${index < items.length - 1 ? ',' : ''}`));
}
