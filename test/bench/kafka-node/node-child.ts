// One streamroute node of the Kafka node benchmark, as a process of its own (forked by node-runs.ts): the
// embedded node from tsc's output (compileNode: what `streamroute node` runs, not tsx's transform of
// the TypeScript) with the system clock (no ManualClock: MODE ACK commits every second of real time), the
// graph from a manifests directory, loopback listeners, warn-level logs to a file. A listener on the relay
// (in this process, so no subscriber stream is measured) notes each record's partition and offset, and in
// a latency run its age (now − sent_at); every 10 ms what was noted goes to the driver in one message.
//
//   argv: <dir> <dist> (the graph in <dir>/manifests; the node's data in <dir>/data, its log in
//         <dir>/node.log; <dist> the compiled operator/ and dataplane/)
//   driver → child: 'latency' (note ages from now on) | 'cpu' | 'stop'
//   child → driver: { type: 'ready', adminPort } | { type: 'cpu', us } | Batch
import { join } from 'node:path';
import pino from 'pino';
import { pathToFileURL } from 'node:url';
import { RELAY, wallMicros } from './graph.js';

export interface Batch {
  type: 'batch';
  partitions: Int32Array;
  offsets: Float64Array;
  /** Produce → relay, µs, for each record (latency runs only). */
  ages: Float64Array;
  /** Wall-clock ms of the batch's first record, and of its sending (≤ FLUSH_MS after its last record). */
  firstAt: number;
  at: number;
  /** The process's CPU time so far (user + system, µs). */
  cpuUs: number;
}

const FLUSH_MS = 10;
const [dir, dist] = process.argv.slice(2);
if (dir === undefined || dist === undefined) throw new Error('usage: node-child <dir> <dist>');
type EmbeddedNodeModule = typeof import('../../../operator/node/embedded-node.js');
const { startEmbeddedNode } = (await import(
  pathToFileURL(join(dist, 'operator/node/embedded-node.js')).href
)) as EmbeddedNodeModule;

const loopback = { host: '127.0.0.1', port: 0 };
const node = await startEmbeddedNode({
  manifests: join(dir, 'manifests'),
  dataDir: join(dir, 'data'),
  httpAddress: loopback,
  httpsAddress: loopback,
  adminAddress: loopback,
  logger: pino({ level: 'warn' }, pino.destination(join(dir, 'node.log'))),
});
const topology = node.dataPlane.topology('default');
if (topology === undefined) throw new Error('the manifests made no domain default');

const cpuUs = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
let partitions: number[] = [];
let offsets: number[] = [];
let ages: number[] = [];
let firstAt = 0;
let latency = false;
// The relay is kept across the reload that adds the ingestor, and with it this listener.
topology.onRecord(
  RELAY,
  (record) => {
    partitions.push(record['partition'] as number);
    offsets.push(Number(record['offset']));
    if (latency) ages.push(wallMicros() - Number(record['sent_at']));
    if (firstAt === 0) firstAt = performance.timeOrigin + performance.now();
  },
  'bench',
);

const flush = setInterval(() => {
  if (partitions.length === 0) return;
  const batch: Batch = {
    type: 'batch',
    partitions: Int32Array.from(partitions),
    offsets: Float64Array.from(offsets),
    ages: Float64Array.from(ages),
    firstAt,
    at: performance.timeOrigin + performance.now(),
    cpuUs: cpuUs(),
  };
  partitions = [];
  offsets = [];
  ages = [];
  firstAt = 0;
  process.send?.(batch);
}, FLUSH_MS);

process.on('message', (message: string) => {
  if (message === 'latency') latency = true;
  else if (message === 'cpu') process.send?.({ type: 'cpu', us: cpuUs() });
  else if (message === 'stop') {
    clearInterval(flush);
    void node.stop().finally(() => process.exit(0));
  }
});
process.send?.({ type: 'ready', adminPort: node.ports().admin });
