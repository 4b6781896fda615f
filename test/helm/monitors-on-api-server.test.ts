// The monitors the chart renders are valid Prometheus Operator objects: with the ServiceMonitor and
// PodMonitor CRDs generated from the Prometheus Operator's own types (test/monitoring-crds/build.sh)
// on the real kube-apiserver, the API server accepts every monitor and metrics Service of a release,
// with strict field validation (an unknown or misspelled field is an error, not a silent drop).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { KubeApi, KubeApiError } from '../../dataplane/kube-client/kube-api.js';
import { CHART_DIR, renderChart, requireHelmOrSkip, type RenderedObject } from '../support/helm.js';
import { requireKubeOrSkip, sharedKubeApiServer } from '../support/kube-apiserver.js';
import { applyRaw } from '../support/kube-client.js';
import { requireMonitoringCrdsOrSkip, type MonitoringCrd } from '../support/monitoring-crds.js';

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const PLURALS: Record<string, string> = { ServiceMonitor: 'servicemonitors', PodMonitor: 'podmonitors' };

function pathOf(object: RenderedObject): string {
  const namespace = object.metadata.namespace!;
  if (object.kind === 'Service') return `/api/v1/namespaces/${namespace}/services`;
  return `/apis/monitoring.coreos.com/v1/namespaces/${namespace}/${PLURALS[object.kind]!}`;
}

const monitoringObjects = (objects: readonly RenderedObject[]) =>
  objects.filter((o) => o.kind in PLURALS || (o.kind === 'Service' && o.metadata.name.endsWith('-metrics')));

describe('the chart’s monitors on a real kube-apiserver with the Prometheus Operator’s CRDs', function () {
  this.timeout(120_000);
  let api: KubeApi;
  let crds: MonitoringCrd[];

  before(async function () {
    await requireHelmOrSkip(this);
    await requireKubeOrSkip(this);
    crds = await requireMonitoringCrdsOrSkip(this);
    const server = await sharedKubeApiServer();
    api = new KubeApi({
      kubeconfig: server.kubeconfigPath,
      rateLimit: { qps: 100, burst: 100 },
      userAgent: 'monitors-test',
    });
    for (const crd of crds) await applyRaw(server, `${CRD_PATH}/${crd.metadata.name}`, crd);
    const deadline = Date.now() + 30_000;
    for (const crd of crds) {
      for (;;) {
        const read = await api.request<{ status?: { conditions?: { type: string; status: string }[] } }>({
          path: `${CRD_PATH}/${crd.metadata.name}`,
        });
        if (read.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) break;
        if (Date.now() > deadline) throw new Error(`${crd.metadata.name} did not become Established`);
        await sleep(100);
      }
    }
  });

  async function create(object: RenderedObject): Promise<void> {
    await api.request({
      method: 'POST',
      path: pathOf(object),
      query: { fieldValidation: 'Strict' },
      body: object,
    });
  }

  const releases: [string, Record<string, unknown>][] = [
    [
      'monitors-sm',
      {
        metrics: {
          serviceMonitor: {
            enabled: true,
            interval: '30s',
            scrapeTimeout: '10s',
            labels: { release: 'kps' },
          },
        },
      },
    ],
    ['monitors-pm', { metrics: { podMonitor: { enabled: true, interval: '1m' } } }],
  ];
  for (const [namespace, values] of releases) {
    it(`accepts every monitor and metrics Service of a release (${Object.keys((values['metrics'] as object) ?? {}).join()})`, async () => {
      await api.request({
        method: 'POST',
        path: '/api/v1/namespaces',
        body: { metadata: { name: namespace } },
      });
      const objects = monitoringObjects(await renderChart(values, { namespace }));
      assert.equal(objects.filter((o) => o.kind in PLURALS).length, 2);
      for (const object of objects) await create(object);
      for (const object of objects.filter((o) => o.kind in PLURALS)) {
        const stored = await api.request<RenderedObject>({
          path: `${pathOf(object)}/${object.metadata.name}`,
        });
        assert.deepEqual(
          stored['spec'],
          object['spec'],
          `${object.kind}/${object.metadata.name} kept as rendered`,
        );
      }
    });
  }

  it('checks intervals with the Prometheus Operator’s own Duration pattern (values.schema.json)', () => {
    const schema = JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8')) as {
      definitions: { duration: { pattern: string } };
    };
    type Node = { properties?: Record<string, Node>; items?: Node; pattern?: string };
    const crd = crds.find(
      (each) => each.metadata.name === 'podmonitors.monitoring.coreos.com',
    ) as unknown as {
      spec: { versions: { schema: { openAPIV3Schema: Node } }[] };
    };
    const endpoint =
      crd.spec.versions[0]!.schema.openAPIV3Schema.properties!['spec']!.properties!['podMetricsEndpoints']!
        .items!;
    assert.equal(schema.definitions.duration.pattern, endpoint.properties!['interval']!.pattern);
    assert.equal(schema.definitions.duration.pattern, endpoint.properties!['scrapeTimeout']!.pattern);
  });

  it('would refuse a misspelled monitor field (strict validation is on)', async () => {
    await api.request({
      method: 'POST',
      path: '/api/v1/namespaces',
      body: { metadata: { name: 'monitors-strict' } },
    });
    const [monitor] = (
      await renderChart({ metrics: { podMonitor: { enabled: true } } }, { namespace: 'monitors-strict' })
    ).filter((o) => o.kind === 'PodMonitor') as [
      RenderedObject & { spec: { podMetricsEndpoints: Record<string, unknown>[] } },
    ];
    const [endpoint] = monitor.spec.podMetricsEndpoints as [Record<string, unknown>];
    const { path, ...rest } = endpoint;
    const misspelled = {
      ...monitor,
      metadata: { ...monitor.metadata, name: 'misspelled' },
      spec: { ...monitor.spec, podMetricsEndpoints: [{ ...rest, pth: path }] },
    };
    const refused = await create(misspelled).then(
      () => assert.fail('the API server accepted podMetricsEndpoints[0].pth'),
      (error: unknown) => error,
    );
    assert.ok(refused instanceof KubeApiError, String(refused));
    assert.match(refused.message, /unknown field "spec\.podMetricsEndpoints\[0\]\.pth"/);
  });
});
