// operator.* and dataplane.* logLevel, extraArgs and extraEnv reach the rendered containers, after the
// chart's own args and env; a flag or variable the chart sets itself is refused with the value's path.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { LOG_LEVELS } from '../../operator/cli/commands/node.js';
import { DATAPLANE_LOG_LEVELS } from '../../dataplane/kube/dataplane-flags.js';
import {
  CHART_DIR,
  renderChart,
  requireHelmOrSkip,
  templateFailure,
  type RenderedObject,
} from '../support/helm.js';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: unknown;
}
interface Container {
  args: string[];
  env: EnvVar[];
}
type Values = Record<string, unknown>;

const COMPONENTS = [
  { component: 'operator', kind: 'Deployment', levels: LOG_LEVELS },
  { component: 'dataplane', kind: 'DaemonSet', levels: DATAPLANE_LOG_LEVELS },
] as const;

function container(objects: readonly RenderedObject[], kind: string, component: string): Container {
  const workload = objects.find(
    (object) => object.kind === kind && object.metadata.name === `streamroute-${component}`,
  );
  assert.ok(workload, `${kind} streamroute-${component} is not rendered`);
  const spec = workload['spec'] as { template: { spec: { containers: Container[] } } };
  return spec.template.spec.containers[0]!;
}

const flagValue = (args: readonly string[], flag: string) => args[args.indexOf(flag) + 1];

