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
import { ManualClock } from '../core/clock.js';
import { readCounter } from '../core/telemetry.js';
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
    const joined = recordingSubscriber();
    subscriptions.subscribe('default', runtime.running!.topology, 'orders', joined);
    const target = () => runtime.targets.get('web-in')!.target;
    const drops = (reason: string, kind = 'http-ingestor', name = 'web_in') =>
      readCounter(registry, 'streamroute_drops_total', { kind, name, reason });
    return {
      runtime,
      subscriber,
      joined,
      target,
      drops,
      reload: (next: Graph, version: number, publishing: () => void = publish) =>
        runtime.reload(next, version, publishing),
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
    assert.equal(d.runtime.running!.version, 1);
    assert.equal(d.target().state, 'open');
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

  describe('regression: a reload that throws strands ingestors quiesced', () => {
    /** web-in, the junction and correlator pay-last all changed. */
    const everythingChanged = () => {
      const next = paymentsGraph((text) =>
        text
          .replace("SET channel = 'web'", "SET channel = 'web2'")
          .replace('TO orders\n    INHERIT ALL\n', "TO orders\n    INHERIT ALL SET channel = 'joined'\n")
          .replace('MATCH LATEST\n  MAX TIME 30s', 'MATCH LATEST\n  MAX TIME 60s'),
      );
      return next;
    };

    /** The running graph is the one of version 1, whole: held ingestor open, old parts running, no new ones. */
    async function assertVersionOneRuns(
      d: Awaited<ReturnType<typeof domain>>,
      before: unknown,
      orders: string[],
    ): Promise<void> {
      assert.equal(d.runtime.running!.version, 1);
      assert.equal(d.runtime.running!.topology, before);
      assert.equal(d.target().state, 'open', 'the held ingestor resumed');
      const pending = () => d.runtime.running!.topology.correlators.get('pay-last')!.pending('left');
      assert.equal(pending(), orders.length, 'the old correlator kept its pending records');
      assert.equal(await d.drops('stopped', 'correlator', 'pay_last'), 0);
      d.target().deliver(order('o-2'), METADATA);
      assert.equal(pending(), orders.length + 1, 'the old correlator still runs');
      assert.deepEqual(
        d.joined.records.map((record) => [record.order_id, record.channel]),
        [...orders, 'o-2'].map((id) => [id, 'web']),
        'one junction (the old one) carried each order once',
      );
    }

    it('a codec factory that throws (not a GraphBuildError): held ingestors resume, the graph stays', async () => {
      const d = await domain(paymentsGraph());
      d.target().deliver(order('o-1'), METADATA);
      const before = d.runtime.running!.topology;
      CODEC_FACTORIES['wire-json'] = () => {
        d.target().deliver(order('held'), METADATA);
        throw new TypeError('codec factory defect');
      };
      const outcome = await d.reload(everythingChanged(), 2);
      assert.deepEqual(outcome, {
        ok: false,
        errors: [
          'graph version 2 could not be applied: the data plane failed (TypeError); the running graph stays',
        ],
      });
      CODEC_FACTORIES['wire-json'] = original;
      // The body that arrived while the ingestor was held went to the entry it had.
      assert.deepEqual(
        d.subscriber.records.map((record) => [record.order_id, record.channel]),
        [
          ['o-1', 'web'],
          ['held', 'web'],
        ],
      );
      await assertVersionOneRuns(d, before, ['o-1', 'held']);
      assert.ok((await d.reload(everythingChanged(), 3)).ok, 'a later reload still works');
    });

    it('publishing that throws: the running routes are published again and nothing was retired', async () => {
      const d = await domain(paymentsGraph());
      d.target().deliver(order('o-1'), METADATA);
      const before = d.runtime.running!.topology;
      const oldTarget = d.target();
      const published: unknown[][] = [];
      let calls = 0;
      const outcome = await d.reload(everythingChanged(), 2, () => {
        calls++;
        published.push(d.runtime.targets.routes().map((route) => route.target));
        if (calls === 1) throw new RangeError('setRoutes defect');
      });
      assert.ok(!outcome.ok);
      assert.match(outcome.errors[0]!, /failed \(RangeError\)/);
      assert.equal(calls, 2, 'published, then published again');
      assert.ok(published[1]!.includes(oldTarget));
      assert.equal(d.target(), oldTarget);
      await assertVersionOneRuns(d, before, ['o-1']);
      assert.ok((await d.reload(everythingChanged(), 3)).ok, 'a later reload still works');
      assert.equal(
        await d.drops('stopped', 'correlator', 'pay_last'),
        2,
        'retired by the reload that worked',
      );
    });
  });
});
