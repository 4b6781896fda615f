// Stalled subscribers benchmark (not a timed test): what N subscribers that never read cost a node's
// ingestion and memory, side by side with a node that has none, in the same run. Property (issue 15): 1,000
// stalled subscribers change ingestion p99 by less than 2× and memory by less than the documented bound
// (docs/admin-api.md, "Buffer limits": --node-subscription-buffer-bytes plus 128 KiB per connection).
//
// Two `streamroute node` processes on the same graph (JSON batches through a jq program onto the relay
// `orders`, test/support/stalled-subscribers.ts), both warmed up. The `stalled` one then gets N subscriber
// connections (each a different subscription name, so each wants every record) that read their response
// head and never read again; a fill phase sends records (to both nodes) until their kernel buffers are full
// (that phase is reported on its own: it costs what N reading subscribers would). Then rounds, none → stalled:
// POSTs of `--records` orders each, `--concurrency` at a time, timed one by one. Medians over the rounds;
// memory is each node's peak RSS (VmHWM) minus its RSS after the warm-up. Traffic goes to 127.0.0.1 only.
//
//   npx tsx test/bench/stalled-subscribers.bench.ts [--subscribers 1000] [--rounds 5] [--requests 300]
//       [--records 20] [--concurrency 4]
import { parseArgs } from 'node:util';
import {
  ingest,
  metric,
  openStalledSubscribers,
  percentile,
  STALLED_GRAPH,
  startNodeProcess,
  type NodeProcess,
} from '../support/stalled-subscribers.js';

const { values } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000' },
    rounds: { type: 'string', default: '5' },
    requests: { type: 'string', default: '300' },
    records: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '4' },
  },
});
const SUBSCRIBERS = Number(values.subscribers);
const ROUNDS = Number(values.rounds);
const REQUESTS = Number(values.requests);
const RECORDS = Number(values.records);
const CONCURRENCY = Number(values.concurrency);
const MIB = 1024 * 1024;
/** The documented defaults the bound is made of. */
const NODE_BUFFER = 64 * MIB;
const PER_CONNECTION = 128 * 1024;
/** Enough admin connections for the subscribers whatever the descriptor limit. */
const ARGS = ['--admin-max-connections', String(SUBSCRIBERS + 100)];

const median = (list: readonly number[]): number =>
  [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] ?? 0;

let nextId = 0;
async function round(node: NodeProcess, requests = REQUESTS) {
  const run = await ingest(node.httpPort, {
    requests,
    recordsPerRequest: RECORDS,
    concurrency: CONCURRENCY,
    firstId: nextId,
  });
  nextId += requests * RECORDS;
  return {
    p50: percentile(run.latencies, 50),
    p99: percentile(run.latencies, 99),
    rate: (requests / run.elapsedMs) * 1000,
    failures: run.failures,
  };
}

