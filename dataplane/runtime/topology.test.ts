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
import { diffGraphs } from '../graph/diff.js';
import type { Graph } from '../graph/types.js';
import { ManualClock } from '../core/clock.js';
import { parseRfc3339 } from '../core/rfc3339.js';
import { readCounter } from '../core/telemetry.js';
import { buildTopology, type Topology } from './topology.js';

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
      const labels = { domain: 'test', kind: 'http-ingestor', name: 'orders_in', reason: 'SR3003' };
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

    it('a codec that cannot be built, and an emitter to a client the graph lacks', () => {
      const graph = structuredClone<Graph>(graphFromStatements(exampleStatements('quickstart')));
      graph.codecs['orders-json'] = {
        kind: 'protobuf',
        schema: 'orders',
        canEncode: false,
        descriptor: {},
        message: 'shop.v1.Order',
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
          'http-ingestor orders_in: codec orders_json: the protobuf descriptor has no message shop.v1.Order',
          'emitter out: TO SYSLOG none: no such client',
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
      assert.deepEqual(built.errors, ['http-ingestor orders_in: expression node literal has no type']);
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

describe('topology hot reload: building with the previous topology and the diff', () => {
  const payments = (): Graph => structuredClone(graphFromStatements(exampleStatements('payments')));

  /** Builds `next` over the harness's running topology with the harness's registry and clock. */
  function reload(h: ReturnType<typeof harness>, previous: Graph, next: Graph) {
    const deps = { registry: h.registry, logger: memoryLogger().logger, clock: h.clock };
    return buildTopology(next, deps, { previous: h.topology, diff: diffGraphs(previous, next) });
  }

  // Counted under the display name (decision 0025): the statement wrote pay_last.
  const stoppedDrops = (h: ReturnType<typeof harness>, name: string) =>
    readCounter(h.registry, 'streamroute_drops_total', { kind: 'correlator', name, reason: 'stopped' });

  it('keeps unchanged parts as the same objects; a changed correlator is new and its pending records are counted stopped', async () => {
    const before = payments();
    const h = harness(before);
    await h.topology.ingestors.get('web-in')!.ingest(utf8({ order_id: 'o-1', amount: 5 }), {});
    const old = h.topology;
    assert.equal(old.correlators.get('pay-last')!.pending('left'), 1);
    const consumers = old.relays.get('orders')!.consumerCount;

    const after = payments();
    after.correlators['pay-last']!.maxTimeMs = 60_000;
    const built = reload(h, before, after);
    assert.ok(built.ok);
    const next: Topology = built.topology;
    for (const relay of old.relays.keys()) assert.equal(next.relays.get(relay), old.relays.get(relay), relay);
    for (const ingestor of old.ingestors.keys())
      assert.equal(next.ingestors.get(ingestor), old.ingestors.get(ingestor), ingestor);
    assert.equal(next.junctions.get('all-orders'), old.junctions.get('all-orders'));
    assert.equal(next.correlators.get('pay-first'), old.correlators.get('pay-first'));
    assert.notEqual(next.correlators.get('pay-last'), old.correlators.get('pay-last'));
    assert.equal(next.correlators.get('pay-first')!.pending('left'), 1, 'unchanged: pending records kept');
    assert.equal(next.correlators.get('pay-last')!.pending('left'), 0);
    assert.equal(await stoppedDrops(h, 'pay_last'), 1);
    assert.equal(await stoppedDrops(h, 'pay_first'), 0);
    assert.equal(next.relays.get('orders')!.consumerCount, consumers, 'the old pay-last unsubscribed');

    // The old topology was handed over: stopping it must not stop what the new one runs.
    old.stop();
    assert.equal(next.correlators.get('pay-first')!.pending('left'), 1);
    assert.throws(() => reload(h, before, after), /was already replaced/);
  });

  it('a changed relay is a new Relay, and everything reading or writing it is rebuilt', () => {
    const before = payments();
    const h = harness(before);
    const after = payments();
    after.schemas.paid!.fields.push({ name: 'note', type: 'STRING', optional: true, sensitive: false });
    const built = reload(h, before, after);
    assert.ok(built.ok);
    assert.notEqual(built.topology.relays.get('paid-first'), h.topology.relays.get('paid-first'));
    assert.notEqual(built.topology.correlators.get('pay-first'), h.topology.correlators.get('pay-first'));
    assert.equal(built.topology.relays.get('orders'), h.topology.relays.get('orders'));
  });

  it('a graph that cannot be built leaves the running topology untouched', async () => {
    const before = payments();
    const h = harness(before);
    await h.topology.ingestors.get('web-in')!.ingest(utf8({ order_id: 'o-1', amount: 5 }), {});
    const consumers = h.topology.relays.get('orders')!.consumerCount;
    const after = payments();
    after.correlators['pay-last']!.maxTimeMs = 60_000;
    after.httpIngestors['web-in']!.routes[0]!.set.push({
      field: 'channel',
      value: { kind: 'literal', literal: 'STRING', value: 'x' },
    });
    const built = reload(h, before, after);
    assert.ok(!built.ok);
    assert.deepEqual(built.errors, ['http-ingestor web_in: expression node literal has no type']);
    assert.equal(h.topology.correlators.get('pay-last')!.pending('left'), 1);
    assert.equal(h.topology.relays.get('orders')!.consumerCount, consumers);
    assert.equal(await stoppedDrops(h, 'pay_last'), 0);
    h.topology.stop(); // still its own: stopping it stops its correlators
    assert.equal(await stoppedDrops(h, 'pay_last'), 1);
  });
});
