// Every declaration form of the language with each optional clause, in canonical and in other accepted
// spellings (case, MODE NO_ACK, quoted hosts, bare numbers, comments). The round-trip test runs each one
// through parse → print → parse → YAML → load.

export interface StatementForm {
  title: string;
  text: string;
}

const route = 'TO out INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG';

export const STATEMENT_FORMS: readonly StatementForm[] = [
  // Schemas and wire schemas
  {
    title: 'schema with every field type and flag',
    text: `CREATE SCHEMA everything (
      s STRING, b BOOL, u8 U8, u16 U16, u32 U32, u64 U64, i32 I32, i64 I64, f F64, t DATETIME, raw BYTES,
      maybe STRING OPTIONAL, secret STRING SENSITIVE, both I64 OPTIONAL SENSITIVE, other I64 SENSITIVE OPTIONAL,
      CamelCase STRING
    );`,
  },
  { title: 'schema in lower case', text: 'create schema lower (x string optional, y datetime);' },
  {
    title: 'wire JSON schema',
    text: 'CREATE WIRE JSON SCHEMA order_wire MODE STRICT (order_id string, amount INTEGER);',
  },
  // Codecs
  {
    title: 'codec over a wire schema',
    text: 'CREATE CODEC c FROM WIRE JSON SCHEMA order_wire TO SCHEMA orders;',
  },
  {
    title: 'JSON codec, ingestion only',
    text: "CREATE CODEC c FROM JSON TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION '.orders[] | {id: .id}';",
  },
  {
    title: 'codec of every JAQ format with both programs and RFC3339 rules',
    text: ['JSON', 'YAML', 'TOML', 'XML', 'CBOR']
      .map(
        (format) =>
          `CREATE CODEC c_${format.toLowerCase()} FROM ${format} TO SCHEMA orders
            WITH JAQ TRANSFORMATIONS ON INGESTION '.' ON EMITTING '.'
            ENCODE placed_at AS RFC3339, paid_at AS RFC3339;`,
      )
      .join('\n'),
  },
  {
    title: 'JAQ programs between $jaq$ delimiters, multi-line and with quotes',
    text: `CREATE CODEC c FROM YAML TO SCHEMA orders WITH JAQ TRANSFORMATIONS
      ON INGESTION $jaq$.orders[]
        | {id: .id, note: 'it''s raw here'}$jaq$
      ON EMITTING '{note: ''quoted'', semi: ";"}';`,
  },
  {
    title: 'protobuf codec with an exact version',
    text: `CREATE CODEC order_pb FROM PROTOBUF USING RESOURCE protos VERSION 3
      CONFIG { 'file' = 'shop/orders.proto', 'include' = '.' } MESSAGE 'shop.v1.Order'
      TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION '.' ON EMITTING '.' ENCODE placed_at AS RFC3339;`,
  },
  {
    title: 'protobuf codec with LATEST, ingestion only',
    text: `CREATE CODEC order_pb FROM PROTOBUF USING RESOURCE protos VERSION LATEST
      CONFIG { 'include' = 'proto', 'file' = 'orders.proto' } MESSAGE 'Order'
      TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION '{id: .order_id}';`,
  },
  { title: 'SYSLOG codec', text: 'CREATE CODEC syslog FROM SYSLOG TO SCHEMA lines;' },
  // Resources, relays, vhosts, endpoints
  { title: 'resource', text: 'CREATE RESOURCE protos;' },
  { title: 'relay', text: 'CREATE RELAY orders SCHEMA orders UNBRANCHED;' },
  { title: 'vhost with one hostname', text: 'CREATE VHOST shop shop.example.com;' },
  {
    title: 'vhost with quoted, upper-case and several hostnames',
    text: "CREATE VHOST shop 'Shop.Example.com', API.example.com, localhost, 10.0.0.1;",
  },
  {
    title: 'vhost with TLS from a mounted resource',
    text: `CREATE VHOST shop shop.example.com TLS MOUNT certs VERSION 2
      CONFIG { 'tls_cert_file' = '{{ certs }}/tls.crt', 'tls_key_file' = '{{ certs }}/tls.key' };`,
  },
  {
    title: 'vhost with TLS from LATEST, keys in the other order',
    text: `CREATE VHOST shop shop.example.com TLS MOUNT certs VERSION LATEST
      CONFIG { 'tls_key_file' = '{{ certs }}/tls.key', 'tls_cert_file' = '{{ certs }}/tls.crt' };`,
  },
  {
    title: 'vhost with TLS from a Secret',
    text: "CREATE VHOST shop shop.example.com TLS SECRET 'shop-tls';",
  },
  { title: 'endpoint', text: "CREATE ENDPOINT orders_post ON shop PATH '/v1/orders' TYPE HTTP;" },
  // Syslog clients
  {
    title: 'UDP client',
    text: "CREATE CLIENT syslog_udp TYPE SYSLOG CONFIG { 'protocol' = 'udp', 'addr' = '0.0.0.0:514' };",
  },
  {
    title: 'TCP client with framing and a bare max_message_size',
    text: `CREATE CLIENT syslog_tcp TYPE SYSLOG CONFIG { 'addr' = 'collector.example.com:601',
      'framing' = 'non-transparent', 'protocol' = 'tcp', 'max_message_size' = 65536 };`,
  },
  {
    title: 'TCP client with a quoted max_message_size',
    text: "CREATE CLIENT c TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = '[::1]:601', 'max_message_size' = '4096' };",
  },
  {
    title: 'TLS client with a mount and every TLS file',
    text: `CREATE CLIENT syslog_tls TYPE SYSLOG MOUNT pki VERSION 1 CONFIG {
      'protocol' = 'tls', 'addr' = '0.0.0.0:6514', 'framing' = 'octet-counting',
      'tls_cert_file' = '{{ pki }}/server.crt', 'tls_key_file' = '{{ pki }}/server.key',
      'tls_ca_file' = '{{ pki }}/ca.crt' };`,
  },
  // Kafka clients
  {
    title: 'Kafka client with one bootstrap server and nothing else',
    text: "CREATE CLIENT kafka TYPE KAFKA CONFIG { 'bootstrap_servers' = 'localhost:9092' };",
  },
  {
    title: 'Kafka client over SASL_SSL with every key, spaces around the commas, LATEST',
    text: `create client Kafka_Main type kafka mount creds version latest config {
      'tls_key_file' = '{{ creds }}/client.key', 'bootstrap_servers' = 'b-1.example.com:9093 , [::1]:9094,10.0.0.7:9095',
      'client_id' = 'shop.orders-1', 'security_protocol' = 'sasl_ssl', 'sasl_mechanism' = 'scram-sha-512',
      'sasl_username' = 'it''s me', 'sasl_password_file' = '{{ creds }}/password',
      'tls_ca_file' = '{{ creds }}/ca.crt', 'tls_cert_file' = '{{ creds }}/client.crt' };`,
  },
  {
    title: 'Kafka clients over ssl (no files), sasl_plaintext and plaintext',
    text: `CREATE CLIENT k_ssl TYPE KAFKA CONFIG { 'bootstrap_servers' = 'h:9093', 'security_protocol' = 'ssl' };
      CREATE CLIENT k_sasl TYPE KAFKA MOUNT creds VERSION 2 CONFIG { 'bootstrap_servers' = 'h:9092',
        'security_protocol' = 'sasl_plaintext', 'sasl_mechanism' = 'plain', 'sasl_username' = 'u',
        'sasl_password_file' = '{{ creds }}/p' };
      CREATE CLIENT k_plain TYPE KAFKA CONFIG { 'security_protocol' = 'plaintext', 'bootstrap_servers' = 'h:1' };`,
  },
  // HTTP ingestors
  {
    title: 'HTTP ingestor, BUFFER without overflow policy, one route',
    text: `CREATE HTTP ENDPOINT INGESTOR orders_in FROM orders_post MODE NO ACK
      ON QUIESCE BUFFER MAX SIZE 1MiB DECODE USING order_json
      TO orders INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
      ON GENERAL ERROR LOG;`,
  },
  {
    title: 'HTTP ingestor with every optional clause and several routes',
    text: `CREATE HTTP ENDPOINT INGESTOR orders_in FROM orders_post MODE NO_ACK
      ON QUIESCE BUFFER MAX SIZE 64KiB ON OVERFLOW DROP NEWEST DECODE USING order_json MAX BODY SIZE 8MiB
      TO orders INHERIT ALL, SET received = now(), host = lower(metadata.host)
        FLUSH IMMEDIATE ON MESSAGE ERROR SEND TO rejected INHERIT ALL SET code = error.code, why = error.message
      TO audit SET id = input.id, note = 'it''s ' || coalesce(input.note, '-') UNBRANCHED
        FLUSH IMMEDIATE ON MESSAGE ERROR SEND TO rejected SET code = error.code
      TO raw_copy INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR SEND TO rejected INHERIT ALL
      ON GENERAL ERROR LOG;`,
  },
  {
    title: 'HTTP ingestor quiescing with DROP',
    text: `CREATE HTTP ENDPOINT INGESTOR i FROM e MODE NO ACK ON QUIESCE DROP DECODE USING c ${route} ON GENERAL ERROR LOG;`,
  },
  // Syslog ingestors
  {
    title: 'syslog ingestor, SUSPEND, IF NOT EXISTS',
    text: `CREATE IF NOT EXISTS SYSLOG LISTENER INGESTOR syslog_in FROM syslog_udp MODE NO ACK ON QUIESCE SUSPEND
      DECODE USING syslog TO lines INHERIT ALL SET peer_addr = metadata.peer_addr UNBRANCHED FLUSH IMMEDIATE
      ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`,
  },
  {
    title: 'syslog ingestor, BUFFER with DROP OLDEST',
    text: `CREATE SYSLOG LISTENER INGESTOR s FROM c MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1048576 ON OVERFLOW DROP OLDEST
      DECODE USING syslog ${route} ON GENERAL ERROR LOG;`,
  },
  {
    title: 'syslog ingestor, DROP',
    text: `CREATE SYSLOG LISTENER INGESTOR s FROM c MODE NO ACK ON QUIESCE DROP DECODE USING syslog ${route} ON GENERAL ERROR LOG;`,
  },
  // Topic ingestors
  {
    title: 'topic ingestor, ACK, SUSPEND, metadata in routes and handlers',
    text: `CREATE TOPIC INGESTOR orders_in FROM kafka TOPIC 'shop.orders' GROUP 'streamroute-orders'
      START FROM EARLIEST MODE ACK ON QUIESCE SUSPEND DECODE USING order_json
      TO orders INHERIT ALL SET partition = metadata.partition, key = metadata.key UNBRANCHED FLUSH IMMEDIATE
        ON MESSAGE ERROR SEND TO rejected SET where = metadata.topic || ':' || to_string(metadata.offset)
      TO audit SET at = metadata.timestamp FLUSH IMMEDIATE ON MESSAGE ERROR LOG
      ON GENERAL ERROR LOG;`,
  },
  {
    title: 'topic ingestor, NO ACK written both ways, DROP, LATEST, IF NOT EXISTS',
    text: `CREATE IF NOT EXISTS TOPIC INGESTOR t FROM k TOPIC 'a_b-c.d' GROUP 'g' START FROM LATEST MODE NO ACK
        ON QUIESCE DROP DECODE USING c ${route} ON GENERAL ERROR LOG;
      CREATE TOPIC INGESTOR u FROM k TOPIC 'x' GROUP 'x' START FROM LATEST MODE NO_ACK ON QUIESCE DROP DECODE USING c ${route};`,
  },
  // Junctions
  { title: 'junction without a general error policy', text: `CREATE JUNCTION j FROM a, b ${route};` },
  {
    title: 'junction of three relays with a general error policy and two routes',
    text: `CREATE JUNCTION j FROM a, b, c ${route} TO other SET x = input.x FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`,
  },
  // Correlators
  {
    title: 'correlator, MATCH EARLIEST, both sides dropped',
    text: `CREATE CORRELATOR pair LEFT FROM orders RIGHT FROM payments
      CORRELATE WHERE left.id = right.order_id AND lower(left.currency) = lower(right.currency)
      MATCH EARLIEST MAX TIME 30s ON CORRELATION TIMEOUT DROP, DROP UNBRANCHED
      TO paid SET id = left.id, paid_at = right.at FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`,
  },
  {
    title: 'correlator, MATCH LATEST, MAX PENDING, timeouts sent on, route written with UNBRANCHED',
    text: `CREATE CORRELATOR pair LEFT FROM orders RIGHT FROM payments
      CORRELATE WHERE (left.amount - right.amount) * 2 <= 10 OR right.note IS NOT NULL
      MATCH LATEST MAX TIME 5m MAX PENDING 1000 ON CORRELATION TIMEOUT SEND TO unpaid, SEND TO orphans UNBRANCHED
      TO paid SET id = left.id UNBRANCHED FLUSH IMMEDIATE
        ON MESSAGE ERROR SEND TO failures SET l = to_string(left.id), r = to_string(right.id)
      TO audit SET n = -abs(left.amount) / 100, ok = NOT (left.id IS NULL) FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`,
  },
  // Emitters
  {
    title: 'emitter with the required clauses only',
    text: `CREATE EMITTER out FROM lines TO SYSLOG collector MODE NO_ACK RETRY POLICY BACKOFF 500ms MAX 1h
      ENCODE USING syslog FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`,
  },
  {
    title: 'emitter with ALLOW SENSITIVE, BATCH and SEND TO, written MODE NO ACK',
    text: `CREATE EMITTER out FROM lines TO SYSLOG collector MODE NO ACK RETRY POLICY BACKOFF 1s MAX 30s
      ENCODE USING syslog ALLOW SENSITIVE (card, Iban) BATCH MAX SIZE 500 MAX TIME 2s FLUSH IMMEDIATE
      ON MESSAGE ERROR SEND TO failed INHERIT ALL SET why = error.message ON GENERAL ERROR LOG;`,
  },
  {
    title: 'emitter TO KAFKA with a KEY, MODE ACK and every optional clause',
    text: `CREATE EMITTER to_kafka FROM orders TO KAFKA kafka TOPIC 'shop.orders-out'
        KEY coalesce(input.customer, 'anonymous') || '/' || to_string(input.id)
      MODE ACK RETRY POLICY BACKOFF 100ms MAX 10s ENCODE USING order_json ALLOW SENSITIVE (card)
      BATCH MAX SIZE 1000 MAX TIME 50ms FLUSH IMMEDIATE
      ON MESSAGE ERROR SEND TO failed INHERIT ALL SET why = error.message ON GENERAL ERROR LOG;`,
  },
  {
    title: 'emitter TO KAFKA without a KEY, MODE NO ACK, short',
    text: `CREATE EMITTER k_out FROM lines TO KAFKA k TOPIC 'lines' MODE NO ACK RETRY POLICY BACKOFF 1s MAX 1m
      ENCODE USING syslog;
      CREATE EMITTER k_out2 FROM lines TO KAFKA k TOPIC 'lines' KEY input.hostname MODE NO_ACK
      RETRY POLICY BACKOFF 1s MAX 1m ENCODE USING syslog;`,
  },
  // Short forms: every clause with a single value or an obvious default left out (docs/language.md,
  // "Clauses you may leave out"); clause-defaults.test.ts checks each against its full form.
  {
    title: 'short forms of a wire schema, relay, endpoint and client',
    text: `CREATE WIRE SCHEMA w (id string);
      CREATE RELAY r SCHEMA s;
      CREATE ENDPOINT e ON v PATH '/in';
      CREATE CLIENT c CONFIG { 'protocol' = 'udp', 'addr' = '0.0.0.0:514' };
      CREATE CLIENT m MOUNT pki VERSION 1 CONFIG { 'protocol' = 'tls', 'addr' = '0.0.0.0:6514',
        'tls_cert_file' = '{{ pki }}/c.crt', 'tls_key_file' = '{{ pki }}/c.key' };`,
  },
  {
    title: 'short forms of ingestors, with a route that keeps only its target and fields',
    text: `CREATE HTTP ENDPOINT INGESTOR i FROM e ON QUIESCE DROP DECODE USING c TO r INHERIT ALL;
      CREATE SYSLOG LISTENER INGESTOR s FROM c ON QUIESCE SUSPEND DECODE USING syslog
        TO r INHERIT ALL TO audit SET x = input.x ON MESSAGE ERROR SEND TO errors INHERIT ALL;
      CREATE TOPIC INGESTOR t FROM k TOPIC 't' GROUP 'g' START FROM EARLIEST MODE ACK ON QUIESCE SUSPEND
        DECODE USING c TO r INHERIT ALL;`,
  },
  {
    title: 'short forms of a correlator and an emitter',
    text: `CREATE CORRELATOR k LEFT FROM a RIGHT FROM b CORRELATE WHERE left.id = right.id
        MATCH EARLIEST MAX TIME 30s ON CORRELATION TIMEOUT DROP, SEND TO late
        TO paid SET id = left.id;
      CREATE EMITTER o FROM lines TO SYSLOG collector RETRY POLICY BACKOFF 1s MAX 1m ENCODE USING syslog
        BATCH MAX SIZE 10 MAX TIME 1s;`,
  },
  // Statement variants
  {
    title: 'CREATE OR REPLACE and ALTER replace the earlier declaration',
    text: `CREATE RELAY r SCHEMA a UNBRANCHED;
      CREATE OR REPLACE RELAY r SCHEMA b UNBRANCHED;
      ALTER RELAY r SCHEMA c UNBRANCHED;`,
  },
  {
    title: 'comments, a transaction and statements with no resource form',
    text: `-- the orders graph
      BEGIN;
      /* a relay; with a comment */ CREATE RELAY r SCHEMA s UNBRANCHED; -- trailing
      COMMIT;
      SHOW RELAYS;
      DESCRIBE INGESTOR i`,
  },
];