async function settled(node: NodeProcess, expected: number): Promise<void> {
  const deadline = Date.now() + 120_000;
  while ((await metric(node.adminPort, 'streamroute_records_in_total', { kind: 'relay' })) < expected) {
    if (Date.now() > deadline) throw new Error('records did not all reach the relay');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const none = await startNodeProcess(STALLED_GRAPH, ARGS);
const stalled = await startNodeProcess(STALLED_GRAPH, ARGS);
const sent = new Map<NodeProcess, number>([
  [none, 0],
  [stalled, 0],
]);
const count = (node: NodeProcess): void => void sent.set(node, (sent.get(node) ?? 0) + REQUESTS * RECORDS);
try {
  for (const node of [none, stalled]) {
    await round(node);
    await round(node);
    count(node);
    count(node);
  }
  await settled(none, sent.get(none) ?? 0);
  await settled(stalled, sent.get(stalled) ?? 0);
  const baseline = new Map([
    [none, none.rss()],
    [stalled, stalled.rss()],
  ]);

  const opening = performance.now();
  const subscribers = await openStalledSubscribers(stalled.adminPort, 'orders', SUBSCRIBERS);
  const openMs = performance.now() - opening;
  const refused = subscribers.filter((subscriber) => subscriber.status !== 200).length;
  // Fill: until every subscriber drops every record of a round, their kernel buffers are full.
  const fillStarted = performance.now();
  const fillRounds: { p99: number }[] = [];
  const overflow = (): Promise<number> =>
    metric(stalled.adminPort, 'streamroute_drops_total', {
      kind: 'subscriber',
      reason: 'subscriber_overflow',
    });
  for (let before = await overflow(); fillRounds.length < 30;) {
    // The node without subscribers gets the same records, so both have done the same work.
    await round(none);
    count(none);
    fillRounds.push(await round(stalled));
    count(stalled);
    await settled(stalled, sent.get(stalled) ?? 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const after = await overflow();
    if (after - before >= 0.99 * SUBSCRIBERS * REQUESTS * RECORDS) break;
    before = after;
  }
  const fillMs = performance.now() - fillStarted;

  const results = {
    none: [] as Awaited<ReturnType<typeof round>>[],
    stalled: [] as Awaited<ReturnType<typeof round>>[],
  };
  for (let index = 0; index < ROUNDS; index++) {
    results.none.push(await round(none));
    count(none);
    results.stalled.push(await round(stalled));
    count(stalled);
  }
  await settled(none, sent.get(none) ?? 0);
  await settled(stalled, sent.get(stalled) ?? 0);
  const growth = (node: NodeProcess): number => (node.peakRss() - (baseline.get(node) ?? 0)) / MIB;
  const facts = async (node: NodeProcess) => ({
    timeLimits: await metric(node.adminPort, 'streamroute_jaq_time_limits_total'),
    recordsIn: await metric(node.adminPort, 'streamroute_records_in_total', { kind: 'relay' }),
    buffered: (await metric(node.adminPort, 'streamroute_subscriber_buffered_bytes')) / MIB,
  });
  const noneFacts = await facts(none);
  const stalledFacts = await facts(stalled);

  const row = (
    name: string,
    list: Awaited<ReturnType<typeof round>>[],
    node: NodeProcess,
    f: typeof noneFacts,
  ) =>
    `| ${name} | ${median(list.map((r) => r.p50)).toFixed(1)} | ${median(list.map((r) => r.p99)).toFixed(1)} | ${Math.round(median(list.map((r) => r.rate)))} | ${growth(node).toFixed(0)} | ${f.buffered.toFixed(1)} | ${f.timeLimits} | ${f.recordsIn} of ${sent.get(node)} | ${list.reduce((sum, r) => sum + r.failures, 0)} |`;
  console.log(
    `\n${SUBSCRIBERS} stalled subscribers (${refused} refused, opened in ${(openMs / 1000).toFixed(1)} s); fill: ${fillRounds.length} rounds, ${(fillMs / 1000).toFixed(1)} s, p99 of its rounds ${median(fillRounds.map((r) => r.p99)).toFixed(1)} ms`,
  );
  console.log(
    `${ROUNDS} rounds of ${REQUESTS} POSTs × ${RECORDS} orders, concurrency ${CONCURRENCY}; medians\n`,
  );
  console.log(
    '| node | p50 ms | p99 ms | req/s | RSS growth MiB | buffered MiB | jq time limits | records on the relay | non-202 |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  console.log(row('0 subscribers', results.none, none, noneFacts));
  console.log(row(`${SUBSCRIBERS} stalled`, results.stalled, stalled, stalledFacts));
  const p99Ratio = median(results.stalled.map((r) => r.p99)) / median(results.none.map((r) => r.p99));
  const memoryDelta = growth(stalled) - growth(none);
  const bound = (NODE_BUFFER + SUBSCRIBERS * PER_CONNECTION) / MIB;
  console.log(
    `\np99 ratio ${p99Ratio.toFixed(2)}× (aim < 2×); memory delta ${memoryDelta.toFixed(0)} MiB (bound ${bound.toFixed(1)} MiB) → ${p99Ratio < 2 && memoryDelta < bound ? 'holds' : 'DOES NOT HOLD'}`,
  );
} finally {
  await none.stop();
  await stalled.stop();
}
