import assert from 'node:assert/strict';
import { exampleStatements, graphFromStatements } from '../../test/fixtures/graph-from-statements.js';
import { COMPONENT_RECORDS, diffGraphs, isUnchanged, type ComponentRecord, type GraphDiff } from './diff.js';
import type { Graph } from './types.js';

/**
 * examples/payments, plus a syslog client, a syslog ingestor and an emitter written as JSON (the diff
 * never runs a graph, so they need no codec this data plane supports).
 */
function base(): Graph {
  const graph = structuredClone(graphFromStatements(exampleStatements('payments'), 'shop'));
  graph.clients.udp = { protocol: 'udp', host: '0.0.0.0', port: 514, maxMessageSize: 131072 };
  graph.syslogIngestors['udp-in'] = {
    client: 'udp',
    mode: 'NO_ACK',
    quiesce: { action: 'SUSPEND' },
    codec: 'order-json',
    routes: [structuredClone(graph.httpIngestors['shop-in']!.routes[0]!)],
    onGeneralError: 'LOG',
  };
  graph.emitters.out = {
    from: 'paid-first',
    client: 'udp',
    codec: 'payment-json',
    mode: 'NO_ACK',
    retry: { backoffMs: 1000, maxMs: 5000 },
    flush: 'IMMEDIATE',
    onMessageError: { action: 'SEND_TO', relay: 'errors', inherit: [], set: [] },
    onGeneralError: 'LOG',
  };
  return graph;
}

/** `record name` of every component that is not unchanged, by what happened to it. */
function notUnchanged(diff: GraphDiff): Record<'added' | 'removed' | 'changed', string[]> {
  const out = { added: [] as string[], removed: [] as string[], changed: [] as string[] };
  for (const record of COMPONENT_RECORDS)
    for (const kind of ['added', 'removed', 'changed'] as const)
      out[kind].push(...diff[record][kind].map((name) => `${record} ${name}`));
  return out;
}

const field = (name: string) =>
  ({ name, type: 'STRING', optional: true, sensitive: false }) as Graph['schemas'][string]['fields'][number];

interface Case {
  name: string;
  change: (graph: Graph) => void;
  changed?: string[];
  added?: string[];
  removed?: string[];
}

