// No single payload stalls the node (docs/codec-formats.md, "Large payloads are read off the event loop"):
// for every format, bodies of the largest size the ingestor accepts, built to be as slow and as
// memory-hungry to read as the format allows, are POSTed one after another while /healthz is asked every
// few milliseconds. Its p99 stays under 100 ms, and the event loop's heap grows by less than 4× the body
// size (plus an allowance for garbage not yet collected; the readers' own heap is a worker thread's,
// capped by its limit).
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { startNodeHarnessWithGraph, until, type NodeHarness } from '../fixtures/node-harness.js';
import { BODY_FAMILIES, type BodyFormat } from '../fixtures/worst-case-bodies.js';

const BODY_BYTES = 1 << 20;
/**
 * Garbage promoted out of the young generation waits for the next full collection, so a sampled peak
 * includes some that is not held: this much is allowed on top of 4× the body (Node 24 collects later than
 * Node 20: 17 MiB was seen there; reading these bodies on the event loop grew it by up to 435 MiB). A
 * sample over the bound is taken again after a full collection, so only what is held can fail the
 * property (in CI, where every test file shares the process, 29 MiB of garbage was once sampled).
 */
const GARBAGE_ALLOWANCE = 24 << 20;
const HEAP_BOUND = 4 * BODY_BYTES + GARBAGE_ALLOWANCE;
const FORMATS: BodyFormat[] = ['JSON', 'YAML', 'TOML', 'XML', 'CBOR', 'wire-json'];
const slug = (format: BodyFormat): string => format.toLowerCase().replace('-', '_');

function graph(): string {
  const codec = (format: BodyFormat): string =>
    format === 'wire-json'
      ? `CREATE WIRE JSON SCHEMA w MODE STRICT (n string);
         CREATE CODEC c_wire_json FROM WIRE JSON SCHEMA w TO SCHEMA s;`
      : `CREATE CODEC c_${slug(format)} FROM ${format} TO SCHEMA s
           WITH JAQ TRANSFORMATIONS ON INGESTION '{n: "x"}';`;
  return [
    'CREATE SCHEMA s (n STRING OPTIONAL);',
    'CREATE RELAY r SCHEMA s UNBRANCHED;',
    'CREATE VHOST local localhost;',
    ...FORMATS.map(
      (format) => `${codec(format)}
      CREATE ENDPOINT e_${slug(format)} ON local PATH '/${slug(format)}' TYPE HTTP;
      CREATE HTTP ENDPOINT INGESTOR i_${slug(format)} FROM e_${slug(format)} MODE NO ACK
        ON QUIESCE BUFFER MAX SIZE 2MiB DECODE USING c_${slug(format)} MAX BODY SIZE 1MiB
        TO r INHERIT ALL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`,
    ),
  ].join('\n');
}

/** Times /healthz every few milliseconds until stopped, on one kept-alive connection. */
function healthProbe(port: number): { stop: () => Promise<number[]> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        request({ port, host: '127.0.0.1', path: '/healthz', agent }, (response) => {
          response.resume();
          response.on('end', resolve);
        })
          .on('error', reject)
          .end();
      });
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      agent.destroy();
      return latencies;
    },
  };
}

/** Heap outside the young generation: what survived a scavenge, so short-lived garbage is not counted. */
function heldHeap(): number {
  return getHeapSpaceStatistics()
    .filter((space) => space.space_name !== 'new_space')
    .reduce((sum, space) => sum + space.space_used_size, 0);
}

/** A full garbage collection, as `--expose-gc` offers it, without starting Node with that flag. */
function fullCollection(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

describe('no payload stalls the node (property)', function () {
  this.timeout(240_000);
  let node: NodeHarness;
  before(async () => {
    node = await startNodeHarnessWithGraph(graph());
  });
  after(async () => node?.close());

  /**
   * Records in plus message errors of one ingestor: each payload moves it once it has been read. Counted
   * under the identifier the statement wrote (decision 0025).
   */
  const outcomes = async (format: BodyFormat): Promise<number> =>
    (await node.metric('streamroute_records_in_total', { name: `i_${slug(format)}` })) +
    (await node.metric('streamroute_message_errors_total', { name: `i_${slug(format)}` }));

  it('worst-case bodies of every format keep /healthz p99 under 100 ms and the heap under 4× the body', async () => {
    const families = fc.constantFrom(...BODY_FAMILIES);
    const samples = fc.sample(fc.tuple(families, fc.nat(999)), { numRuns: BODY_FAMILIES.length, seed: 15 });
    const cases = [...BODY_FAMILIES.map((family) => [family, 0] as const), ...samples];
    const probe = healthProbe(node.adminPort);
    const collect = fullCollection();
    let heapGrowth = 0;
    for (const [family, variant] of cases) {
      const body = family.body(BODY_BYTES, variant);
      const before = await outcomes(family.format);
      const heapBefore = heldHeap();
      let peak = heapBefore;
      const sampler = setInterval(() => {
        let held = heldHeap();
        if (held - heapBefore >= HEAP_BOUND) {
          collect();
          held = heldHeap();
        }
        peak = Math.max(peak, held);
      }, 2);
      const response = await node.send({ path: `/${slug(family.format)}`, body: Buffer.from(body) });
      assert.equal(response.status, 202, `${family.format} ${family.name}`);
      await until(
        async () => (await outcomes(family.format)) > before,
        `${family.format} ${family.name} read`,
        20_000,
      );
      clearInterval(sampler);
      heapGrowth = Math.max(heapGrowth, peak - heapBefore);
    }
    const latencies = await probe.stop();
    const p99 = percentile(latencies, 0.99);
    assert.ok(latencies.length > 50, `only ${latencies.length} health checks ran`);
    assert.ok(p99 < 100, `/healthz p99 ${p99.toFixed(1)} ms over ${latencies.length} checks`);
    const growth = `the event loop's heap grew by ${(heapGrowth / 2 ** 20).toFixed(1)} MiB`;
    assert.ok(heapGrowth < HEAP_BOUND, growth);
  });
});
