// The model `streamroute graph` draws, from the examples' objects: what comes in where, which codec
// decodes for which ingestor, the routes, the junction's and correlators' inputs, error routes, and the
// emitter's target, which is the same node as a listener reading that address.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import fc from 'fast-check';
import { IDENTIFIER_ANNOTATION } from '../api/display-names.js';
import { loadInputs } from '../language/inputs.js';
import { domainGraph, type DomainGraph } from './domain-graph.js';

const EXAMPLES = join(import.meta.dirname, '..', '..', 'examples');
const objectsOf = (example: string) => loadInputs([join(EXAMPLES, example)]).objects;
const edgeList = (graph: DomainGraph): string[] =>
  graph.edges.map(
    (edge) =>
      `${edge.from} -> ${edge.to}${edge.label === undefined ? '' : ` (${edge.label})`}${edge.error === true ? ' error' : ''}`,
  );

describe('domainGraph', () => {
  it('the quickstart: endpoint → ingestor → codec → relay', () => {
    const graph = domainGraph('default', objectsOf('quickstart'));
    assert.deepEqual(graph.nodes, [
      {
        id: 'endpoint/orders-ep',
        kind: 'http-endpoint',
        title: 'endpoint orders_ep',
        details: ['HTTP localhost', 'path /orders'],
      },
      {
        id: 'ingestor/orders-in',
        kind: 'ingestor',
        title: 'HTTP ingestor orders_in',
        details: [],
        metrics: { kind: 'http-ingestor', name: 'orders-in' },
      },
      {
        id: 'codec/orders-in/orders-json',
        kind: 'codec',
        title: 'codec orders_json',
        details: ['from WIRE JSON orders_wire'],
      },
      {
        id: 'relay/orders',
        kind: 'relay',
        title: 'relay orders',
        details: [],
        metrics: { kind: 'relay', name: 'orders' },
      },
    ]);
    assert.deepEqual(edgeList(graph), [
      'endpoint/orders-ep -> ingestor/orders-in',
      'ingestor/orders-in -> codec/orders-in/orders-json',
      'codec/orders-in/orders-json -> relay/orders',
    ]);
  });

  it('payments: one codec node per ingestor, the junction, both correlators’ sides, error routes', () => {
    const edges = edgeList(domainGraph('default', objectsOf('payments')));
    for (const edge of [
      'codec/web-in/order-json -> relay/web-orders',
      'codec/shop-in/order-json -> relay/shop-orders',
      'codec/web-in/order-json -> relay/errors (message error) error',
      'relay/web-orders -> junction/all-orders',
      'relay/shop-orders -> junction/all-orders',
      'junction/all-orders -> relay/orders',
      'relay/orders -> correlator/pay-first (left)',
      'relay/payments -> correlator/pay-first (right)',
      'correlator/pay-first -> relay/paid-first',
      'correlator/pay-first -> relay/unpaid (left timeout) error',
    ]) {
      assert.ok(edges.includes(edge), `${edge}\nin\n${edges.join('\n')}`);
    }
  });

  it('syslog: the emitter’s target is the client a listener reads, so the loop shows', () => {
    const graph = domainGraph('default', objectsOf('syslog'));
    const edges = edgeList(graph);
    assert.ok(edges.includes('relay/lines -> emitter/forward-out'));
    assert.ok(edges.includes('emitter/forward-out -> client/forward-tcp'));
    assert.ok(edges.includes('client/forward-tcp -> ingestor/forward-in'));
    const client = graph.nodes.find((node) => node.id === 'client/forward-tcp');
    assert.deepEqual(client?.details, ['syslog tcp 127.0.0.1:5515']);
    assert.deepEqual(graph.nodes.find((node) => node.id === 'emitter/forward-out')?.details, [
      'encode syslog',
    ]);
  });

  it('Kafka: a topic of a client is one node, read by topic ingestors and written by emitters TO KAFKA', () => {
    const graph = domainGraph('default', objectsOf('full'));
    const edges = edgeList(graph);
    for (const edge of [
      'topic/kafka-main/shop.payments -> ingestor/payments-from-kafka',
      'ingestor/payments-from-kafka -> codec/payments-from-kafka/payments-cbor',
      'codec/payments-from-kafka/payments-cbor -> relay/payments',
      'codec/payments-from-kafka/payments-cbor -> relay/errors (message error) error',
      'relay/paid-orders -> emitter/paid-orders-to-kafka',
      'emitter/paid-orders-to-kafka -> topic/kafka-main/shop.paid-orders',
    ]) {
      assert.ok(edges.includes(edge), `${edge}\nin\n${edges.join('\n')}`);
    }
    assert.deepEqual(
      graph.nodes.find((node) => node.id === 'topic/kafka-main/shop.payments'),
      {
        id: 'topic/kafka-main/shop.payments',
        kind: 'kafka-topic',
        title: 'topic shop.payments',
        details: ['kafka kafka_main kafka-0.kafka.example.com:9093, kafka-1.kafka.example.com:9093'],
      },
    );
    assert.deepEqual(graph.nodes.find((node) => node.id === 'ingestor/payments-from-kafka')?.metrics, {
      kind: 'topic-ingestor',
      name: 'payments-from-kafka',
    });
  });

  it('the same objects in any order give the same graph', () => {
    const objects = objectsOf('payments');
    const expected = domainGraph('default', objects);
    fc.assert(
      fc.property(
        fc.shuffledSubarray(objects, { minLength: objects.length, maxLength: objects.length }),
        (shuffled) => {
          assert.deepEqual(domainGraph('default', shuffled), expected);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('names objects as declared (decision 0025): as their statement wrote them, YAML ones by resource name', () => {
    const objects = objectsOf('quickstart').map((object) => {
      if (object.kind === 'HttpIngestor') {
        const annotations = { [IDENTIFIER_ANNOTATION]: 'Orders_In' };
        return { ...object, metadata: { ...object.metadata, annotations } };
      }
      // as if from YAML: no identifier annotation
      return object.kind === 'Codec' ? { ...object, metadata: { name: object.metadata.name } } : object;
    });
    const titles = domainGraph('default', objects).nodes.map((node) => node.title);
    assert.deepEqual(titles.slice(0, 3), [
      'endpoint orders_ep',
      'HTTP ingestor Orders_In',
      'codec orders-json',
    ]);
  });

  it('an object that refers to one not declared still draws, marked (not declared)', () => {
    const objects = objectsOf('quickstart').filter(
      (object) => object.kind !== 'Endpoint' && object.kind !== 'Codec',
    );
    const graph = domainGraph('default', objects);
    assert.deepEqual(graph.nodes.find((node) => node.kind === 'http-endpoint')?.details, ['(not declared)']);
    assert.deepEqual(graph.nodes.find((node) => node.kind === 'codec')?.details, ['(not declared)']);
  });
});
