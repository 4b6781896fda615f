import assert from 'node:assert/strict';
import { compileCase, httpIngestor, route, table } from '../../test/fixtures/compile-cases.js';

describe('check-references: every reference exists; referrers of bad objects wait', () => {
  table([
    {
      name: 'a missing relay: SR2001 only (the referrer waits), the rest of the domain still compiles',
      statements: httpIngestor('orders_in', 'orders_json', route('nowhere', 'SET order_id = input.order_id')),
      expect: [
        {
          code: 'SR2001',
          object: 'HttpIngestor/orders-in',
          path: 'spec.routes[0].to',
          message: 'refers to Relay nowhere, which does not exist in domain shop',
        },
      ],
      inGraph: ['relays/orders', 'codecs/orders-json'],
    },
    {
      name: 'every kind’s references are checked',
      statements: `CREATE RELAY r1 SCHEMA missing_schema UNBRANCHED;
        CREATE CODEC c1 FROM WIRE JSON SCHEMA missing_wire TO SCHEMA orders;
        CREATE ENDPOINT e1 ON missing_vhost PATH '/x' TYPE HTTP;
        CREATE CLIENT cl TYPE SYSLOG MOUNT missing_res VERSION 1 CONFIG { 'protocol' = 'udp', 'addr' = '0.0.0.0:9' };
        CREATE EMITTER em FROM orders TO SYSLOG missing_client MODE NO_ACK RETRY POLICY BACKOFF 1s MAX 1m
          ENCODE USING missing_codec FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`,
      expect: [
        { code: 'SR2001', object: 'Relay/r1', path: 'spec.schema', message: 'Schema missing_schema' },
        { code: 'SR2001', object: 'Codec/c1', path: 'spec.wireSchema', message: 'WireSchema missing_wire' },
        { code: 'SR2001', object: 'Endpoint/e1', path: 'spec.vhost', message: 'Vhost missing_vhost' },
        {
          code: 'SR2001',
          object: 'SyslogClient/cl',
          path: 'spec.mount.resource',
          message: 'Resource missing_res',
        },
        {
          code: 'SR2001',
          object: 'Emitter/em',
          path: 'spec.to.client',
          message: 'SyslogClient missing_client',
        },
        { code: 'SR2001', object: 'Emitter/em', path: 'spec.codec', message: 'Codec missing_codec' },
      ],
    },
    {
      name: 'an object waits for a rejected one it refers to; unrelated objects stay',
      statements: `CREATE SCHEMA bad (message STRING, facility STRING);
        CREATE CODEC bad_syslog FROM SYSLOG TO SCHEMA bad;
        CREATE RELAY via_bad SCHEMA orders UNBRANCHED;
        ${httpIngestor('orders_in', 'bad_syslog', route('orders', "SET order_id = 'x', amount = 1"))}`,
      expect: [
        { code: 'SR2011', object: 'Codec/bad-syslog', path: 'spec.schema', message: 'facility must be U8' },
        {
          code: 'SR2061',
          object: 'HttpIngestor/orders-in',
          path: 'spec.codec',
          message: 'waits for Codec bad_syslog, which is rejected',
        },
      ],
      inGraph: ['relays/via-bad'],
    },
  ]);

  it('verdicts: rejected with its diagnostics, waiting on the root cause, accepted otherwise', () => {
    const result = compileCase({
      statements: `CREATE SCHEMA bad (message STRING, facility STRING);
        CREATE CODEC bad_syslog FROM SYSLOG TO SCHEMA bad;
        CREATE RELAY lost SCHEMA nothing UNBRANCHED;
        CREATE JUNCTION j FROM lost TO orders SET order_id = 'x', amount = 1 FLUSH IMMEDIATE ON MESSAGE ERROR LOG;
        ${httpIngestor('orders_in', 'bad_syslog', route('orders', "SET order_id = 'x', amount = 1"))}`,
    });
    const verdict = (id: string): unknown => result.verdicts.get(id);
    assert.equal((verdict('Codec/bad-syslog') as { status: string }).status, 'rejected');
    assert.deepEqual(verdict('HttpIngestor/orders-in'), {
      status: 'waiting',
      on: [{ kind: 'Codec', name: 'bad-syslog', display: 'bad_syslog' }],
    });
    assert.deepEqual(verdict('Junction/j'), { status: 'waiting', on: [{ kind: 'Schema', name: 'nothing' }] });
    assert.deepEqual(verdict('Relay/orders'), { status: 'accepted' });
    assert.ok(!('j' in result.graph.junctions) && !('orders-in' in result.graph.httpIngestors));
    assert.ok('bad' in result.graph.schemas, 'the schema itself is fine');
  });
});
