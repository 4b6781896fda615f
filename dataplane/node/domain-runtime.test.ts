// One domain's reload, step by step: a changed HTTP ingestor is held (ON QUIESCE) while the new topology
// is built. A build is synchronous today, so the tests deliver bodies *during* it from inside the codec
// factory — the moment a body would arrive while a slower (asynchronous) build runs.
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { paymentsGraph, recordingSubscriber, START } from '../../test/fixtures/data-plane.js';
import { memoryLogger, utf8 } from '../../test/fixtures/graph-from-statements.js';
import { silentTelemetry } from '../../test/fixtures/http-ingestion.js';
import { CODEC_FACTORIES } from '../codecs/codec.js';
import type { Graph } from '../graph/types.js';
import { ManualClock } from '../runtime/clock.js';
import { readCounter } from '../runtime/telemetry.js';
import type { HttpMetadata } from '../sources/http/target.js';
import { DomainRuntime } from './domain-runtime.js';
import { Subscriptions } from './subscriptions.js';

const METADATA: HttpMetadata = {
  remote_addr: null,
  host: 'localhost',
  path: '/web/orders',
  content_type: null,
};
const order = (id: string) => utf8({ order_id: id, amount: 1 });

describe('DomainRuntime reload', () => {
  const original = CODEC_FACTORIES['wire-json']!;
  afterEach(() => {
    CODEC_FACTORIES['wire-json'] = original;
  });

  /** Runs `during` once, while the next topology is being built (when its first codec is made). */
  function duringNextBuild(during: () => void): void {
    let pending: (() => void) | undefined = during;
    CODEC_FACTORIES['wire-json'] = (spec, schema) => {
      const run = pending;
      pending = undefined;
      run?.();
      return original(spec, schema);
    };
  }

  async function domain(graph: Graph) {
    const registry = new Registry();
    const subscriptions = new Subscriptions();
    const runtime = new DomainRuntime('default', {
      topology: { registry, logger: memoryLogger().logger, clock: new ManualClock(START) },
      http: silentTelemetry().telemetry,
      subscriptions,
    });
    const publish = () => {};
    assert.ok((await runtime.reload(graph, 1, publish)).ok);
    const subscriber = recordingSubscriber();
    subscriptions.subscribe('default', runtime.running!.topology, 'web-orders', subscriber);
    const target = () => runtime.targets.get('web-in')!.target;
    const drops = (reason: string) =>
      readCounter(registry, 'streamroute_drops_total', { kind: 'http-ingestor', name: 'web-in', reason });
    return {
      runtime,
      subscriber,
      target,
      drops,
      reload: (next: Graph, version: number) => runtime.reload(next, version, publish),
    };
  }

  const web2 = () => paymentsGraph((text) => text.replace("SET channel = 'web'", "SET channel = 'web2'"));

  it('bodies arriving during the build are buffered and delivered to the new routes after the swap', async () => {
    const d = await domain(paymentsGraph());
    const states: string[] = [];
    duringNextBuild(() => {
      states.push(d.target().state);
      d.target().deliver(order('o-1'), METADATA);
      d.target().deliver(order('o-2'), METADATA);
    });
    const reloaded = await d.reload(web2(), 2);
    assert.ok(reloaded.ok);
    assert.deepEqual(states, ['quiesced']);
    assert.deepEqual(
      d.subscriber.records.map((record) => [record.order_id, record.channel]),
      [
        ['o-1', 'web2'],
        ['o-2', 'web2'],
      ],
    );
    assert.equal(d.target().state, 'open');
  });

  it('a refused graph resumes the held ingestor on the entry it had', async () => {
    const d = await domain(paymentsGraph());
    const refused = web2();
    refused.httpIngestors['web-in']!.routes[0]!.set.push({
      field: 'channel',
      value: { kind: 'literal', literal: 'STRING', value: 'x' },
    });
    duringNextBuild(() => d.target().deliver(order('o-1'), METADATA));
    const outcome = await d.reload(refused, 2);
    assert.ok(!outcome.ok);
    assert.equal(d.runtime.refusedVersion, 2);
    assert.equal(d.runtime.running!.version, 1);
    assert.deepEqual(
      d.subscriber.records.map((record) => record.channel),
      ['web'],
    );
  });

  it('ON QUIESCE DROP: a body arriving during the build is a counted drop of the ingestor', async () => {
    const drop = (graph: Graph): Graph => {
      graph.httpIngestors['web-in']!.quiesce = { action: 'DROP' };
      return graph;
    };
    const d = await domain(drop(paymentsGraph()));
    duringNextBuild(() => d.target().deliver(order('o-1'), METADATA));
    assert.ok((await d.reload(drop(web2()), 2)).ok);
    assert.deepEqual(d.subscriber.records, []);
    assert.equal(await d.drops('quiesce_drop'), 1);
  });

  it('a changed ON QUIESCE gets a new target; the old one hands its buffer over in order', async () => {
    const d = await domain(paymentsGraph());
    const old = d.target();
    const next = web2();
    next.httpIngestors['web-in']!.quiesce = { action: 'BUFFER', maxBytes: 100, onOverflow: 'DROP_OLDEST' };
    duringNextBuild(() => old.deliver(order('o-1'), METADATA));
    assert.ok((await d.reload(next, 2)).ok);
    assert.notEqual(d.target(), old);
    old.deliver(order('o-2'), METADATA); // a request the old target routed before the swap
    d.target().deliver(order('o-3'), METADATA);
    assert.deepEqual(
      d.subscriber.records.map((record) => [record.order_id, record.channel]),
      [
        ['o-1', 'web2'],
        ['o-2', 'web2'],
        ['o-3', 'web2'],
      ],
    );
  });

  it('a removed ingestor stops its target: what still reaches it is dropped and counted as stopped', async () => {
    const d = await domain(paymentsGraph());
    const old = d.target();
    const next = paymentsGraph();
    delete next.httpIngestors['web-in'];
    assert.ok((await d.reload(next, 2)).ok);
    assert.equal(d.runtime.targets.get('web-in'), undefined);
    old.deliver(order('o-1'), METADATA);
    assert.equal(await d.drops('stopped'), 1);
    assert.deepEqual(d.subscriber.records, []);
  });
});
