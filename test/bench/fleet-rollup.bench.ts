// The operator's roll-up at fleet sizes, without an API server: what one report's write costs the counts
// (FleetReports.put, decision 0018), what reading a component's roll-up costs, and what the walk over
// every report that it replaces cost (domainNodes from scratch, as each reconcile did before). Also the
// heap the counts and slim reports take per 1,000 nodes.
//
//   npx tsx --expose-gc test/bench/fleet-rollup.bench.ts        # FLEET=15000
import { FleetReports } from '../../operator/controller/fleet-reports.js';
import { domainNodes, rollUp } from '../../operator/controller/node-rollup.js';
import type { ClusterObject } from '../../operator/controller/domain-snapshot.js';

const FLEET = Number(process.env['FLEET'] ?? 15_000);
const STALE = 2_457_600;
const now = Date.now();

/** A report as a simulated node writes it: one domain, an HTTP ingestor and an emitter, all Running. */
function report(i: number, version: number): ClusterObject {
  return {
    kind: 'DataplaneNode',
    metadata: { name: `node-${String(i).padStart(5, '0')}`, resourceVersion: String(i) },
    status: {
      heartbeatTime: new Date(now - (i % 600) * 1000).toISOString(),
      domains: [{ domain: 'shop', graphVersion: version, appliedAt: new Date(now).toISOString() }],
      components: [
        { domain: 'shop', kind: 'HttpIngestor', name: 'orders-in', state: 'Running' },
        {
          domain: 'shop',
          kind: 'Emitter',
          name: 'orders-out',
          state: i % 97 === 0 ? 'Retrying' : 'Running',
          ...(i % 97 === 0 ? { transientError: 'ECONNREFUSED: connection refused' } : {}),
        },
      ],
    },
  };
}

function time(fn: () => void, rounds: number): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) fn();
  return Number(process.hrtime.bigint() - started) / 1e3 / rounds; // µs
}

const gc = (globalThis as { gc?: () => void }).gc;
gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const reports = Array.from({ length: FLEET }, (_, i) => report(i, 1));
const fleet = new FleetReports();
for (const r of reports) fleet.put(r, now, STALE);
gc?.();
const heapAfter = process.memoryUsage().heapUsed;

let i = 0;
const putUs = time(() => {
  const n = i++ % FLEET;
  fleet.put(report(n, 2 + (i % 3)), now, STALE);
}, 50_000);
const rollUpUs = time(() => rollUp({ counts: fleet.domain('shop') }, 'Emitter', 'orders-out'), 2_000);
const walkUs = time(() => rollUp(domainNodes(reports, 'shop', now, STALE), 'Emitter', 'orders-out'), 10);
const expireUs = time(() => fleet.expire(now, STALE), 20);

console.log(`| fleet | ${FLEET} |`);
console.log(`| one report's write into the counts (put) | ${putUs.toFixed(2)} µs |`);
console.log(`| one component's roll-up from the counts | ${rollUpUs.toFixed(1)} µs |`);
console.log(
  `| the walk it replaces (every report, per component and reconcile) | ${(walkUs / 1000).toFixed(1)} ms |`,
);
console.log(`| the minute's stale scan | ${(expireUs / 1000).toFixed(2)} ms |`);
console.log(
  `| heap: reports as cached + counts, per 1,000 nodes | ${((heapAfter - heapBefore) / 1024 / 1024 / (FLEET / 1000)).toFixed(2)} MiB |`,
);
