// metrics.serviceMonitor and metrics.podMonitor: off by default; when on, each component's monitor
// selects that component's pods only (through a headless Service, or directly) and scrapes the port the
// process serves /metrics on — its health listener, whose address the chart passes in its args — at the
// path the health server answers.
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { Registry } from 'prom-client';
import { startHealthServer } from '../../dataplane/admin/health-server.js';
import { renderChart, requireHelmOrSkip, templateFailure, type RenderedObject } from '../support/helm.js';

type Labels = Record<string, string>;
interface Endpoint {
  port: string;
  path: string;
  scheme: string;
  interval?: string;
  scrapeTimeout?: string;
  relabelings?: { action: string; sourceLabels: string[]; targetLabel: string }[];
}
interface Monitor extends RenderedObject {
  spec: {
    selector: { matchLabels: Labels };
    namespaceSelector: { matchNames: string[] };
    endpoints?: Endpoint[];
    podMetricsEndpoints?: Endpoint[];
  };
}
interface Service extends RenderedObject {
  spec: { clusterIP?: string; selector: Labels; ports: { name: string; port: number; targetPort: string }[] };
}
interface Workload extends RenderedObject {
  spec: {
    template: {
      metadata: { labels: Labels };
      spec: { containers: { args: string[]; ports: { name: string; containerPort: number }[] }[] };
    };
  };
}

const COMPONENTS = [
  ['operator', 'Deployment'],
  ['dataplane', 'DaemonSet'],
] as const;
const MONITOR_KINDS = new Set(['ServiceMonitor', 'PodMonitor']);

const matches = (selector: Labels, labels: Labels = {}) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);
const ofKind = <T extends RenderedObject>(objects: readonly RenderedObject[], kind: string) =>
  objects.filter((object) => object.kind === kind) as T[];

/** The port the container's process serves /metrics on: its --health-listen-addr, and the port's name. */
function metricsPort(workload: Workload): { name: string; port: number } {
  const container = workload.spec.template.spec.containers[0]!;
  const address = container.args[container.args.indexOf('--health-listen-addr') + 1]!;
  const port = Number(address.split(':').at(-1));
  const named = container.ports.find((each) => each.containerPort === port);
  assert.ok(named, `${workload.metadata.name}: no container port ${port}`);
  return { name: named.name, port };
}

function workload(objects: readonly RenderedObject[], kind: string, component: string): Workload {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === `streamroute-${component}`);
  assert.ok(found, `${kind} streamroute-${component}`);
  return found as Workload;
}

function fetchText(port: number, path: string): Promise<{ status: number; body: string; type: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body, type: String(response.headers['content-type']) }),
      );
    }).on('error', reject);
  });
}

