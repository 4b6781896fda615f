import assert from 'node:assert/strict';
import { compileCase, httpIngestor, route } from '../../test/fixtures/compile-cases.js';

describe('lower-graph: what the runtime gets', () => {
  const result = compileCase({
    statements: `
      CREATE VHOST partner partner.example.com TLS SECRET 'partner-tls';
      CREATE ENDPOINT partner_ep ON partner PATH '/in' TYPE HTTP;
      CREATE CODEC ndjson FROM JSON TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION '.';
      CREATE CLIENT out_tcp TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = '[::1]:601' };
      CREATE SCHEMA errs (code STRING, order_id STRING OPTIONAL);
      CREATE RELAY errs SCHEMA errs UNBRANCHED;
      ${httpIngestor('plain_in', 'orders_json', route('orders', "INHERIT ALL SET note = lower(input.order_id) || '!'", 'SEND TO errs INHERIT ALL SET code = error.code'))}
      CREATE HTTP ENDPOINT INGESTOR partner_in FROM partner_ep MODE NO ACK ON QUIESCE BUFFER MAX SIZE 64KiB
        DECODE USING ndjson MAX BODY SIZE 2MiB ${route('orders', 'INHERIT ALL')} ON GENERAL ERROR LOG;
      CREATE EMITTER out FROM lines TO SYSLOG out_tcp MODE NO_ACK RETRY POLICY BACKOFF 250ms MAX 2m
        ENCODE USING syslog BATCH MAX SIZE 10 MAX TIME 1s FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`,
  });
  const { graph } = result;

  it('compiles cleanly', () => assert.deepEqual(result.diagnostics, []));

  it('clients: addr split, defaults filled, no framing on udp', () => {
    assert.deepEqual(graph.clients['udp-in'], {
      protocol: 'udp',
      host: '0.0.0.0',
      port: 5514,
      maxMessageSize: 131072,
    });
    assert.deepEqual(graph.clients['out-tcp'], {
      protocol: 'tcp',
      host: '::1',
      port: 601,
      maxMessageSize: 131072,
      framing: 'octet-counting',
    });
  });

  it('HTTP ingestors carry their endpoint inline, sizes in bytes, defaults filled', () => {
    const plain = graph.httpIngestors['plain-in'];
    assert.deepEqual(
      {
        hostnames: plain?.hostnames,
        path: plain?.path,
        quiesce: plain?.quiesce,
        maxBodyBytes: plain?.maxBodyBytes,
        tls: plain?.tls,
      },
      {
        hostnames: ['shop.example.com'],
        path: '/orders',
        quiesce: { action: 'DROP' },
        maxBodyBytes: 1048576,
        tls: undefined,
      },
    );
    const partner = graph.httpIngestors['partner-in'];
    assert.deepEqual(partner?.tls, { secretName: 'partner-tls' });
    assert.deepEqual(partner?.quiesce, { action: 'BUFFER', maxBytes: 65536, onOverflow: 'DROP_NEWEST' });
    assert.equal(partner?.maxBodyBytes, 2 * 1024 * 1024);
  });

  it('routes spell out INHERIT ALL and carry typed expressions without spans', () => {
    const lowered = graph.httpIngestors['plain-in']?.routes[0];
    // note is inherited and then set: a SET may read the inherited value as output.note.
    assert.deepEqual(lowered?.inherit, ['order_id', 'amount', 'note']);
    assert.deepEqual(lowered?.set[0]?.value, {
      kind: 'binary',
      op: '||',
      type: 'STRING',
      nullable: false,
      left: {
        kind: 'call',
        name: 'lower',
        type: 'STRING',
        nullable: false,
        args: [{ kind: 'field', scope: 'input', name: 'order_id', type: 'STRING', nullable: false }],
      },
      right: { kind: 'literal', literal: 'STRING', value: '!', type: 'STRING', nullable: false },
    });
    assert.deepEqual(lowered?.onMessageError, {
      action: 'SEND_TO',
      relay: 'errs',
      inherit: ['order_id'],
      set: [
        {
          field: 'code',
          value: { kind: 'field', scope: 'error', name: 'code', type: 'STRING', nullable: false },
        },
      ],
    });
  });

  it('codecs as a tagged union', () => {
    assert.deepEqual(graph.codecs.syslog, {
      kind: 'syslog',
      schema: 'line',
      canEncode: true,
      fields: ['facility', 'severity', 'hostname', 'message'],
    });
    assert.deepEqual(graph.codecs.ndjson, {
      kind: 'jaq',
      schema: 'orders',
      canEncode: false,
      format: 'JSON',
      ingestion: '.',
      encodeRfc3339: [],
    });
    assert.equal(graph.codecs['orders-json']?.kind, 'wire-json');
  });

  it('emitters: durations in milliseconds', () => {
    assert.deepEqual(graph.emitters.out, {
      from: 'lines',
      client: 'out-tcp',
      codec: 'syslog',
      mode: 'NO_ACK',
      retry: { backoffMs: 250, maxMs: 120000 },
      batch: { maxSize: 10, maxTimeMs: 1000 },
      flush: 'IMMEDIATE',
      onMessageError: { action: 'LOG' },
      onGeneralError: 'LOG',
    });
  });

  it('schemas keep SENSITIVE and OPTIONAL flags', () => {
    assert.deepEqual(graph.schemas.orders?.fields[2], {
      name: 'note',
      type: 'STRING',
      optional: true,
      sensitive: false,
    });
  });
});
