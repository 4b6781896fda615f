import assert from 'node:assert/strict';

import { one, specOf } from '../../test/fixtures/parse-one.js';
import { parseScript } from './parse.js';

const LOG = { action: 'LOG' };
const route = (to: string, rest: object) => ({
  to,
  ...rest,
  branching: 'UNBRANCHED',
  flush: 'IMMEDIATE',
  onMessageError: LOG,
});

// One case for every statement form of docs/statement-mapping.md, with the exact spec it becomes.
const DECLARATIONS: { text: string; kind: string; name: string; spec: unknown }[] = [
  {
    text: 'CREATE SCHEMA order_lines (id STRING, amount I64 OPTIONAL, card STRING SENSITIVE, at DATETIME OPTIONAL SENSITIVE, n U8 SENSITIVE OPTIONAL)',
    kind: 'Schema',
    name: 'order-lines',
    spec: {
      fields: [
        { name: 'id', type: 'STRING' },
        { name: 'amount', type: 'I64', optional: true },
        { name: 'card', type: 'STRING', sensitive: true },
        { name: 'at', type: 'DATETIME', optional: true, sensitive: true },
        { name: 'n', type: 'U8', optional: true, sensitive: true },
      ],
    },
  },
  {
    text: 'CREATE SCHEMA t (a BOOL, b I32, c U16, d U32, e U64, f F64, g BYTES)',
    kind: 'Schema',
    name: 't',
    spec: {
      fields: ['BOOL', 'I32', 'U16', 'U32', 'U64', 'F64', 'BYTES'].map((type, index) => ({
        name: 'abcdefg'[index],
        type,
      })),
    },
  },
  {
    text: 'CREATE WIRE JSON SCHEMA order_wire MODE STRICT (orderId string, amount integer)',
    kind: 'WireSchema',
    name: 'order-wire',
    spec: {
      format: 'JSON',
      mode: 'STRICT',
      fields: [
        { name: 'orderId', type: 'string' },
        { name: 'amount', type: 'integer' },
      ],
    },
  },
  {
    text: 'CREATE CODEC c FROM WIRE JSON SCHEMA w TO SCHEMA s',
    kind: 'Codec',
    name: 'c',
    spec: { from: 'WIRE_JSON', wireSchema: 'w', schema: 's' },
  },
  ...['JSON', 'YAML', 'TOML', 'XML', 'CBOR'].map((format) => ({
    text: `CREATE CODEC c FROM ${format} TO SCHEMA s WITH JAQ TRANSFORMATIONS ON INGESTION '.orders[] | {id: .id, note: ''it''''s''}'`,
    kind: 'Codec',
    name: 'c',
    spec: { from: format, schema: 's', jaq: { ingestion: ".orders[] | {id: .id, note: 'it''s'}" } },
  })),
  {
    text: "CREATE CODEC c FROM JSON TO SCHEMA s WITH JAQ TRANSFORMATIONS ON INGESTION $jaq$.a | {x: 'y'}$jaq$ ON EMITTING '.' ENCODE at AS RFC3339, seen AS RFC3339",
    kind: 'Codec',
    name: 'c',
    spec: {
      from: 'JSON',
      schema: 's',
      jaq: { ingestion: ".a | {x: 'y'}", emitting: '.' },
      encodeRfc3339: ['at', 'seen'],
    },
  },
  {
    text: `CREATE CODEC orders_pb FROM PROTOBUF USING RESOURCE protos VERSION 3
      CONFIG { 'file' = 'orders/v1/order.proto', 'include' = '.' } MESSAGE 'orders.v1.Order'
      TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION '.' ON EMITTING '.' ENCODE placed_at AS RFC3339`,
    kind: 'Codec',
    name: 'orders-pb',
    spec: {
      from: 'PROTOBUF',
      protobuf: {
        using: { resource: 'protos', version: 3 },
        file: 'orders/v1/order.proto',
        include: '.',
        message: 'orders.v1.Order',
      },
      schema: 'orders',
      jaq: { ingestion: '.', emitting: '.' },
      encodeRfc3339: ['placed_at'],
    },
  },
  {
    text: "CREATE CODEC p FROM PROTOBUF USING RESOURCE r VERSION LATEST CONFIG { 'file' = 'a.proto', 'include' = 'x' } MESSAGE 'a.B' TO SCHEMA s WITH JAQ TRANSFORMATIONS ON INGESTION '.'",
    kind: 'Codec',
    name: 'p',
    spec: {
      from: 'PROTOBUF',
      protobuf: {
        using: { resource: 'r', version: 'LATEST' },
        file: 'a.proto',
        include: 'x',
        message: 'a.B',
      },
      schema: 's',
      jaq: { ingestion: '.' },
    },
  },
  {
    text: 'CREATE CODEC sys FROM SYSLOG TO SCHEMA syslog_line',
    kind: 'Codec',
    name: 'sys',
    spec: { from: 'SYSLOG', schema: 'syslog-line' },
  },
  {
    // Accepted by the grammar so the SYSLOG codec rule can reject it with SR2012.
    text: "CREATE CODEC sys FROM SYSLOG TO SCHEMA s WITH JAQ TRANSFORMATIONS ON INGESTION '.' ENCODE at AS RFC3339",
    kind: 'Codec',
    name: 'sys',
    spec: { from: 'SYSLOG', schema: 's', jaq: { ingestion: '.' }, encodeRfc3339: ['at'] },
  },
  { text: 'CREATE RESOURCE protos', kind: 'Resource', name: 'protos', spec: {} },
  {
    text: 'CREATE RELAY orders_in SCHEMA orders UNBRANCHED',
    kind: 'Relay',
    name: 'orders-in',
    spec: { schema: 'orders', branching: 'UNBRANCHED' },
  },
  {
    text: "CREATE VHOST v localhost, API.Example.com, 'Shop.Example.com'",
    kind: 'Vhost',
    name: 'v',
    spec: { hostnames: ['localhost', 'api.example.com', 'shop.example.com'] },
  },
  {
    text: "CREATE VHOST v a.example.com TLS MOUNT certs VERSION 2 CONFIG { 'tls_cert_file' = '{{ certs }}/tls.crt', 'tls_key_file' = '{{ certs }}/tls.key' }",
    kind: 'Vhost',
    name: 'v',
    spec: {
      hostnames: ['a.example.com'],
      tls: {
        mount: { resource: 'certs', version: 2 },
        certFile: '{{ certs }}/tls.crt',
        keyFile: '{{ certs }}/tls.key',
      },
    },
  },
  {
    text: "CREATE VHOST v a.example.com TLS SECRET 'shop-tls'",
    kind: 'Vhost',
    name: 'v',
    spec: { hostnames: ['a.example.com'], tls: { secretName: 'shop-tls' } },
  },
  {
    text: "CREATE ENDPOINT orders ON v PATH '/orders' TYPE HTTP",
    kind: 'Endpoint',
    name: 'orders',
    spec: { vhost: 'v', path: '/orders', type: 'HTTP' },
  },
  {
    text: "CREATE CLIENT c TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = 'logs:514', 'max_message_size' = '65536', 'framing' = 'non-transparent' }",
    kind: 'SyslogClient',
    name: 'c',
    spec: {
      config: { protocol: 'tcp', addr: 'logs:514', maxMessageSize: 65536, framing: 'non-transparent' },
    },
  },
  {
    text: "CREATE CLIENT c TYPE SYSLOG MOUNT pki VERSION LATEST CONFIG { 'protocol' = 'tls', 'addr' = '0.0.0.0:6514', 'max_message_size' = 8192, 'tls_cert_file' = '{{ pki }}/server.crt', 'tls_key_file' = '{{ pki }}/server.key', 'tls_ca_file' = '{{ pki }}/ca.crt' }",
    kind: 'SyslogClient',
    name: 'c',
    spec: {
      mount: { resource: 'pki', version: 'LATEST' },
      config: {
        protocol: 'tls',
        addr: '0.0.0.0:6514',
        maxMessageSize: 8192,
        tlsCertFile: '{{ pki }}/server.crt',
        tlsKeyFile: '{{ pki }}/server.key',
        tlsCaFile: '{{ pki }}/ca.crt',
      },
    },
  },
  {
    text: "CREATE CLIENT k TYPE KAFKA CONFIG { 'bootstrap_servers' = 'b1:9092, b2:9092', 'client_id' = 'shop' }",
    kind: 'KafkaClient',
    name: 'k',
    spec: { config: { bootstrapServers: ['b1:9092', 'b2:9092'], clientId: 'shop' } },
  },
  {
    text: `CREATE CLIENT k TYPE KAFKA MOUNT creds VERSION 3 CONFIG { 'bootstrap_servers' = '[::1]:9093',
      'security_protocol' = 'sasl_ssl', 'sasl_mechanism' = 'scram-sha-256', 'sasl_username' = 'u',
      'sasl_password_file' = '{{ creds }}/pw', 'tls_ca_file' = '{{ creds }}/ca', 'tls_cert_file' = '{{ creds }}/c',
      'tls_key_file' = '{{ creds }}/k' }`,
    kind: 'KafkaClient',
    name: 'k',
    spec: {
      mount: { resource: 'creds', version: 3 },
      config: {
        bootstrapServers: ['[::1]:9093'],
        securityProtocol: 'sasl_ssl',
        saslMechanism: 'scram-sha-256',
        saslUsername: 'u',
        saslPasswordFile: '{{ creds }}/pw',
        tlsCaFile: '{{ creds }}/ca',
        tlsCertFile: '{{ creds }}/c',
        tlsKeyFile: '{{ creds }}/k',
      },
    },
  },
  {
    text: `CREATE TOPIC INGESTOR t FROM k TOPIC 'orders' GROUP 'g' START FROM EARLIEST MODE ACK ON QUIESCE SUSPEND
      DECODE USING c TO r SET p = metadata.partition UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG`,
    kind: 'TopicIngestor',
    name: 't',
    spec: {
      client: 'k',
      topic: 'orders',
      group: 'g',
      startFrom: 'EARLIEST',
      mode: 'ACK',
      quiesce: { action: 'SUSPEND' },
      codec: 'c',
      routes: [route('r', { set: [{ field: 'p', value: 'metadata.partition' }] })],
      onGeneralError: 'LOG',
    },
  },
  {
    text: `CREATE TOPIC INGESTOR t FROM k TOPIC 'orders' GROUP 'g' START FROM LATEST MODE NO ACK ON QUIESCE DROP
      DECODE USING c TO r INHERIT ALL`,
    kind: 'TopicIngestor',
    name: 't',
    spec: {
      client: 'k',
      topic: 'orders',
      group: 'g',
      startFrom: 'LATEST',
      mode: 'NO_ACK',
      quiesce: { action: 'DROP' },
      codec: 'c',
      routes: [route('r', { inheritAll: true })],
      onGeneralError: 'LOG',
    },
  },
  {
    text: `CREATE HTTP ENDPOINT INGESTOR i FROM e MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING c
      TO r INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG`,
    kind: 'HttpIngestor',
    name: 'i',
    spec: {
      endpoint: 'e',
      mode: 'NO_ACK',
      quiesce: { action: 'BUFFER', maxSize: '1MiB' },
      codec: 'c',
      routes: [route('r', { inheritAll: true })],
      onGeneralError: 'LOG',
    },
  },
  {
    text: `CREATE HTTP ENDPOINT INGESTOR i FROM e MODE NO_ACK ON QUIESCE BUFFER MAX SIZE 64KiB ON OVERFLOW DROP NEWEST
      DECODE USING c MAX BODY SIZE 2MiB
      TO a INHERIT ALL, SET seen = now(), total = input.amount * 2 FLUSH IMMEDIATE
        ON MESSAGE ERROR SEND TO errors INHERIT ALL SET reason = error.message, body = error.payload
      TO b SET id = input.id FLUSH IMMEDIATE ON MESSAGE ERROR SEND TO errors
      ON GENERAL ERROR LOG`,
    kind: 'HttpIngestor',
    name: 'i',
    spec: {
      endpoint: 'e',
      mode: 'NO_ACK',
      quiesce: { action: 'BUFFER', maxSize: '64KiB', onOverflow: 'DROP_NEWEST' },
      codec: 'c',
      maxBodySize: '2MiB',
      routes: [
        {
          ...route('a', {
            inheritAll: true,
            set: [
              { field: 'seen', value: 'now()' },
              { field: 'total', value: 'input.amount * 2' },
            ],
          }),
          onMessageError: {
            action: 'SEND_TO',
            relay: 'errors',
            inheritAll: true,
            set: [
              { field: 'reason', value: 'error.message' },
              { field: 'body', value: 'error.payload' },
            ],
          },
        },
        {
          ...route('b', { set: [{ field: 'id', value: 'input.id' }] }),
          onMessageError: { action: 'SEND_TO', relay: 'errors' },
        },
      ],
      onGeneralError: 'LOG',
    },
  },
  {
    text: `CREATE HTTP ENDPOINT INGESTOR i FROM e MODE NO ACK ON QUIESCE DROP DECODE USING c
      TO r SET a = 1 FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG`,
    kind: 'HttpIngestor',
    name: 'i',
    spec: {
      endpoint: 'e',
      mode: 'NO_ACK',
      quiesce: { action: 'DROP' },
      codec: 'c',
      routes: [route('r', { set: [{ field: 'a', value: '1' }] })],
      onGeneralError: 'LOG',
    },
  },
  ...(
    [
      ['SUSPEND', { action: 'SUSPEND' }],
      [
        'BUFFER MAX SIZE 4MiB ON OVERFLOW DROP OLDEST',
        { action: 'BUFFER', maxSize: '4MiB', onOverflow: 'DROP_OLDEST' },
      ],
      [
        'BUFFER MAX SIZE 4MiB ON OVERFLOW DROP NEWEST',
        { action: 'BUFFER', maxSize: '4MiB', onOverflow: 'DROP_NEWEST' },
      ],
      ['DROP', { action: 'DROP' }],
    ] as const
  ).map(([quiesce, spec]) => ({
    text: `CREATE IF NOT EXISTS SYSLOG LISTENER INGESTOR s FROM udp_in MODE NO ACK ON QUIESCE ${quiesce}
      DECODE USING sys TO lines INHERIT ALL SET peer_addr = metadata.peer_addr UNBRANCHED FLUSH IMMEDIATE
      ON MESSAGE ERROR LOG ON GENERAL ERROR LOG`,
    kind: 'SyslogIngestor',
    name: 's',
    spec: {
      client: 'udp-in',
      mode: 'NO_ACK',
      quiesce: spec,
      codec: 'sys',
      routes: [
        route('lines', { inheritAll: true, set: [{ field: 'peer_addr', value: 'metadata.peer_addr' }] }),
      ],
      onGeneralError: 'LOG',
    },
  })),
  {
    text: 'CREATE JUNCTION j FROM a, b, c TO all_orders INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG',
    kind: 'Junction',
    name: 'j',
    spec: { from: ['a', 'b', 'c'], routes: [route('all-orders', { inheritAll: true })] },
  },
  {
    text: 'CREATE JUNCTION j FROM a, b TO x INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG',
    kind: 'Junction',
    name: 'j',
    spec: { from: ['a', 'b'], routes: [route('x', { inheritAll: true })], onGeneralError: 'LOG' },
  },
  {
    text: `CREATE CORRELATOR pay LEFT FROM orders RIGHT FROM payments
      CORRELATE WHERE left.id = right.order_id AND lower(left.currency) = lower(right.currency)
      MATCH EARLIEST MAX TIME 30s MAX PENDING 5000
      ON CORRELATION TIMEOUT DROP, SEND TO unmatched_payments
      UNBRANCHED
      TO paid SET id = left.id, amount = right.amount, label = output.id || '!' FLUSH IMMEDIATE
        ON MESSAGE ERROR SEND TO errors SET reason = error.message, left_id = left.id`,
    kind: 'Correlator',
    name: 'pay',
    spec: {
      left: 'orders',
      right: 'payments',
      where: 'left.id = right.order_id AND lower(left.currency) = lower(right.currency)',
      match: 'EARLIEST',
      maxTime: '30s',
      maxPending: 5000,
      onTimeout: { left: { action: 'DROP' }, right: { action: 'SEND_TO', relay: 'unmatched-payments' } },
      branching: 'UNBRANCHED',
      routes: [
        {
          ...route('paid', {
            set: [
              { field: 'id', value: 'left.id' },
              { field: 'amount', value: 'right.amount' },
              { field: 'label', value: "output.id || '!'" },
            ],
          }),
          onMessageError: {
            action: 'SEND_TO',
            relay: 'errors',
            set: [
              { field: 'reason', value: 'error.message' },
              { field: 'left_id', value: 'left.id' },
            ],
          },
        },
      ],
    },
  },
  {
    text: `CREATE CORRELATOR c LEFT FROM a RIGHT FROM b CORRELATE WHERE left.k = right.k MATCH LATEST MAX TIME 2m
      ON CORRELATION TIMEOUT SEND TO a_late, DROP UNBRANCHED TO o SET k = left.k FLUSH IMMEDIATE ON MESSAGE ERROR LOG`,
    kind: 'Correlator',
    name: 'c',
    spec: {
      left: 'a',
      right: 'b',
      where: 'left.k = right.k',
      match: 'LATEST',
      maxTime: '2m',
      onTimeout: { left: { action: 'SEND_TO', relay: 'a-late' }, right: { action: 'DROP' } },
      branching: 'UNBRANCHED',
      routes: [route('o', { set: [{ field: 'k', value: 'left.k' }] })],
    },
  },
  {
    text: `CREATE EMITTER out FROM lines TO SYSLOG collector MODE NO_ACK RETRY POLICY BACKOFF 500ms MAX 1m
      ENCODE USING sys ALLOW SENSITIVE (message, card) BATCH MAX SIZE 100 MAX TIME 2s FLUSH IMMEDIATE
      ON MESSAGE ERROR SEND TO failed INHERIT ALL ON GENERAL ERROR LOG`,
    kind: 'Emitter',
    name: 'out',
    spec: {
      from: 'lines',
      to: { type: 'SYSLOG', client: 'collector' },
      mode: 'NO_ACK',
      retry: { backoff: '500ms', max: '1m' },
      codec: 'sys',
      allowSensitive: ['message', 'card'],
      batch: { maxSize: 100, maxTime: '2s' },
      flush: 'IMMEDIATE',
      onMessageError: { action: 'SEND_TO', relay: 'failed', inheritAll: true },
      onGeneralError: 'LOG',
    },
  },
  {
    text: `CREATE EMITTER out FROM lines TO SYSLOG collector MODE NO ACK RETRY POLICY BACKOFF 1s MAX 1h
      ENCODE USING sys FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG`,
    kind: 'Emitter',
    name: 'out',
    spec: {
      from: 'lines',
      to: { type: 'SYSLOG', client: 'collector' },
      mode: 'NO_ACK',
      retry: { backoff: '1s', max: '1h' },
      codec: 'sys',
      flush: 'IMMEDIATE',
      onMessageError: LOG,
      onGeneralError: 'LOG',
    },
  },
  {
    text: `CREATE EMITTER out FROM lines TO KAFKA k TOPIC 'lines' KEY lower(input.hostname) MODE ACK
      RETRY POLICY BACKOFF 1s MAX 1h ENCODE USING sys`,
    kind: 'Emitter',
    name: 'out',
    spec: {
      from: 'lines',
      to: { type: 'KAFKA', client: 'k', topic: 'lines', key: 'lower(input.hostname)' },
      mode: 'ACK',
      retry: { backoff: '1s', max: '1h' },
      codec: 'sys',
      flush: 'IMMEDIATE',
      onMessageError: LOG,
      onGeneralError: 'LOG',
    },
  },
  {
    text: `CREATE EMITTER out FROM lines TO KAFKA k TOPIC 'lines' MODE NO ACK RETRY POLICY BACKOFF 1s MAX 1h
      ENCODE USING sys`,
    kind: 'Emitter',
    name: 'out',
    spec: {
      from: 'lines',
      to: { type: 'KAFKA', client: 'k', topic: 'lines' },
      mode: 'NO_ACK',
      retry: { backoff: '1s', max: '1h' },
      codec: 'sys',
      flush: 'IMMEDIATE',
      onMessageError: LOG,
      onGeneralError: 'LOG',
    },
  },
];

