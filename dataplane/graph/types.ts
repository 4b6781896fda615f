// The Graph: what the compiler hands the data plane. Every reference is resolved to the name of an entry
// that exists in the same graph, every value is lowered to what the runtime uses (milliseconds, bytes,
// host and port, typed expression trees), and nothing in it needs the resource specs to be understood.
import type { Expr } from './expression.js';
import type { FieldType } from './field-types.js';

export const GRAPH_API_VERSION = 'streamroute.io/graph/v1';

/** Records keyed by resource name. */
export interface Graph {
  apiVersion: typeof GRAPH_API_VERSION;
  domain: string;
  schemas: Record<string, GraphSchema>;
  codecs: Record<string, GraphCodec>;
  relays: Record<string, GraphRelay>;
  clients: Record<string, GraphSyslogClient>;
  kafkaClients: Record<string, GraphKafkaClient>;
  httpIngestors: Record<string, GraphHttpIngestor>;
  syslogIngestors: Record<string, GraphSyslogIngestor>;
  topicIngestors: Record<string, GraphTopicIngestor>;
  junctions: Record<string, GraphJunction>;
  correlators: Record<string, GraphCorrelator>;
  emitters: Record<string, GraphEmitter>;
  /**
   * How people read the names (docs/decisions/0025-names-as-typed.md): by record, the identifier a
   * statement wrote for each entry whose display differs from its key (`orders-in` → `Orders_In`).
   * Absent entries are shown by their key. Never part of an entry's identity or of the hot-reload diff's
   * keys; see diff.ts for how a changed display name is handled.
   */
  names?: DisplayNameRecords;
}

/** The records whose names the data plane shows: the Graph's own, and the objects inlined into them. */
export const DISPLAY_RECORDS = [
  'schemas',
  'codecs',
  'relays',
  'clients',
  'kafkaClients',
  'httpIngestors',
  'syslogIngestors',
  'topicIngestors',
  'junctions',
  'correlators',
  'emitters',
  'endpoints',
  'vhosts',
  'resources',
] as const;
export type DisplayRecord = (typeof DISPLAY_RECORDS)[number];
export type DisplayNameRecords = Partial<Record<DisplayRecord, Record<string, string>>>;

export interface GraphField {
  name: string;
  type: FieldType;
  optional: boolean;
  sensitive: boolean;
}

export interface GraphSchema {
  fields: GraphField[];
}

export type WireType = 'string' | 'integer';
export type JaqFormat = 'JSON' | 'YAML' | 'TOML' | 'XML' | 'CBOR';

/** The fields of the predefined SYSLOG wire schema (docs/codecs-syslog.md, "Fields"). */
export const SYSLOG_FIELDS = [
  'facility',
  'severity',
  'timestamp',
  'hostname',
  'app_name',
  'proc_id',
  'msg_id',
  'structured_data',
  'message',
] as const;
export type SyslogField = (typeof SYSLOG_FIELDS)[number];

/** The exact shape each field must have in a SYSLOG codec's schema (docs/codecs-syslog.md, "Fields"). */
export const SYSLOG_FIELD_SHAPES: Record<SyslogField, { type: FieldType; optional: boolean }> = {
  facility: { type: 'U8', optional: false },
  severity: { type: 'U8', optional: false },
  timestamp: { type: 'DATETIME', optional: true },
  hostname: { type: 'STRING', optional: true },
  app_name: { type: 'STRING', optional: true },
  proc_id: { type: 'STRING', optional: true },
  msg_id: { type: 'STRING', optional: true },
  structured_data: { type: 'STRING', optional: true },
  message: { type: 'STRING', optional: false },
};

interface CodecBase {
  /** Schema of the records the codec produces and encodes. */
  schema: string;
  /** Whether an emitter may use the codec. */
  canEncode: boolean;
}

export type GraphCodec =
  | (CodecBase & { kind: 'wire-json'; wireFields: { name: string; type: WireType }[] })
  | (CodecBase & {
      kind: 'jaq';
      format: JaqFormat;
      ingestion: string;
      emitting?: string;
      encodeRfc3339: string[];
    })
  | (CodecBase & {
      kind: 'protobuf';
      /** `Root.toJSON()` of protobufjs, pruned to the message and the types it uses. */
      descriptor: ProtobufDescriptor;
      /** Fully qualified, without a leading dot. */
      message: string;
      ingestion: string;
      emitting?: string;
      encodeRfc3339: string[];
    })
  | (CodecBase & { kind: 'syslog'; fields: SyslogField[] });

/** protobufjs's JSON form of a namespace (`INamespace`). */
export interface ProtobufDescriptor {
  options?: Record<string, unknown>;
  nested?: Record<string, ProtobufNested>;
}
/** A type, enum, service or namespace; namespaces and types nest further definitions. */
export type ProtobufNested = { nested?: Record<string, ProtobufNested> } & Record<string, unknown>;

export interface GraphRelay {
  schema: string;
  branching: Branching;
}

export type Branching = 'UNBRANCHED';
export type SyslogProtocol = 'udp' | 'tcp' | 'tls';
export type SyslogFraming = 'octet-counting' | 'non-transparent';

