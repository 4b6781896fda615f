import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import {
  exampleStatements,
  graphFromStatements,
  harness,
  memoryLogger,
  utf8,
} from '../../test/fixtures/graph-from-statements.js';
import { CODEC_FACTORIES } from '../codecs/codec.js';
import type { Graph } from '../graph/types.js';
import { ManualClock } from './clock.js';
import { parseRfc3339 } from './rfc3339.js';
import { readCounter } from './telemetry.js';
import { buildTopology } from './topology.js';

const HTTP_METADATA = {
  host: 'localhost',
  path: '/orders',
  remote_addr: '127.0.0.1:40000',
  content_type: null,
};

describe('topology', () => {
  describe('examples/quickstart end to end: statements → graph → ingest(payload) → record on the relay', () => {
    it('places a decoded order on relay orders, 64-bit amount exact', async () => {
      const h = harness(graphFromStatements(exampleStatements('quickstart')));
      const body = '{"order_id": "o-1", "amount": 9223372036854775807}';
      await h.topology.ingestors.get('orders-in')!.ingest(utf8(body), HTTP_METADATA);
      assert.deepEqual(h.seen.get('orders'), [{ order_id: 'o-1', amount: 9223372036854775807n }]);
    });

    it('logs and counts a body that does not fit the wire schema (ON MESSAGE ERROR LOG)', async () => {
      const h = harness(graphFromStatements(exampleStatements('quickstart')));
      await h.topology.ingestors.get('orders-in')!.ingest(utf8('{"order_id": "o-1"}'), HTTP_METADATA);
      assert.deepEqual(h.seen.get('orders'), []);
      const labels = { domain: 'test', kind: 'http-ingestor', name: 'orders-in', reason: 'SR3003' };
      assert.equal(await readCounter(h.registry, 'streamroute_message_errors_total', labels), 1);
      const line = h.logs.find((log) => log.msg === 'message error');
      assert.equal(line?.reason, 'key "amount" is missing');
    });

    it('gives every subscriber every record, and stops giving it after unsubscribe', async () => {
      const h = harness(graphFromStatements(exampleStatements('quickstart')));
      const got: unknown[] = [];
      const unsubscribe = h.topology.onRecord('orders', (record) => void got.push(record.order_id));
      const ingest = h.topology.ingestors.get('orders-in')!;
      await ingest.ingest(utf8({ order_id: 'o-1', amount: 1 }), HTTP_METADATA);
      unsubscribe();
      await ingest.ingest(utf8({ order_id: 'o-2', amount: 2 }), HTTP_METADATA);
      assert.deepEqual(got, ['o-1']);
      assert.throws(() => h.topology.onRecord('nope', () => undefined), /has no relay nope/);
    });
  });

  describe('asynchronous codecs', () => {
    const original = CODEC_FACTORIES['wire-json']!;
    afterEach(() => {
      CODEC_FACTORIES['wire-json'] = original;
    });

    /** The wire codec behind a promise, failing with `failure` when given. */
    function asyncWireJson(failure?: Error): void {
      CODEC_FACTORIES['wire-json'] = (spec, schema) => {
        const inner = original(spec, schema);
        if ('unsupported' in inner) return inner;
        return {
          kind: inner.kind,
          schema: inner.schema,
          decode: (payload) =>
            failure === undefined ? Promise.resolve(inner.decode(payload)) : Promise.reject(failure),
        };
      };
    }

    it('resolve ingest after the routes ran', async () => {
      asyncWireJson();
      const h = harness(graphFromStatements(exampleStatements('quickstart')));
      const pending = h.topology.ingestors.get('orders-in')!.ingest(utf8({ order_id: 'o-1', amount: 1 }), {});
      assert.ok(pending instanceof Promise);
      assert.deepEqual(h.seen.get('orders'), []);
      await pending;
      assert.deepEqual(h.seen.get('orders'), [{ order_id: 'o-1', amount: 1n }]);
    });

    it('turn a codec that rejects into a message error (SR3009), never a rejection', async () => {
      asyncWireJson(new TypeError('SECRET in the message'));
      const h = harness(graphFromStatements(exampleStatements('quickstart')));
      await h.topology.ingestors.get('orders-in')!.ingest(utf8({ order_id: 'o-1', amount: 1 }), {});
      const line = h.logs.find((log) => log.msg === 'message error');
      assert.deepEqual([line?.code, line?.reason], ['SR3009', 'the codec failed unexpectedly (TypeError)']);
      assert.doesNotMatch(JSON.stringify(h.logs), /SECRET/);
    });
  });

  describe('refuses a graph it cannot run, with every reason', () => {
    const deps = () => ({
      registry: new Registry(),
      logger: memoryLogger().logger,
      clock: new ManualClock(),
    });

    it('a codec kind that is not supported yet, and emitters', () => {
      const graph = structuredClone<Graph>(graphFromStatements(exampleStatements('quickstart')));
      graph.codecs['orders-json'] = {
        kind: 'jaq',
        schema: 'orders',
        canEncode: false,
        format: 'YAML',
        ingestion: '.',
        encodeRfc3339: [],
      };
      graph.emitters.out = {
        from: 'orders',
        client: 'none',
        codec: 'orders-json',
        mode: 'NO_ACK',
        retry: { backoffMs: 1000, maxMs: 5000 },
        flush: 'IMMEDIATE',
        onMessageError: { action: 'LOG' },
        onGeneralError: 'LOG',
      };
      const built = buildTopology(graph, deps());
      assert.deepEqual(built, {
        ok: false,
        errors: [
          'http-ingestor orders-in: codec orders-json: codec kind jaq is not supported by this data plane yet',
          'emitter out: emitters are not wired into this data plane yet',
        ],
      });
    });

    it('an expression without its types', () => {
      const graph = structuredClone<Graph>(graphFromStatements(exampleStatements('quickstart')));
      graph.httpIngestors['orders-in']!.routes[0]!.set.push({
        field: 'order_id',
        value: { kind: 'literal', literal: 'STRING', value: 'x' },
      });
      const built = buildTopology(graph, deps());
      assert.ok(!built.ok);
      assert.deepEqual(built.errors, ['http-ingestor orders-in: expression node literal has no type']);
    });

    it('builds again on the same registry (a hot reload reuses the counters)', () => {
      const graph = graphFromStatements(exampleStatements('quickstart'));
      const shared = deps();
      assert.ok(buildTopology(graph, shared).ok);
      assert.ok(buildTopology(graph, shared).ok);
    });
  });

  describe('correlators', () => {
    const GRAPH = `
      CREATE SCHEMA orders (order_id STRING, amount I64);
      CREATE SCHEMA payments (order_id STRING, paid I64);
      CREATE SCHEMA paid (order_id STRING, amount I64, paid I64, matched_at DATETIME);
      CREATE WIRE JSON SCHEMA orders_wire MODE STRICT (order_id string, amount integer);
      CREATE WIRE JSON SCHEMA payments_wire MODE STRICT (order_id string, paid integer);
      CREATE CODEC orders_json FROM WIRE JSON SCHEMA orders_wire TO SCHEMA orders;
      CREATE CODEC payments_json FROM WIRE JSON SCHEMA payments_wire TO SCHEMA payments;
      CREATE RELAY orders SCHEMA orders UNBRANCHED;
      CREATE RELAY payments SCHEMA payments UNBRANCHED;
      CREATE RELAY paid SCHEMA paid UNBRANCHED;
      CREATE RELAY unpaid SCHEMA orders UNBRANCHED;
      CREATE VHOST shop shop.example.com;
      CREATE ENDPOINT orders_ep ON shop PATH '/orders' TYPE HTTP;
      CREATE ENDPOINT payments_ep ON shop PATH '/payments' TYPE HTTP;
      CREATE HTTP ENDPOINT INGESTOR orders_in FROM orders_ep MODE NO ACK ON QUIESCE DROP DECODE USING orders_json
        TO orders INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
      CREATE HTTP ENDPOINT INGESTOR payments_in FROM payments_ep MODE NO ACK ON QUIESCE DROP DECODE USING payments_json
        TO payments INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
      CREATE CORRELATOR pairs
        LEFT FROM orders RIGHT FROM payments
        CORRELATE WHERE left.order_id = right.order_id AND right.paid >= left.amount
        MATCH EARLIEST MAX TIME 30s
        ON CORRELATION TIMEOUT SEND TO unpaid, DROP
        UNBRANCHED
        TO paid SET order_id = left.order_id, amount = left.amount, paid = right.paid, matched_at = now()
          FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`;

    it('pair records through routes, forward timed-out records unchanged, count DROP timeouts', async () => {
      const h = harness(graphFromStatements(GRAPH));
      const orders = h.topology.ingestors.get('orders-in')!;
      const payments = h.topology.ingestors.get('payments-in')!;
      await orders.ingest(utf8({ order_id: 'o-1', amount: 10 }), {});
      await payments.ingest(utf8({ order_id: 'o-1', paid: 5 }), {}); // WHERE is false: both wait
      await payments.ingest(utf8({ order_id: 'o-1', paid: 10 }), {});
      assert.deepEqual(h.seen.get('paid'), [
        { order_id: 'o-1', amount: 10n, paid: 10n, matched_at: parseRfc3339('2026-11-22T03:08:00Z') },
      ]);
      await orders.ingest(utf8({ order_id: 'o-2', amount: 7 }), {});
      h.clock.advance(31_000);
      assert.deepEqual(h.seen.get('unpaid'), [{ order_id: 'o-2', amount: 7n }]);
      const timeouts = await readCounter(h.registry, 'streamroute_drops_total', {
        kind: 'correlator',
        name: 'pairs',
        reason: 'correlation_timeout',
      });
      assert.equal(timeouts, 1); // the unmatched o-1 payment of 5
      assert.equal(h.topology.correlators.get('pairs')?.pending('left'), 0);
    });
  });
});
