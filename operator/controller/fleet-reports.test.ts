import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ClusterObject } from './domain-snapshot.js';
import { FleetReports } from './fleet-reports.js';
import { domainNodes, rollUp } from './node-rollup.js';

const NOW = Date.parse('2026-11-27T09:00:00Z');
const STALE = 900_000;

const reportArb = fc.record({
  node: fc.constantFrom('n1', 'n2', 'n3', 'n4', 'n5'),
  ageMs: fc.integer({ min: 0, max: 2 * STALE }),
  domains: fc.uniqueArray(
    fc.record({
      domain: fc.constantFrom('shop', 'billing'),
      graphVersion: fc.integer({ min: 1, max: 4 }),
      error: fc.option(fc.constant('graph version 4: refused'), { nil: undefined }),
    }),
    { selector: (d) => d.domain, maxLength: 2 },
  ),
  components: fc.array(
    fc.record({
      domain: fc.constantFrom('shop', 'billing', 'gone'),
      kind: fc.constantFrom('HttpIngestor', 'Emitter'),
      name: fc.constantFrom('a', 'b'),
      state: fc.constantFrom('Running', 'Retrying', 'Starting', 'Stopped'),
      transientError: fc.option(fc.constant('ECONNREFUSED: refused'), { nil: undefined }),
    }),
    { maxLength: 4 },
  ),
});

type Report = typeof reportArb extends fc.Arbitrary<infer T> ? T : never;

function toObject(report: Report): ClusterObject {
  const components = new Map(report.components.map((c) => [`${c.domain}/${c.kind}/${c.name}`, c]));
  return {
    kind: 'DataplaneNode',
    metadata: { name: report.node },
    status: {
      heartbeatTime: new Date(NOW - report.ageMs).toISOString(),
      domains: report.domains.map(({ error, ...rest }) => ({
        ...rest,
        ...(error === undefined ? {} : { error }),
      })),
      components: [...components.values()].map(({ transientError, ...rest }) => ({
        ...rest,
        ...(transientError === undefined ? {} : { transientError }),
      })),
    },
  };
}

/** The roll-up as it was computed before counts were kept: a walk over every report (the oracle). */
function walk(
  reports: ClusterObject[],
  domain: string,
  [kind, name]: readonly [string, string],
  nowMs: number,
) {
  let running = 0;
  let total = 0;
  const errors: { node: string; error: string }[] = [];
  const versions = new Map<number, number>();
  for (const report of [...reports].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))) {
    const status = report.status as {
      heartbeatTime: string;
      domains: { domain: string; graphVersion: number }[];
      components: { domain: string; kind: string; name: string; state: string; transientError?: string }[];
    };
    if (nowMs - Date.parse(status.heartbeatTime) > STALE) continue;
    const part = status.domains.find((d) => d.domain === domain);
    if (part === undefined) continue;
    total += 1;
    versions.set(part.graphVersion, (versions.get(part.graphVersion) ?? 0) + 1);
    const component = status.components.find(
      (c) => c.domain === domain && c.kind === kind && c.name === name,
    );
    if (component?.state === 'Running') running += 1;
    if (component?.state === 'Retrying' || component?.transientError !== undefined)
      errors.push({ node: report.metadata.name, error: component?.transientError ?? 'Retrying' });
  }
  return {
    running,
    withError: errors.length,
    total,
    errorSamples: errors.slice(0, 5),
    versions: [...versions].sort(([a], [b]) => b - a).map(([version, nodes]) => ({ version, nodes })),
  };
}

describe('FleetReports', () => {
  it('counts kept as reports arrive, are deleted and expire equal the roll-up recomputed from the reports left', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            reportArb.map((r) => ({ put: r })),
            fc.record({ del: fc.constantFrom('n1', 'n2', 'n3') }),
          ),
          {
            maxLength: 30,
          },
        ),
        fc.integer({ min: 0, max: STALE }),
        (steps, laterMs) => {
          const fleet = new FleetReports();
          const current = new Map<string, ClusterObject>();
          for (const step of steps) {
            if ('put' in step) {
              const object = toObject(step.put);
              fleet.put(object, NOW, STALE);
              current.set(object.metadata.name, object);
            } else {
              fleet.delete(step.del);
              current.delete(step.del);
            }
          }
          fleet.expire(NOW + laterMs, STALE);
          assert.equal(fleet.size, current.size);
          for (const domain of ['shop', 'billing']) {
            for (const [kind, name] of [
              ['HttpIngestor', 'a'],
              ['Emitter', 'b'],
            ] as const) {
              const incremental = rollUp({ counts: fleet.domain(domain) }, kind, name);
              const scratch = rollUp(
                domainNodes([...current.values()], domain, NOW + laterMs, STALE),
                kind,
                name,
              );
              assert.deepEqual(incremental, scratch);
              assert.deepEqual(incremental, walk([...current.values()], domain, [kind, name], NOW + laterMs));
            }
          }
        },
      ),
    );
  });

  it('a stale report comes back when the stale age grows (the fleet grew)', () => {
    const fleet = new FleetReports();
    fleet.put(
      toObject({
        node: 'n1',
        ageMs: STALE + 1,
        domains: [{ domain: 'shop', graphVersion: 1, error: undefined }],
        components: [],
      }),
      NOW,
      STALE,
    );
    assert.equal(rollUp({ counts: fleet.domain('shop') }, 'HttpIngestor', 'a').total, 0);
    assert.deepEqual(fleet.expire(NOW, 2 * STALE), ['shop']);
    assert.equal(rollUp({ counts: fleet.domain('shop') }, 'HttpIngestor', 'a').total, 1);
    assert.deepEqual(fleet.expire(NOW, 2 * STALE), [], 'nothing moved');
  });
});
