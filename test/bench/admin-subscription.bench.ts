// Subscription benchmark (not a timed test): what a subscriber costs the graph, and how fast a stream runs.
//   - publish cost per record (ns), synchronous bursts of 100,000 on one relay, with
//       relay only      a consumer that does nothing (the baseline, same run)
//       hub, 1 paused   the admin API (SubscriptionHub) with one subscriber whose client stopped reading:
//                       each record is serialized once into the relay's shared log (10,000 records kept)
//       hub, 100 paused the same with 100 such subscribers of different names: the same work per record
//       text queue      a queue of serialized text of its own per subscriber (10,000, evicting), for one
//   - serialize: recordToJson per record (what every written record costs, whichever side pays it)
//   - stream: records/s from publish to a node:http client reading NDJSON over a real socket (one process)
// Two record shapes: the quickstart order (STRING, I64) and a wide record of eight fields (DATETIME, BYTES,
// a 100-character STRING, …). Median of several runs after warm-up; the variants take turns.
//
//   npx tsx test/bench/admin-subscription.bench.ts
import { Writable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { DropOldestQueue } from '../../dataplane/admin/drop-oldest-queue.js';
import { recordToJson } from '../../dataplane/admin/record-json.js';
import { SubscriptionHub } from '../../dataplane/admin/subscription-hub.js';
import { Instant, type RecordValues } from '../../dataplane/core/values.js';
import { TestAdminBackend } from '../fixtures/admin-backend.js';
import { startAdmin, StreamClient } from '../fixtures/admin-client.js';

const RECORDS = 100_000;
const WARM_UP = 2;
const RUNS = 7;

const shapes: Record<string, (n: number) => RecordValues> = {
  order: (n) => ({ order_id: `ORD-2026-11-22-${String(n).padStart(6, '0')}`, amount: 1234567n + BigInt(n) }),
  wide: (n) => ({
    id: `evt-${n}`,
    seq: 9007199254740993n + BigInt(n),
    at: new Instant(1_795_835_280_123_456_789n + BigInt(n)),
    host: 'web-01.example.com',
    severity: n % 8,
    ok: n % 2 === 0,
    raw: new Uint8Array(64).fill(n % 256),
    msg: `request ${n} served in 12 ms; ${'x'.repeat(70)}`,
  }),
};

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** A writable that never calls back after the first write: a client that stopped reading. */
function stuckOutput() {
  const stream = new Writable({ highWaterMark: 1, write: () => {} });
  return { stream, gone: () => false, end: () => stream.end() };
}

type Variant = (records: RecordValues[]) => Promise<number>;

/** `count` subscribers of different names whose clients stopped reading. */
function pausedSubscribers(backend: TestAdminBackend, count: number): void {
  const hub = new SubscriptionHub({ backend, logger: backend.logger });
  for (let n = 0; n < count; n++) {
    const joined = hub.join(
      { domain: 'shop', relay: 'orders', subscription: `bench-${n}` },
      stuckOutput(),
      10_000,
    );
    if (joined.ok) joined.member.open();
  }
}

function publishCost(attach: (backend: TestAdminBackend) => void): Variant {
  return async (records) => {
    const backend = new TestAdminBackend();
    const relay = backend.addRelay('orders');
    attach(backend);
    const started = performance.now();
    for (const record of records) relay.publish(record);
    const elapsed = performance.now() - started;
    await new Promise((resolve) => setImmediate(resolve));
    return (elapsed * 1e6) / records.length;
  };
}

const variants: Record<string, Variant> = {
  'relay only': publishCost((backend) => backend.relays.get('orders')?.subscribe('noop', () => {})),
  'hub, 1 paused': publishCost((backend) => pausedSubscribers(backend, 1)),
  'hub, 100 paused': publishCost((backend) => pausedSubscribers(backend, 100)),
  'text queue': publishCost((backend) => {
    const queue = new DropOldestQueue<string>(10_000);
    backend.relays
      .get('orders')
      ?.subscribe('eager', (record) => void queue.push(recordToJson(record) + '\n'));
  }),
  serialize: (records) => {
    let bytes = 0;
    const started = performance.now();
    for (const record of records) bytes += recordToJson(record).length;
    const elapsed = performance.now() - started;
    if (bytes === 0) throw new Error('nothing serialized');
    return Promise.resolve((elapsed * 1e6) / records.length);
  },
};

/** Records per second from publish to a reading client; 1,000 per turn, nothing dropped (buffer 1,000,000). */
async function stream(records: RecordValues[]): Promise<number> {
  // Nothing may be dropped here: the byte bounds are raised above the 100,000 records.
  const limits = { subscriptionBufferBytes: 2 ** 30, nodeBufferBytes: 2 ** 30 };
  const admin = await startAdmin({ subscriptionLimits: limits });
  const relay = admin.backend.addRelay('orders');
  const client = await StreamClient.open(
    admin.port,
    '/v1/domains/shop/relays/orders/subscriptions/bench?buffer=1000000',
  );
  const started = performance.now();
  for (let from = 0; from < records.length; from += 1_000) {
    for (let n = from; n < Math.min(from + 1_000, records.length); n++)
      relay.publish(records[n] as RecordValues);
    await new Promise((resolve) => setImmediate(resolve));
  }
  while (client.lines.length < records.length) await new Promise((resolve) => setTimeout(resolve, 1));
  const elapsed = performance.now() - started;
  await admin.server.stop(0);
  return records.length / (elapsed / 1000);
}

for (const [shape, make] of Object.entries(shapes)) {
  const records = Array.from({ length: RECORDS }, (_, n) => make(n));
  const bytes = records.reduce((sum, record) => sum + recordToJson(record).length + 1, 0) / RECORDS;
  const results = new Map<string, number[]>();
  for (let run = 0; run < WARM_UP + RUNS; run++) {
    for (const [name, variant] of Object.entries(variants)) {
      const value = await variant(records);
      if (run >= WARM_UP) results.set(name, [...(results.get(name) ?? []), value]);
    }
    const rate = await stream(records);
    if (run >= WARM_UP) results.set('stream', [...(results.get('stream') ?? []), rate]);
  }
  console.log(`\n${shape} (${bytes.toFixed(0)} bytes per line), median of ${RUNS}`);
  const base = median(results.get('relay only') ?? []);
  for (const [name, values] of results) {
    const value = median(values);
    if (name === 'stream')
      console.log(`  ${name.padEnd(14)} ${Math.round(value).toLocaleString('en')} records/s`);
    else
      console.log(
        `  ${name.padEnd(14)} ${value.toFixed(0).padStart(5)} ns/record   (${(value / base).toFixed(1)}× relay only)`,
      );
  }
}