/** A file inside an uploaded resource version (`{{ resource }}/file`). */
export interface MountedFile {
  resource: string;
  version: number;
  file: string;
}

export interface GraphSyslogClient {
  protocol: SyslogProtocol;
  /** Host name or IP address; IPv6 without brackets. */
  host: string;
  port: number;
  /** Ingested-message byte cap (default 131072). */
  maxMessageSize: number;
  /** tcp and tls only; tls is always octet-counting. */
  framing?: SyslogFraming;
  mount?: { resource: string; version: number };
  tls?: { certFile?: MountedFile; keyFile?: MountedFile; caFile?: MountedFile };
}

export type KafkaSecurityProtocol = 'plaintext' | 'ssl' | 'sasl_plaintext' | 'sasl_ssl';
export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

export interface GraphKafkaClient {
  /** bootstrap_servers, in the order written; IPv6 hosts without brackets. */
  brokers: { host: string; port: number }[];
  clientId: string;
  securityProtocol: KafkaSecurityProtocol;
  /** sasl_plaintext and sasl_ssl only (both required there). */
  sasl?: { mechanism: KafkaSaslMechanism; username: string; passwordFile: MountedFile };
  /** ssl and sasl_ssl only; each file optional (caFile: trust root; cert+key: client certificate, both or neither). */
  tls?: { caFile?: MountedFile; certFile?: MountedFile; keyFile?: MountedFile };
  mount?: { resource: string; version: number };
}

export type GraphQuiesce =
  | { action: 'SUSPEND' }
  | { action: 'DROP' }
  | { action: 'BUFFER'; maxBytes: number; onOverflow: 'DROP_OLDEST' | 'DROP_NEWEST' };

export interface GraphAssignment {
  field: string;
  value: Expr;
}

export type GraphMessageErrorPolicy =
  | { action: 'LOG' }
  | {
      action: 'SEND_TO';
      relay: string;
      /** Fields copied by INHERIT ALL from the failed input (empty without INHERIT ALL). */
      inherit: string[];
      set: GraphAssignment[];
    };

export interface GraphRoute {
  to: string;
  /** Fields copied by INHERIT ALL, in the target schema's order (empty without INHERIT ALL). */
  inherit: string[];
  set: GraphAssignment[];
  branching: Branching;
  flush: 'IMMEDIATE';
  onMessageError: GraphMessageErrorPolicy;
}

export interface GraphHttpIngestor {
  endpoint: string;
  vhost: string;
  /** Matched against the Host header, lower-cased with the port stripped. */
  hostnames: string[];
  path: string;
  tls?: { secretName: string } | { certFile: MountedFile; keyFile: MountedFile };
  mode: 'NO_ACK';
  quiesce: GraphQuiesce;
  codec: string;
  maxBodyBytes: number;
  routes: GraphRoute[];
  onGeneralError: 'LOG';
}

export interface GraphSyslogIngestor {
  client: string;
  mode: 'NO_ACK';
  quiesce: GraphQuiesce;
  codec: string;
  routes: GraphRoute[];
  onGeneralError: 'LOG';
}

export interface GraphTopicIngestor {
  /** A key of Graph.kafkaClients. */
  client: string;
  topic: string;
  group: string;
  startFrom: 'EARLIEST' | 'LATEST';
  mode: 'ACK' | 'NO_ACK';
  /** ON QUIESCE SUSPEND|DROP (DESIGN §5); SUSPEND pauses the partitions, DROP keeps fetching and drops. */
  quiesce: { action: 'SUSPEND' } | { action: 'DROP' };
  codec: string;
  routes: GraphRoute[];
  onGeneralError: 'LOG';
}

export interface GraphJunction {
  from: string[];
  routes: GraphRoute[];
  onGeneralError: 'LOG';
}

export type GraphTimeoutAction = { action: 'DROP' } | { action: 'SEND_TO'; relay: string };

export interface GraphCorrelator {
  left: string;
  right: string;
  /** CORRELATE WHERE as a whole; the runtime evaluates it on every candidate pair. */
  where: Expr;
  /** Equality conjuncts `left.a = right.b` of the WHERE, usable as hash-index keys. */
  keys: { left: string; right: string }[];
  match: 'EARLIEST' | 'LATEST';
  maxTimeMs: number;
  maxPending: number;
  onTimeout: { left: GraphTimeoutAction; right: GraphTimeoutAction };
  branching: Branching;
  routes: GraphRoute[];
}

export interface GraphEmitter {
  from: string;
  /** A key of Graph.clients, or of Graph.kafkaClients when `kafka` is set. */
  client: string;
  /** Set for an emitter TO KAFKA; without it the emitter is a syslog emitter. */
  kafka?: { topic: string; key?: Expr };
  codec: string;
  /** ACK only with `kafka` (syslog emitters are NO_ACK). */
  mode: 'ACK' | 'NO_ACK';
  retry: { backoffMs: number; maxMs: number };
  batch?: { maxSize: number; maxTimeMs: number };
  flush: 'IMMEDIATE';
  onMessageError: GraphMessageErrorPolicy;
  onGeneralError: 'LOG';
}