describe('parseScript: statement → spec (docs/statement-mapping.md)', () => {
  for (const { text, kind, name, spec } of DECLARATIONS) {
    it(text.replace(/\s+/g, ' ').slice(0, 100), () => {
      assert.deepEqual(specOf(text), { kind, name, spec });
    });
  }

  it('reads every statement in ALTER form as well', () => {
    for (const { text, kind, name, spec } of DECLARATIONS) {
      const altered = text.replace(/^CREATE (IF NOT EXISTS )?/, 'ALTER ');
      const statement = one(altered);
      assert.equal(statement.type, 'alter');
      assert.deepEqual(specOf(altered), { kind, name, spec });
    }
  });

  it('keeps OR REPLACE and IF NOT EXISTS', () => {
    for (const [text, orReplace, ifNotExists] of [
      ['CREATE OR REPLACE RESOURCE r', true, false],
      ['CREATE IF NOT EXISTS RESOURCE r', false, true],
    ] as const) {
      const statement = one(text);
      assert.deepEqual(
        { ...statement, locations: undefined },
        {
          type: 'create',
          orReplace,
          ifNotExists,
          kind: 'Resource',
          identifier: 'r',
          name: 'r',
          spec: {},
          locations: undefined,
          location: { line: 1, column: 1 },
        },
      );
    }
  });

  it('refuses CREATE OR REPLACE IF NOT EXISTS, which contradicts itself: SR1001 at IF NOT EXISTS', () => {
    const { statements, diagnostics } = parseScript(
      'CREATE RESOURCE a;\ncreate or replace if not exists RELAY r SCHEMA s UNBRANCHED;',
    );
    assert.deepEqual(
      statements.map((statement) => statement.type === 'create' && statement.name),
      ['a'],
    );
    assert.deepEqual(diagnostics, [
      {
        code: 'SR1001',
        severity: 'error',
        message:
          'CREATE OR REPLACE cannot be combined with IF NOT EXISTS: OR REPLACE replaces an existing object, IF NOT EXISTS keeps it; write one or the other',
        location: { line: 2, column: 19 },
      },
    ]);
  });
});