const CASES: Case[] = [
  { name: 'the same graph: everything unchanged', change: () => {} },
  {
    name: 'keys in another order: unchanged (structural equality)',
    change: (graph) => {
      const relay = graph.relays.orders!;
      graph.relays.orders = { branching: relay.branching, schema: relay.schema };
    },
  },
  {
    name: "an ingestor's own spec: only that ingestor",
    change: (graph) => void (graph.httpIngestors['payments-in']!.maxBodyBytes = 10),
    changed: ['httpIngestors payments-in'],
  },
  {
    name: "a relay's schema: the relay and everything reading or writing it",
    change: (graph) => void graph.schemas.paid!.fields.push(field('note')),
    changed: [
      'relays paid-first',
      'relays paid-last',
      'correlators pay-first',
      'correlators pay-last',
      'emitters out',
    ],
  },
  {
    name: 'the schema of an ON MESSAGE ERROR SEND TO relay: the handlers that write it',
    change: (graph) => void graph.schemas.errors!.fields.push(field('note')),
    changed: ['relays errors', 'httpIngestors web-in', 'httpIngestors payments-in', 'emitters out'],
  },
  {
    name: 'the schema shared by the junction relays: relays, writers, the junction and the correlators',
    change: (graph) => void graph.schemas.orders!.fields.push(field('note')),
    changed: [
      'relays web-orders',
      'relays shop-orders',
      'relays orders',
      'relays unpaid',
      'httpIngestors web-in',
      'httpIngestors shop-in',
      'syslogIngestors udp-in',
      'junctions all-orders',
      'correlators pay-first',
      'correlators pay-last',
    ],
  },
  {
    name: 'an ON CORRELATION TIMEOUT SEND TO relay: only the correlator that sends to it',
    change: (graph) => {
      graph.schemas['orders-copy'] = structuredClone(graph.schemas.orders!);
      graph.relays.unpaid!.schema = 'orders-copy';
    },
    changed: ['relays unpaid', 'correlators pay-first'],
  },
  {
    name: "a codec's schema: the ingestors decoding with it, not the relays",
    change: (graph) => void (graph.schemas['order-in']!.fields[0]!.sensitive = true),
    changed: ['httpIngestors web-in', 'httpIngestors shop-in', 'syslogIngestors udp-in'],
  },
  {
    name: "a codec's spec: its ingestors and emitters",
    change: (graph) => void (graph.codecs['payment-json']!.canEncode = false),
    changed: ['httpIngestors payments-in', 'emitters out'],
  },
  {
    name: 'a syslog client: the ingestor receiving from it and the emitter sending to it',
    change: (graph) => void (graph.clients.udp!.port = 5514),
    changed: ['syslogIngestors udp-in', 'emitters out'],
  },
  {
    name: "a correlator's spec: that correlator",
    change: (graph) => void (graph.correlators['pay-last']!.maxTimeMs = 1),
    changed: ['correlators pay-last'],
  },
  {
    name: "an ingestor's display name alone (decision 0025): that ingestor, changed in place",
    change: (graph) => void (graph.names!.httpIngestors!['web-in'] = 'WEB_IN'),
    changed: ['httpIngestors web-in'],
  },
  {
    name: "a relay's display name: the relay and everything that names it in its logs",
    change: (graph) => void (graph.names!.relays!['paid-last'] = 'Paid_Last'),
    changed: ['relays paid-last', 'correlators pay-last'],
  },
  {
    name: "a codec's display name: its ingestors and emitters",
    change: (graph) => void (graph.names!.codecs!['payment-json'] = 'Payment_JSON'),
    changed: ['httpIngestors payments-in', 'emitters out'],
  },
  {
    name: 'display names gone (the graph applied as YAML): renamed in place, nothing removed or added',
    change: (graph) => void delete graph.names,
    changed: [
      'relays web-orders',
      'relays shop-orders',
      'relays paid-first',
      'relays paid-last',
      'httpIngestors web-in',
      'httpIngestors shop-in',
      'httpIngestors payments-in',
      'syslogIngestors udp-in',
      'junctions all-orders',
      'correlators pay-first',
      'correlators pay-last',
      'emitters out',
    ],
  },
  {
    name: 'removed and added components',
    change: (graph) => {
      delete graph.junctions['all-orders'];
      graph.relays.audit = { schema: 'orders', branching: 'UNBRANCHED' };
    },
    added: ['relays audit'],
    removed: ['junctions all-orders'],
  },
];

describe('diffGraphs', () => {
  for (const c of CASES) {
    it(c.name, () => {
      const next = base();
      c.change(next);
      const found = notUnchanged(diffGraphs(base(), next));
      const sorted = (names: string[] = []) => [...names].sort();
      assert.deepEqual(
        { added: sorted(found.added), removed: sorted(found.removed), changed: sorted(found.changed) },
        { added: sorted(c.added), removed: sorted(c.removed), changed: sorted(c.changed) },
      );
    });
  }

  it('without a previous graph everything is added', () => {
    const diff = diffGraphs(undefined, base());
    for (const record of COMPONENT_RECORDS) {
      assert.deepEqual(diff[record].added, Object.keys(base()[record]).sort());
      assert.deepEqual([diff[record].changed, diff[record].unchanged, diff[record].removed], [[], [], []]);
    }
  });

  it('a graph of another domain shares nothing: all removed, all added', () => {
    const other = base();
    other.domain = 'elsewhere';
    const diff = diffGraphs(base(), other);
    assert.deepEqual(diff.relays.removed, diff.relays.added);
    assert.equal(diff.relays.unchanged.length, 0);
  });

  it('isUnchanged answers per component', () => {
    const next = base();
    next.httpIngestors['payments-in']!.maxBodyBytes = 10;
    const diff = diffGraphs(base(), next);
    const cases: [ComponentRecord, string, boolean][] = [
      ['httpIngestors', 'payments-in', false],
      ['httpIngestors', 'web-in', true],
      ['relays', 'payments', true],
      ['relays', 'nope', false],
    ];
    for (const [record, name, unchanged] of cases) assert.equal(isUnchanged(diff, record, name), unchanged);
  });
});
