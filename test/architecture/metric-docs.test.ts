// The metric declarations follow one scheme and docs/metrics.md says what they declare (decision 0024):
// Prometheus names and units, components labelled domain, kind, name, no family declared twice, no
// renamed family left behind. test/e2e/metric-docs.e2e.test.ts checks the page against a running node
// and a running operator.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Registry } from 'prom-client';
import type { MetricSpec } from '../../dataplane/core/metric-spec.js';
import { NODE_METRICS } from '../../dataplane/node/node-metrics.js';
import { LiveMetrics } from '../../operator/access/live-metrics.js';
import { OPERATOR_LIVE_METRICS, OPERATOR_METRICS } from '../../operator/controller/operator-metrics.js';
import { METRIC_RENAMES } from '../../operator/tools/metric-renames.js';
import { defaultMetricSpecs, renderMetricDocs } from '../../operator/tools/render-metric-docs.js';
import { documentedFamilies, METRIC_DOCS, registeredFamilies } from '../support/metric-docs.js';

const ALL: readonly MetricSpec[] = [...NODE_METRICS, ...OPERATOR_METRICS, ...OPERATOR_LIVE_METRICS];
const FORBIDDEN_LABELS = ['ingestor', 'component', 'target', 'emitter', 'relay'];

/** A declaration as the docs can say it (a StatCounter's `stat` is the code's business). */
function plain({ name, type, help, labels }: MetricSpec): MetricSpec {
  return { name, type, help, labels: [...labels] };
}

function names(specs: Iterable<MetricSpec>): string[] {
  return [...specs].map((spec) => spec.name).sort();
}

describe('metric declarations and docs/metrics.md', () => {
  it('docs/metrics.md is what the declarations render (npm run generate)', () => {
    assert.equal(readFileSync(METRIC_DOCS, 'utf8'), renderMetricDocs());
  });

  for (const spec of ALL) {
    it(`${spec.name}: a Prometheus name, unit and type, and the one label scheme`, () => {
      assert.match(spec.name, /^streamroute_[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      assert.equal(
        spec.name.endsWith('_total'),
        spec.type === 'counter',
        'counters, and only counters, end in _total',
      );
      assert.doesNotMatch(spec.name, /_(ms|millis|milliseconds|kb|kib|mb|mib)(_|$)/, 'base units only');
      if (/_bytes|_seconds/.test(spec.name)) assert.match(spec.name, /_(bytes|seconds)(_total)?$/);
      if (spec.type === 'histogram') assert.match(spec.name, /_(bytes|seconds)$/);
      for (const label of FORBIDDEN_LABELS) assert.ok(!spec.labels.includes(label), `label ${label}`);
      assert.equal(new Set(spec.labels).size, spec.labels.length);
      // A component is always domain, kind, name, together and in this order.
      const kind = spec.labels.indexOf('kind');
      assert.equal(kind === -1, !spec.labels.includes('name'), 'kind and name come together');
      if (kind !== -1) assert.deepEqual(spec.labels.slice(kind - 1, kind + 2), ['domain', 'kind', 'name']);
      assert.ok(spec.help.length > 0);
    });
  }

  it('no family is declared twice in one process, and one shared by processes is the same family', () => {
    for (const specs of [NODE_METRICS, [...OPERATOR_METRICS, ...OPERATOR_LIVE_METRICS]])
      assert.equal(new Set(names(specs)).size, specs.length);
    const byName = new Map<string, MetricSpec>();
    for (const spec of ALL) {
      const seen = byName.get(spec.name);
      if (seen !== undefined) assert.deepEqual(plain(spec), plain(seen));
      byName.set(spec.name, spec);
    }
  });

  it('the docs list the node, operator and live API families exactly, with type, labels and help', () => {
    assert.deepEqual([...documentedFamilies('node').values()], NODE_METRICS.map(plain));
    assert.deepEqual([...documentedFamilies('operator').values()], OPERATOR_METRICS.map(plain));
    assert.deepEqual([...documentedFamilies('live').values()], OPERATOR_LIVE_METRICS.map(plain));
    assert.deepEqual(names(documentedFamilies('process').values()), names(defaultMetricSpecs()));
  });

  it('the live API registers exactly the documented live families', () => {
    const registry = new Registry();
    new LiveMetrics(registry);
    assert.deepEqual(registeredFamilies(registry), documentedFamilies('live'));
  });

  it('a renamed family is gone from every declaration and its new family is documented', () => {
    const declared = new Set(names(ALL));
    const documented = new Set([
      ...documentedFamilies('node').keys(),
      ...documentedFamilies('operator').keys(),
    ]);
    assert.ok(METRIC_RENAMES.length >= 10);
    for (const rename of METRIC_RENAMES) {
      const old = /^[a-z_]+/.exec(rename.old)?.[0] ?? '';
      if (old !== rename.family) assert.ok(!declared.has(old), `${old} is still declared`);
      assert.ok(documented.has(rename.family), `${rename.family} is not documented`);
      assert.ok(rename.now.startsWith(`${rename.family}{`), rename.now);
    }
  });
});
