// One realistic object of every graph kind: the examples of docs/resources.md (statement and YAML are
// both generated from these, so they cannot drift) and fixtures for the printer and converter tests.
import { API_VERSION, type GraphKind, type GraphObject, type SpecByKind } from '../api/index.js';

function example<K extends GraphKind>(kind: K, name: string, spec: SpecByKind[K]): GraphObject<K> {
  return { apiVersion: API_VERSION, kind, metadata: { name }, spec };
}

const logErrors = { action: 'LOG' } as const;

export const KIND_EXAMPLES: { [K in GraphKind]: GraphObject<K> } = {
  Schema: example('Schema', 'orders', {
    fields: [
      { name: 'order_id', type: 'STRING' },
      { name: 'amount', type: 'I64' },
      { name: 'placed_at', type: 'DATETIME', optional: true },
      { name: 'card_number', type: 'STRING', optional: true, sensitive: true },
    ],
  }),
  WireSchema: example('WireSchema', 'order-wire', {
    format: 'JSON',
    mode: 'STRICT',
    fields: [
      { name: 'order_id', type: 'string' },
      { name: 'amount', type: 'integer' },
    ],
  }),
  Resource: example('Resource', 'order-protos', {}),
  Codec: example('Codec', 'order-json', {
    from: 'JSON',
    schema: 'orders',
    jaq: {
      ingestion: '.orders[] | {order_id: .id, amount: .total, placed_at: .placed}',
      emitting: '{orders: [{id: .order_id, total: .amount, placed: .placed_at}]}',
    },
    encodeRfc3339: ['placed_at'],
  }),
  Relay: example('Relay', 'orders', { schema: 'orders', branching: 'UNBRANCHED' }),
  Vhost: example('Vhost', 'shop', {
    hostnames: ['shop.example.com', 'api.shop.example.com'],
    tls: {
      mount: { resource: 'certs', version: 'LATEST' },
      certFile: '{{ certs }}/tls.crt',
      keyFile: '{{ certs }}/tls.key',
    },
  }),
  Endpoint: example('Endpoint', 'orders-post', { vhost: 'shop', path: '/orders', type: 'HTTP' }),
  SyslogClient: example('SyslogClient', 'syslog-tls', {
    mount: { resource: 'pki', version: 3 },
    config: {
      protocol: 'tls',
      addr: '0.0.0.0:6514',
      maxMessageSize: 65536,
      tlsCertFile: '{{ pki }}/server.crt',
      tlsKeyFile: '{{ pki }}/server.key',
      tlsCaFile: '{{ pki }}/clients-ca.crt',
    },
  }),
  KafkaClient: example('KafkaClient', 'kafka-main', {
    mount: { resource: 'kafka-creds', version: 'LATEST' },
    config: {
      bootstrapServers: ['kafka-0.kafka:9093', 'kafka-1.kafka:9093'],
      clientId: 'shop-orders',
      securityProtocol: 'sasl_ssl',
      saslMechanism: 'scram-sha-512',
      saslUsername: 'shop',
      saslPasswordFile: '{{ kafka_creds }}/password',
      tlsCaFile: '{{ kafka_creds }}/ca.crt',
    },
  }),
  HttpIngestor: example('HttpIngestor', 'orders-in', {
    endpoint: 'orders-post',
    mode: 'NO_ACK',
    quiesce: { action: 'BUFFER', maxSize: '1MiB', onOverflow: 'DROP_OLDEST' },
    codec: 'order-json',
    maxBodySize: '4MiB',
    routes: [
      {
        to: 'orders',
        inheritAll: true,
        branching: 'UNBRANCHED',
        flush: 'IMMEDIATE',
        onMessageError: {
          action: 'SEND_TO',
          relay: 'rejected',
          set: [
            { field: 'code', value: 'error.code' },
            { field: 'reason', value: 'error.message' },
          ],
        },
      },
    ],
    onGeneralError: 'LOG',
  }),
  SyslogIngestor: example('SyslogIngestor', 'syslog-in', {
    client: 'syslog-tls',
    mode: 'NO_ACK',
    quiesce: { action: 'SUSPEND' },
    codec: 'syslog',
    routes: [
      {
        to: 'syslog-lines',
        inheritAll: true,
        set: [{ field: 'peer_addr', value: 'metadata.peer_addr' }],
        branching: 'UNBRANCHED',
        flush: 'IMMEDIATE',
        onMessageError: logErrors,
      },
    ],
    onGeneralError: 'LOG',
  }),
  TopicIngestor: example('TopicIngestor', 'orders-from-kafka', {
    client: 'kafka-main',
    topic: 'shop.orders',
    group: 'streamroute-orders',
    startFrom: 'EARLIEST',
    mode: 'ACK',
    quiesce: { action: 'SUSPEND' },
    codec: 'order-json',
    routes: [
      {
        to: 'orders',
        inheritAll: true,
        set: [{ field: 'placed_at', value: 'coalesce(input.placed_at, metadata.timestamp)' }],
        branching: 'UNBRANCHED',
        flush: 'IMMEDIATE',
        onMessageError: logErrors,
      },
    ],
    onGeneralError: 'LOG',
  }),
  Junction: example('Junction', 'all-orders', {
    from: ['web-orders', 'shop-orders'],
    routes: [
      {
        to: 'orders',
        inheritAll: true,
        branching: 'UNBRANCHED',
        flush: 'IMMEDIATE',
        onMessageError: logErrors,
      },
    ],
    onGeneralError: 'LOG',
  }),
  Correlator: example('Correlator', 'order-payments', {
    left: 'orders',
    right: 'payments',
    where: 'left.order_id = right.order_id AND right.amount >= left.amount',
    match: 'EARLIEST',
    maxTime: '30s',
    maxPending: 50000,
    onTimeout: { left: { action: 'SEND_TO', relay: 'unpaid-orders' }, right: { action: 'DROP' } },
    branching: 'UNBRANCHED',
    routes: [
      {
        to: 'paid-orders',
        set: [
          { field: 'order_id', value: 'left.order_id' },
          { field: 'amount', value: 'left.amount' },
          { field: 'paid_at', value: 'right.paid_at' },
        ],
        branching: 'UNBRANCHED',
        flush: 'IMMEDIATE',
        onMessageError: logErrors,
      },
    ],
  }),
  Emitter: example('Emitter', 'audit-out', {
    from: 'audit-lines',
    to: { type: 'SYSLOG', client: 'audit-collector' },
    mode: 'NO_ACK',
    retry: { backoff: '500ms', max: '30s' },
    codec: 'syslog',
    batch: { maxSize: 100, maxTime: '1s' },
    flush: 'IMMEDIATE',
    onMessageError: { action: 'SEND_TO', relay: 'emit-failures', inheritAll: true },
    onGeneralError: 'LOG',
  }),
};
