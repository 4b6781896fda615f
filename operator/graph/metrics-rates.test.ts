// --rates: the exposition format read as Prometheus writes it (escaped label values, comments, other
// families, timestamps), and rates between two readings matched to the graph's components whether the
// metrics name them as resources or as identifiers.
import assert from 'node:assert/strict';
import { countersOf, ratesBetween } from './metrics-rates.js';
import type { DomainGraph } from './domain-graph.js';

const reading = (
  count: (name: string) => number,
) => `# HELP streamroute_records_in_total Records a component received
# TYPE streamroute_records_in_total counter
streamroute_records_in_total{domain="shop",kind="relay",name="orders"} ${count('relay')}
streamroute_records_in_total{domain="shop",kind="http-ingestor",name="orders_in"} ${count('in')}
streamroute_records_in_total{domain="other",kind="relay",name="orders"} 1000
streamroute_records_out_total{domain="shop",kind="relay",name="orders"} ${count('relay') * 2} 1700000000000
streamroute_records_out_total{domain="shop",kind="http-ingestor",name="orders-in"} ${count('in')}
streamroute_records_in_totally{domain="shop",kind="relay",name="orders"} 99
`;

const GRAPH: DomainGraph = {
  domain: 'shop',
  nodes: [
    {
      id: 'ingestor/orders-in',
      kind: 'ingestor',
      title: '',
      details: [],
      metrics: { kind: 'http-ingestor', name: 'orders-in' },
    },
    { id: 'relay/orders', kind: 'relay', title: '', details: [], metrics: { kind: 'relay', name: 'orders' } },
    { id: 'endpoint/e', kind: 'http-endpoint', title: '', details: [] },
  ],
  edges: [],
};

describe('--rates from /metrics', () => {
  it('sums a component’s counters of one domain, by kind and name however the name is spelled', () => {
    const counters = countersOf(
      `${reading(() => 5)}${reading(() => 7)}`,
      'streamroute_records_in_total',
      'shop',
    );
    assert.deepEqual(
      [...counters],
      [
        ['relay/orders', 12],
        ['http-ingestor/orders-in', 12],
      ],
    );
  });

  it('records a second between two readings; a counter that went down counts from zero', () => {
    const rates = ratesBetween(
      GRAPH,
      { before: reading(() => 10), after: reading((name) => (name === 'in' ? 30 : 4)) },
      2,
    );
    assert.deepEqual(
      [...rates],
      [
        ['ingestor/orders-in', { in: 10, out: 10 }],
        ['relay/orders', { in: 2, out: 4 }],
      ],
    );
  });
});