describe('logLevel, extraArgs and extraEnv of the operator and the data plane (real helm)', function () {
  this.timeout(120_000);
  let defaults: RenderedObject[];
  // Without the live API nothing generates keys, so a render is several times faster: the checks that
  // render once per flag use it, and one check covers the flags only the live API adds.
  const NO_LIVE = { live: { enabled: false } };
  let withoutLive: RenderedObject[];

  before(async function () {
    await requireHelmOrSkip(this);
    defaults = await renderChart();
    withoutLive = await renderChart(NO_LIVE);
  });

  it('offers exactly the log levels each binary accepts, and defaults to info', () => {
    const schema = JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8')) as {
      definitions: { logLevel: { enum: string[] } };
    };
    for (const { component, kind, levels } of COMPONENTS) {
      assert.deepEqual(schema.definitions.logLevel.enum, [...levels], component);
      assert.equal(flagValue(container(defaults, kind, component).args, '--log-level'), 'info', component);
    }
  });

  it('passes --log-format json to each container, which extraArgs cannot change', async () => {
    for (const { component, kind } of COMPONENTS)
      assert.equal(flagValue(container(defaults, kind, component).args, '--log-format'), 'json', component);
    const failure = await templateFailure({ ...NO_LIVE, dataplane: { extraArgs: ['--log-format=text'] } });
    assert.match(
      failure,
      /dataplane\.extraArgs\[0\] "--log-format=text": the chart sets --log-format itself/,
    );
  });

  for (const level of ['trace', 'error']) {
    it(`passes logLevel ${level} to each container as --log-level`, async () => {
      const objects = await renderChart({ operator: { logLevel: level }, dataplane: { logLevel: level } });
      for (const { component, kind } of COMPONENTS)
        assert.equal(flagValue(container(objects, kind, component).args, '--log-level'), level, component);
    });
  }

  it('refuses a log level the binaries do not know, naming the value', async () => {
    const failure = await templateFailure({
      operator: { logLevel: 'verbose' },
      dataplane: { logLevel: 'WARN' },
    });
    assert.match(failure, /at '\/operator\/logLevel': value must be one of 'fatal', 'error', 'warn'/);
    assert.match(failure, /at '\/dataplane\/logLevel': value must be one of/);
  });

  it('appends extraArgs after the chart’s args and extraEnv after its env, in order (generated)', async () => {
    const flag = fc.stringMatching(/^--x-[a-z]{1,8}(=[a-z0-9]{1,4})?$/);
    const word = fc.oneof(
      flag,
      fc.stringMatching(/^[a-z0-9.:/]{1,10}$/),
      fc.integer({ min: 0, max: 99_999 }),
    );
    const variable = fc
      .record({ name: fc.stringMatching(/^X_[A-Z0-9_]{1,10}$/), value: fc.string({ maxLength: 12 }) })
      .map(({ name, value }) => ({ name, value }));
    const env = fc.uniqueArray(variable, { maxLength: 4, selector: (each) => each.name });
    const extra = fc.record({ extraArgs: fc.array(word, { maxLength: 6 }), extraEnv: env });
    await fc.assert(
      fc.asyncProperty(extra, extra, async (operator, dataplane) => {
        const values: Values = { ...NO_LIVE, operator, dataplane };
        const objects = await renderChart(values);
        for (const { component, kind } of COMPONENTS) {
          const own = container(withoutLive, kind, component);
          const { extraArgs, extraEnv } = component === 'operator' ? operator : dataplane;
          const rendered = container(objects, kind, component);
          assert.deepEqual(rendered.args, [...own.args, ...extraArgs.map(String)], component);
          assert.deepEqual(rendered.env, [...own.env, ...extraEnv], component);
        }
      }),
      { numRuns: 10 },
    );
  });

  it('keeps an extraEnv valueFrom as given', async () => {
    const fromSecret = {
      name: 'TOKEN',
      valueFrom: { secretKeyRef: { name: 'creds', key: 'token', optional: true } },
    };
    const objects = await renderChart({ dataplane: { extraEnv: [fromSecret] } });
    assert.deepEqual(container(objects, 'DaemonSet', 'dataplane').env.at(-1), fromSecret);
  });

  for (const { component, kind } of COMPONENTS) {
    it(`refuses in ${component}.extraArgs every flag the chart sets, in each spelling`, async () => {
      const owned = container(withoutLive, kind, component).args.filter((arg) => arg.startsWith('--'));
      assert.ok(owned.includes('--log-level') && owned.includes('--health-listen-addr'), owned.join(' '));
      for (const [i, flag] of owned.entries()) {
        const spelling = [flag, `${flag}=x`, `--no-${flag.slice(2)}`][i % 3]!;
        const failure = await templateFailure({
          ...NO_LIVE,
          [component]: { extraArgs: ['--fine', spelling] },
        });
        assert.ok(
          failure.includes(`${component}.extraArgs[1] "${spelling}": the chart sets ${flag} itself`),
          `${spelling}: ${failure}`,
        );
      }
    });

    it(`refuses in ${component}.extraEnv a variable the chart sets, and one given twice`, async () => {
      for (const { name } of container(withoutLive, kind, component).env) {
        const failure = await templateFailure({
          ...NO_LIVE,
          [component]: { extraEnv: [{ name, value: 'x' }] },
        });
        assert.match(failure, new RegExp(`${component}\\.extraEnv\\[0\\]: ${name} is set by the chart`));
      }
      const twice = [
        { name: 'A', value: '1' },
        { name: 'A', value: '2' },
      ];
      const failure = await templateFailure({ ...NO_LIVE, [component]: { extraEnv: twice } });
      assert.match(
        failure,
        new RegExp(`${component}\\.extraEnv\\[1\\]: A is already set by an earlier entry`),
      );
    });
  }

  it('refuses the flags only the live API adds while it is on (--live-listen-addr, --internal-listen-addr)', async () => {
    const failure = await templateFailure({ operator: { extraArgs: ['--live-listen-addr', '0.0.0.0:1'] } });
    assert.match(
      failure,
      /operator\.extraArgs\[0\] "--live-listen-addr": the chart sets --live-listen-addr itself/,
    );
    const dataplane = await templateFailure({
      dataplane: { extraArgs: ['--internal-listen-addr=0.0.0.0:1'] },
    });
    assert.match(dataplane, /the chart sets --internal-listen-addr itself/);
  });

  it('renders a 0.1.0 release’s values, which lack the new keys (helm upgrade --reuse-values)', async () => {
    // --reuse-values renders with the old chart's values as defaults; null removes a key the same way.
    const none = { logLevel: null, extraArgs: null, extraEnv: null };
    const objects = await renderChart({ ...NO_LIVE, metrics: null, operator: none, dataplane: none });
    for (const { component, kind } of COMPONENTS) {
      assert.deepEqual(
        container(objects, kind, component),
        container(withoutLive, kind, component),
        component,
      );
    }
    assert.ok(!objects.some((object) => object.kind === 'ServiceMonitor' || object.kind === 'PodMonitor'));
  });

  it('refuses an EnvVar with both value and valueFrom, or without a name', async () => {
    const both = { name: 'A', value: 'x', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } };
    const failure = await templateFailure({ operator: { extraEnv: [both, { value: 'y' }] } });
    assert.match(failure, /at '\/operator\/extraEnv\/0': 'not' failed/);
    assert.match(failure, /at '\/operator\/extraEnv\/1': missing property 'name'/);
  });
});
