// Kafka as the data plane gets it: exactly the shapes of the Graph contract (dataplane/graph/types.ts,
// GraphKafkaClient, GraphTopicIngestor, GraphEmitter.kafka).
import assert from 'node:assert/strict';
import { compileCase, resourceFiles } from '../../test/fixtures/compile-cases.js';

const CREDS = resourceFiles({
  creds: { 4: { password: 'secret\n', 'ca.crt': 'ca', 'client.crt': 'c', 'client.key': 'k' } },
});

describe('lower-kafka: Kafka clients, topic ingestors and emitters TO KAFKA in the Graph', () => {
  const result = compileCase({
    statements: `
      CREATE RESOURCE creds;
      CREATE CLIENT k_plain TYPE KAFKA CONFIG { 'bootstrap_servers' = 'b-1:9092, [::1]:9093' };
      CREATE CLIENT k_full TYPE KAFKA MOUNT creds VERSION LATEST CONFIG {
        'bootstrap_servers' = 'b-1.example.com:9094', 'client_id' = 'shop.orders', 'security_protocol' = 'sasl_ssl',
        'sasl_mechanism' = 'scram-sha-512', 'sasl_username' = 'shop', 'sasl_password_file' = '{{ creds }}/password',
        'tls_ca_file' = '{{ creds }}/ca.crt', 'tls_cert_file' = '{{ creds }}/client.crt',
        'tls_key_file' = '{{ creds }}/client.key' };
      CREATE CLIENT k_ssl TYPE KAFKA CONFIG { 'bootstrap_servers' = 'b:9093', 'security_protocol' = 'ssl' };
      CREATE TOPIC INGESTOR lines_in FROM k_full TOPIC 'shop.lines' GROUP 'streamroute-shop'
        START FROM EARLIEST MODE ACK ON QUIESCE SUSPEND DECODE USING syslog
        TO lines INHERIT ALL SET hostname = metadata.key;
      CREATE TOPIC INGESTOR orders_in FROM k_plain TOPIC 'orders' GROUP 'g' START FROM LATEST MODE NO ACK
        ON QUIESCE DROP DECODE USING orders_json TO orders INHERIT ALL;
      CREATE EMITTER keyed FROM orders TO KAFKA k_full TOPIC 'orders.out' KEY input.order_id MODE ACK
        RETRY POLICY BACKOFF 100ms MAX 5s ENCODE USING orders_json BATCH MAX SIZE 50 MAX TIME 20ms;
      CREATE EMITTER unkeyed FROM lines TO KAFKA k_plain TOPIC 'lines' MODE NO ACK
        RETRY POLICY BACKOFF 1s MAX 1m ENCODE USING syslog;`,
    resources: CREDS,
  });
  const { graph } = result;

  it('compiles cleanly', () => assert.deepEqual(result.diagnostics, []));

  it('a plain client: brokers in order (IPv6 without brackets), the default client_id and protocol', () => {
    assert.deepEqual(graph.kafkaClients['k-plain'], {
      brokers: [
        { host: 'b-1', port: 9092 },
        { host: '::1', port: 9093 },
      ],
      clientId: 'streamroute-shop-k-plain',
      securityProtocol: 'plaintext',
    });
  });

  it('a SASL_SSL client: SASL and TLS grouped, files and mount bound to the LATEST version', () => {
    const file = (name: string) => ({ resource: 'creds', version: 4, file: name });
    assert.deepEqual(graph.kafkaClients['k-full'], {
      brokers: [{ host: 'b-1.example.com', port: 9094 }],
      clientId: 'shop.orders',
      securityProtocol: 'sasl_ssl',
      sasl: { mechanism: 'scram-sha-512', username: 'shop', passwordFile: file('password') },
      tls: { caFile: file('ca.crt'), certFile: file('client.crt'), keyFile: file('client.key') },
      mount: { resource: 'creds', version: 4 },
    });
  });

  it('an ssl client without files has no tls entry: it trusts the system roots', () => {
    assert.deepEqual(graph.kafkaClients['k-ssl'], {
      brokers: [{ host: 'b', port: 9093 }],
      clientId: 'streamroute-shop-k-ssl',
      securityProtocol: 'ssl',
    });
  });

  it('topic ingestors: every clause, routes reading metadata as typed expressions', () => {
    assert.deepEqual(graph.topicIngestors['lines-in'], {
      client: 'k-full',
      topic: 'shop.lines',
      group: 'streamroute-shop',
      startFrom: 'EARLIEST',
      mode: 'ACK',
      quiesce: { action: 'SUSPEND' },
      codec: 'syslog',
      routes: [
        {
          to: 'lines',
          inherit: ['facility', 'severity', 'message', 'hostname'],
          set: [
            {
              field: 'hostname',
              value: { kind: 'field', scope: 'metadata', name: 'key', type: 'STRING', nullable: true },
            },
          ],
          branching: 'UNBRANCHED',
          flush: 'IMMEDIATE',
          onMessageError: { action: 'LOG' },
        },
      ],
      onGeneralError: 'LOG',
    });
    const orders = graph.topicIngestors['orders-in'];
    assert.deepEqual(
      [orders?.startFrom, orders?.mode, orders?.quiesce],
      ['LATEST', 'NO_ACK', { action: 'DROP' }],
    );
  });

  it('emitters TO KAFKA: client of kafkaClients, topic and typed key; no key when none is written', () => {
    assert.deepEqual(graph.emitters.keyed, {
      from: 'orders',
      client: 'k-full',
      kafka: {
        topic: 'orders.out',
        key: { kind: 'field', scope: 'input', name: 'order_id', type: 'STRING', nullable: false },
      },
      codec: 'orders-json',
      mode: 'ACK',
      retry: { backoffMs: 100, maxMs: 5000 },
      batch: { maxSize: 50, maxTimeMs: 20 },
      flush: 'IMMEDIATE',
      onMessageError: { action: 'LOG' },
      onGeneralError: 'LOG',
    });
    assert.deepEqual(graph.emitters.unkeyed?.kafka, { topic: 'lines' });
    assert.equal(graph.emitters.unkeyed?.mode, 'NO_ACK');
  });

  it('display names of Kafka clients and topic ingestors go in names', () => {
    assert.equal(graph.names?.kafkaClients?.['k-full'], 'k_full');
    assert.equal(graph.names?.topicIngestors?.['lines-in'], 'lines_in');
    assert.equal(graph.names?.resources?.creds, undefined);
  });
});
