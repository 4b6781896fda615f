import assert from 'node:assert/strict';
import { pino } from 'pino';
import { ManualClock } from '../core/clock.js';
import type { ComponentDescription, DescribedKind } from '../core/status.js';
import type { RequestSpec } from '../kube-client/kube-api.js';
import type { DomainState } from './graph-sync.js';
import { NodeReporter } from './node-reporter.js';

const flush = async (): Promise<void> => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A node of a fleet of `fleetNodes`, with one domain and one ingestor, on a manual clock. */
function node(fleetNodes: number | undefined, draws: number[]) {
  const clock = new ManualClock(0);
  const patches: { at: number; version: number }[] = [];
  let domains: DomainState[] = [{ domain: 'shop', graphVersion: 1 }];
  let state = 'Running';
  const api = {
    request: <T>(spec: RequestSpec): Promise<T> => {
      if (spec.method === 'PATCH') {
        const body = spec.body as { status: { domains: DomainState[] } };
        patches.push({ at: clock.now(), version: body.status.domains[0]?.graphVersion ?? 0 });
      }
      return Promise.resolve({} as T);
    },
  };
  const reporter = new NodeReporter({
    api,
    nodeName: 'n1',
    describe: (domain: string, _kind: DescribedKind, name: string) =>
      Promise.resolve<ComponentDescription>({
        domain,
        kind: 'http-ingestor',
        name,
        graphVersion: 0,
        state: state as ComponentDescription['state'],
        transientError: null,
        backoffMs: null,
        metrics: {},
        details: {},
      }),
    sync: {
      states: () => domains,
      runningGraph: () => ({ httpIngestors: { 'orders-in': {} } }),
      fleetNodes: () => fleetNodes,
    },
    logger: pino({ level: 'silent' }),
    clock,
    random: () => draws.shift() ?? 0.5,
    now: () => new Date(clock.now()).toISOString(),
  });
  const advance = async (ms: number): Promise<void> => {
    for (let step = 0; step < ms; step += 1_000) {
      await flush(); // a change is classified (collect is async) before time moves on
      clock.advance(Math.min(1_000, ms - step));
      await flush();
    }
  };
  return {
    clock,
    patches,
    reporter,
    advance,
    apply(version: number) {
      domains = [{ domain: 'shop', graphVersion: version }];
      reporter.graphApplied();
      reporter.changed();
    },
    setState(next: string) {
      state = next;
      reporter.changed();
    },
  };
}

describe('NodeReporter (decision 0018)', () => {
  it('in a large fleet a node outside the sample reports a new version with its heartbeat, brought forward', async () => {
    // draws: heartbeat jitter after the first write (0.5: at 1 period), then the sample draw (0.9: out),
    // then the deferred beat (0.25 of a period)
    const n = node(16_384, [0.5, 0.9, 0.25]);
    n.reporter.start();
    await n.advance(1_000);
    assert.deepEqual(
      n.patches.map((p) => p.version),
      [1],
    );
    n.apply(2);
    await n.advance(120_000);
    assert.equal(n.patches.length, 1, 'no write at once: the version rides the heartbeat');
    await n.advance(0.25 * 819_200 - 120_000 + 1_000);
    assert.equal(n.patches.length, 2);
    assert.equal(n.patches[1]?.version, 2);
    assert.ok(Math.abs((n.patches[1]?.at ?? 0) - (1_000 + 0.25 * 819_200)) <= 1_000);
    await n.reporter.stop();
  });

  it('a node in the sample reports a new version within 5 s', async () => {
    const n = node(16_384, [0.5, 0.01, 0.5]);
    n.reporter.start();
    await n.advance(20_000);
    n.apply(2);
    await n.advance(6_000);
    assert.deepEqual(
      n.patches.map((p) => p.version),
      [1, 2],
    );
    await n.reporter.stop();
  });

  it('a small fleet (or none published) reports every new version at once', async () => {
    for (const fleet of [undefined, 64]) {
      const n = node(fleet, [0.5, 0.99, 0.5]);
      n.reporter.start();
      await n.advance(20_000);
      n.apply(2);
      await n.advance(6_000);
      assert.equal(n.patches.at(-1)?.version, 2, String(fleet));
      await n.reporter.stop();
    }
  });

  it('a component not running is written at once in any fleet, and so is its recovery', async () => {
    const n = node(16_384, [0.5, 0.5, 0.5, 0.5]);
    n.reporter.start();
    await n.advance(20_000);
    n.setState('Retrying');
    await n.advance(1_000);
    assert.equal(n.patches.length, 2);
    n.setState('Running');
    await n.advance(11_000);
    assert.equal(n.patches.length, 3, 'recovery at once (after the 10 s spacing)');
    await n.reporter.stop();
  });
});