describe('metrics.serviceMonitor and metrics.podMonitor (real helm)', function () {
  this.timeout(120_000);

  before(async function () {
    await requireHelmOrSkip(this);
  });

  it('renders no monitor and no metrics Service by default', async () => {
    const objects = await renderChart();
    assert.deepEqual(
      objects.filter((o) => MONITOR_KINDS.has(o.kind) || o.metadata.name.endsWith('-metrics')),
      [],
    );
  });

  for (const hostNetwork of [true, false]) {
    it(`ServiceMonitor (hostNetwork ${hostNetwork}): each selects only its component's metrics Service, which targets the health listener`, async () => {
      const values = {
        metrics: {
          serviceMonitor: { enabled: true, interval: '15s', scrapeTimeout: '5s', labels: { release: 'kps' } },
        },
        operator: { healthPort: 9101 },
        dataplane: { healthPort: 9102, hostNetwork },
      };
      const objects = await renderChart(values);
      const monitors = ofKind<Monitor>(objects, 'ServiceMonitor');
      const services = ofKind<Service>(objects, 'Service');
      assert.deepEqual(ofKind(objects, 'PodMonitor'), []);
      assert.deepEqual(monitors.map((m) => m.metadata.name).sort(), [
        'streamroute-dataplane',
        'streamroute-operator',
      ]);
      for (const [component, kind] of COMPONENTS) {
        const monitor = monitors.find((m) => m.metadata.name === `streamroute-${component}`)!;
        assert.equal(monitor.metadata.labels?.['release'], 'kps');
        assert.deepEqual(monitor.spec.namespaceSelector.matchNames, ['streamroute-system']);
        const selected = services.filter((s) =>
          matches(monitor.spec.selector.matchLabels, s.metadata.labels),
        );
        assert.deepEqual(
          selected.map((s) => s.metadata.name),
          [`streamroute-${component}-metrics`],
        );
        const [service] = selected as [Service];
        assert.equal(service.spec.clusterIP, 'None', 'headless: every pod is a target');
        const pods = workload(objects, kind, component);
        assert.ok(matches(service.spec.selector, pods.spec.template.metadata.labels), 'selects its pods');
        const other = workload(
          objects,
          component === 'operator' ? 'DaemonSet' : 'Deployment',
          component === 'operator' ? 'dataplane' : 'operator',
        );
        assert.ok(!matches(service.spec.selector, other.spec.template.metadata.labels), 'and no others');
        const [endpoint] = monitor.spec.endpoints ?? [];
        assert.ok(endpoint);
        const servicePort = service.spec.ports.find((port) => port.name === endpoint.port);
        assert.ok(servicePort, `the Service has no port ${endpoint.port}`);
        assert.equal(servicePort.targetPort, metricsPort(pods).name);
        assert.equal(servicePort.port, metricsPort(pods).port);
        assert.equal(metricsPort(pods).port, component === 'operator' ? 9101 : 9102);
        assert.deepEqual(
          [endpoint.path, endpoint.scheme, endpoint.interval, endpoint.scrapeTimeout],
          ['/metrics', 'http', '15s', '5s'],
        );
      }
    });
  }

  it('PodMonitor: each selects only its component’s pods and scrapes the container port of the health listener', async () => {
    const objects = await renderChart({
      metrics: { podMonitor: { enabled: true, labels: { team: 'obs' } } },
    });
    const monitors = ofKind<Monitor>(objects, 'PodMonitor');
    assert.deepEqual(ofKind(objects, 'ServiceMonitor'), []);
    assert.ok(!objects.some((o) => o.metadata.name.endsWith('-metrics')), 'no metrics Service');
    assert.equal(monitors.length, 2);
    for (const [component, kind] of COMPONENTS) {
      const monitor = monitors.find((m) => m.metadata.name === `streamroute-${component}`)!;
      assert.equal(monitor.metadata.labels?.['team'], 'obs');
      const workloads = [
        ...ofKind<Workload>(objects, 'Deployment'),
        ...ofKind<Workload>(objects, 'DaemonSet'),
      ];
      const selected = workloads.filter((w) =>
        matches(monitor.spec.selector.matchLabels, w.spec.template.metadata.labels),
      );
      assert.deepEqual(
        selected.map((w) => w.kind),
        [kind],
      );
      const [endpoint] = monitor.spec.podMetricsEndpoints ?? [];
      assert.equal(endpoint?.port, metricsPort(workload(objects, kind, component)).name);
      assert.deepEqual(
        [endpoint?.path, endpoint?.interval, endpoint?.scrapeTimeout],
        ['/metrics', undefined, undefined],
      );
      // The data plane runs one pod per node: its series carry the node name.
      assert.deepEqual(
        endpoint?.relabelings ?? [],
        component === 'dataplane'
          ? [{ action: 'replace', sourceLabels: ['__meta_kubernetes_pod_node_name'], targetLabel: 'node' }]
          : [],
      );
    }
  });

  it('scrapes a path the health listener answers with the Prometheus text format', async () => {
    const objects = await renderChart({
      metrics: { serviceMonitor: { enabled: true } },
      live: { enabled: false },
    });
    const paths = ofKind<Monitor>(objects, 'ServiceMonitor').flatMap((m) =>
      (m.spec.endpoints ?? []).map((e) => e.path),
    );
    assert.equal(paths.length, 2);
    const registry = new Registry();
    const server = await startHealthServer({
      address: { host: '127.0.0.1', port: 0 },
      ready: () => true,
      registry,
    });
    try {
      for (const path of paths) {
        const answer = await fetchText(server.port, path);
        assert.equal(answer.status, 200, path);
        assert.equal(answer.type, registry.contentType, path);
      }
    } finally {
      await server.close();
    }
  });

  it('refuses both monitors at once, and an interval Prometheus would not parse', async () => {
    const both = await templateFailure({
      metrics: { serviceMonitor: { enabled: true }, podMonitor: { enabled: true } },
    });
    assert.match(both, /metrics\.serviceMonitor\.enabled and metrics\.podMonitor\.enabled are both true/);
    const interval = await templateFailure({
      metrics: { podMonitor: { enabled: true, interval: '30 seconds' } },
    });
    assert.match(interval, /at '\/metrics\/podMonitor\/interval': '30 seconds' does not match pattern/);
  });
});
