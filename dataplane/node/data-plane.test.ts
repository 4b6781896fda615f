// The data plane over real sockets: apply, hot reload, refusal, subscriptions, removal and stop.
import assert from 'node:assert/strict';
import {
  paymentsGraph,
  recordingSubscriber,
  testDataPlane,
  type TestDataPlane,
} from '../../test/fixtures/data-plane.js';
import { RawConnection, sendOnce } from '../../test/support/raw-http.js';
import type { Graph } from '../graph/types.js';
import { readCounter } from '../core/telemetry.js';

const ORDER = '{"order_id":"A1","amount":250}';
const webOrder = (body = ORDER) => ({ host: 'localhost', path: '/web/orders', body });

describe('DataPlane', () => {
  let node: TestDataPlane;
  beforeEach(() => {
    node = testDataPlane();
  });
  afterEach(() => node.dataPlane.stop(0));

  async function running(graph: Graph = paymentsGraph()): Promise<TestDataPlane> {
    const applied = await node.dataPlane.apply(graph, 1);
    assert.ok(applied.ok, JSON.stringify(applied));
    await node.dataPlane.start();
    return node;
  }

  it('apply then POST: the record lands on a subscriber of the relay', async () => {
    const applied = await node.dataPlane.apply(paymentsGraph(), 1);
    assert.ok(applied.ok);
    assert.equal(applied.domain, 'default');
    assert.ok(applied.changes.added.includes('relay web_orders'));
    assert.ok(applied.changes.added.includes('http-ingestor web_in'));
    assert.deepEqual(applied.warnings, []);
    await node.dataPlane.start(); // restored before listening
    const subscriber = recordingSubscriber();
    assert.ok(node.dataPlane.subscribe('default', 'web-orders', subscriber).ok);

    assert.equal((await sendOnce(node.port(), webOrder())).status, 202);
    assert.deepEqual(subscriber.records, [{ order_id: 'A1', amount: 250n, channel: 'web' }]);
    assert.deepEqual([...node.dataPlane.versions()], [['default', 1]]);
  });

  it('subscribe names the domain or relay it cannot find', async () => {
    await running();
    const unknownDomain = node.dataPlane.subscribe('nope', 'orders', recordingSubscriber());
    assert.deepEqual(unknownDomain.ok ? undefined : unknownDomain.reason, 'unknown_domain');
    const unknownRelay = node.dataPlane.subscribe('default', 'nope', recordingSubscriber());
    assert.equal(unknownRelay.ok ? undefined : unknownRelay.message, 'domain default has no relay nope');
  });

  it('a reload with an unrelated change keeps the relay, the ingestor, the keep-alive connection and the subscriber', async () => {
    await running();
    const before = node.dataPlane.topology('default')!;
    const subscriber = recordingSubscriber();
    assert.ok(node.dataPlane.subscribe('default', 'web-orders', subscriber).ok);
    const connection = await RawConnection.connect(node.port());
    assert.equal((await connection.request(webOrder())).status, 202);

    const next = paymentsGraph();
    next.httpIngestors['payments-in']!.maxBodyBytes = 4096;
    const applied = await node.dataPlane.apply(next, 2);
    assert.ok(applied.ok);
    assert.deepEqual(applied.changes.changed, ['http-ingestor payments_in']);
    assert.deepEqual(applied.changes.added, []);

    const after = node.dataPlane.topology('default')!;
    assert.notEqual(after, before);
    assert.equal(after.relays.get('web-orders'), before.relays.get('web-orders'));
    assert.equal(after.ingestors.get('web-in'), before.ingestors.get('web-in'));
    assert.notEqual(after.ingestors.get('payments-in'), before.ingestors.get('payments-in'));
    assert.equal((await connection.request(webOrder())).status, 202);
    assert.equal(connection.closed, false, 'the same socket served a request before and after');
    assert.equal(subscriber.records.length, 2);
    assert.deepEqual(subscriber.ended, []);
    assert.deepEqual([...node.dataPlane.versions()], [['default', 2]]);
    connection.destroy();
  });

  it('a changed ingestor is swapped under an open connection: the next body takes the new routes', async () => {
    await running();
    const connection = await RawConnection.connect(node.port());
    const subscriber = recordingSubscriber();
    node.dataPlane.subscribe('default', 'web-orders', subscriber);
    assert.equal((await connection.request(webOrder())).status, 202);
    const applied = await node.dataPlane.apply(
      paymentsGraph((text) => text.replace("SET channel = 'web'", "SET channel = 'web2'")),
      2,
    );
    assert.ok(applied.ok);
    assert.deepEqual(applied.changes.changed, ['http-ingestor web_in']);
    assert.equal((await connection.request(webOrder())).status, 202);
    assert.deepEqual(
      subscriber.records.map((record) => record.channel),
      ['web', 'web2'],
    );
    connection.destroy();
  });

  it('a changed MAX BODY SIZE takes effect (the ingestor gets a new target)', async () => {
    await running();
    const next = paymentsGraph();
    next.httpIngestors['web-in']!.maxBodyBytes = 10;
    assert.ok((await node.dataPlane.apply(next, 2)).ok);
    assert.equal((await sendOnce(node.port(), webOrder())).status, 413);
    assert.equal((await sendOnce(node.port(), webOrder('{}'))).status, 202);
  });

  it('a relay removed by a reload ends its subscribers with the reason; others keep receiving', async () => {
    await running();
    const removed = recordingSubscriber();
    const kept = recordingSubscriber();
    node.dataPlane.subscribe('default', 'paid-last', removed);
    node.dataPlane.subscribe('default', 'paid-first', kept);
    const next = paymentsGraph();
    delete next.relays['paid-last'];
    delete next.correlators['pay-last'];
    const applied = await node.dataPlane.apply(next, 4);
    assert.ok(applied.ok);
    assert.deepEqual(applied.changes.removed, ['relay paid_last', 'correlator pay_last']);
    assert.deepEqual(removed.ended, ['relay paid_last was removed from domain default by graph version 4']);
    assert.deepEqual(kept.ended, []);
    await sendOnce(node.port(), webOrder());
    const payment = '{"payment_id":"P1","order_id":"A1","amount":250}';
    assert.equal(
      (await sendOnce(node.port(), { host: 'localhost', path: '/payments', body: payment })).status,
      202,
    );
    assert.deepEqual(kept.records, [
      { order_id: 'A1', payment_id: 'P1', channel: 'web', ordered: 250n, paid: 250n },
    ]);
  });

  it('a subscriber of a changed relay moves to the new Relay object', async () => {
    await running();
    const subscriber = recordingSubscriber();
    node.dataPlane.subscribe('default', 'errors', subscriber);
    const next = paymentsGraph((text) =>
      text.replace('payload STRING OPTIONAL);', 'payload STRING OPTIONAL, note STRING OPTIONAL);'),
    );
    const before = node.dataPlane.topology('default')!.relays.get('errors');
    assert.ok((await node.dataPlane.apply(next, 2)).ok);
    const after = node.dataPlane.topology('default')!.relays.get('errors')!;
    assert.notEqual(after, before);
    assert.equal(before!.consumerCount, 0, 'detached from the old relay');
    assert.equal((await sendOnce(node.port(), webOrder('not json'))).status, 202);
    assert.equal(subscriber.records.length, 1);
    assert.equal(subscriber.records[0]!.code, 'SR3002');
    assert.deepEqual(subscriber.ended, []);
  });

  it('a refused graph leaves the old one running and returns every error', async () => {
    await running();
    const subscriber = recordingSubscriber();
    node.dataPlane.subscribe('default', 'web-orders', subscriber);
    const next = paymentsGraph();
    next.codecs['order-json'] = {
      kind: 'protobuf',
      schema: 'order-in',
      canEncode: false,
      descriptor: {},
      message: 'shop.v1.Order',
      ingestion: '.',
      encodeRfc3339: [],
    };
    next.clients.out = { protocol: 'udp', host: '127.0.0.1', port: 514, maxMessageSize: 131072 };
    next.emitters.out = {
      from: 'orders',
      client: 'out',
      codec: 'payment-json',
      mode: 'NO_ACK',
      retry: { backoffMs: 1000, maxMs: 5000 },
      flush: 'IMMEDIATE',
      onMessageError: { action: 'LOG' },
      onGeneralError: 'LOG',
    };
    const refused = await node.dataPlane.apply(next, 2);
    assert.deepEqual(refused, {
      ok: false,
      errors: [
        'http-ingestor web_in: codec order_json: the protobuf descriptor has no message shop.v1.Order',
        'http-ingestor shop_in: codec order_json: the protobuf descriptor has no message shop.v1.Order',
      ],
    });
    const notAGraph = await node.dataPlane.apply(
      { apiVersion: 'streamroute.io/graph/v1', domain: 'default' },
      3,
    );
    assert.ok(!notAGraph.ok);
    assert.ok(notAGraph.errors.length >= 9, notAGraph.errors.join('\n')); // every missing record is named
    assert.ok(notAGraph.errors.includes('(graph): missing schemas'));

    assert.deepEqual([...node.dataPlane.versions()], [['default', 1]]);
    assert.equal((await sendOnce(node.port(), webOrder())).status, 202);
    assert.equal(subscriber.records.length, 1);
    assert.ok(node.logs.some((line) => line.event === 'graph_refused'));
  });

  it("a changed correlator's pending records are counted as stopped; an unchanged one keeps its own", async () => {
    await running();
    assert.equal((await sendOnce(node.port(), webOrder())).status, 202);
    const before = node.dataPlane.topology('default')!;
    assert.equal(before.correlators.get('pay-first')!.pending('left'), 1);
    assert.equal(before.correlators.get('pay-last')!.pending('left'), 1);

    const next = paymentsGraph((text) =>
      text.replace('MATCH LATEST\n  MAX TIME 30s', 'MATCH LATEST\n  MAX TIME 60s'),
    );
    const applied = await node.dataPlane.apply(next, 2);
    assert.ok(applied.ok);
    assert.deepEqual(applied.changes.changed, ['correlator pay_last']);
    const after = node.dataPlane.topology('default')!;
    assert.equal(after.correlators.get('pay-first'), before.correlators.get('pay-first'));
    assert.equal(after.correlators.get('pay-first')!.pending('left'), 1);
    assert.equal(after.correlators.get('pay-last')!.pending('left'), 0);
    const stopped = (name: string) =>
      readCounter(node.registry, 'streamroute_drops_total', {
        domain: 'default',
        kind: 'correlator',
        name,
        reason: 'stopped',
      });
    assert.equal(await stopped('pay_last'), 1);
    assert.equal(await stopped('pay_first'), 0);
  });

  it('applies run one at a time, in call order', async () => {
    const first = node.dataPlane.apply(paymentsGraph(), 1);
    const next = paymentsGraph();
    next.httpIngestors['shop-in']!.maxBodyBytes = 10;
    const second = node.dataPlane.apply(next, 2);
    const [a, b] = await Promise.all([first, second]);
    assert.ok(a.ok && b.ok);
    assert.equal(a.changes.unchanged.length, 0);
    assert.deepEqual(b.changes.changed, ['http-ingestor shop_in'], 'the second saw the first applied');
    assert.deepEqual([...node.dataPlane.versions()], [['default', 2]]);
  });

  it('removeDomain withdraws the routes and ends the subscribers', async () => {
    await running();
    const subscriber = recordingSubscriber();
    node.dataPlane.subscribe('default', 'orders', subscriber);
    await node.dataPlane.removeDomain('default');
    assert.deepEqual(subscriber.ended, ['domain default was removed from this node']);
    assert.deepEqual([...node.dataPlane.versions()], []);
    assert.equal((await sendOnce(node.port(), webOrder())).status, 404);
    assert.equal(node.dataPlane.subscribe('default', 'orders', recordingSubscriber()).ok, false);
  });

  it('stop ends every subscriber and refuses later graphs', async () => {
    await running();
    const subscriber = recordingSubscriber();
    node.dataPlane.subscribe('default', 'orders', subscriber);
    await node.dataPlane.stop(0);
    assert.deepEqual(subscriber.ended, ['the node is stopping']);
    assert.equal(node.dataPlane.httpIngestion.http.status.state, 'Stopped');
    assert.deepEqual(await node.dataPlane.apply(paymentsGraph(), 2), {
      ok: false,
      errors: ['the data plane is stopped'],
    });
  });

  it('an unsubscribed subscriber gets nothing more and is not ended by a reload', async () => {
    await running();
    const subscriber = recordingSubscriber();
    const subscribed = node.dataPlane.subscribe('default', 'web-orders', subscriber);
    assert.ok(subscribed.ok);
    subscribed.unsubscribe();
    subscribed.unsubscribe();
    await sendOnce(node.port(), webOrder());
    const next = paymentsGraph();
    delete next.httpIngestors['web-in'];
    delete next.relays['web-orders'];
    next.junctions['all-orders']!.from = ['shop-orders'];
    assert.ok((await node.dataPlane.apply(next, 2)).ok);
    assert.deepEqual([subscriber.records, subscriber.ended], [[], []]);
  });
});
