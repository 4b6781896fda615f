// The Helm chart (charts/streamroute) with a real helm built from Go modules: it lints strictly, and
// what `helm template` renders holds the contract — two operator replicas, the data plane on the host
// network or behind a node-local Service, hardened containers, and exactly the RBAC table of
// docs/decisions/0015-kubernetes-objects.md.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GRAPH_KINDS } from '../../operator/api/index.js';
import { buildProgram } from '../../operator/cli/program.js';
import { INDEX_NAME } from '../../dataplane/kube/contract.js';
import {
  CHART_DIR,
  DEFAULT_NAMESPACE,
  renderChart,
  requireHelmOrSkip,
  runHelm,
  type RenderedObject,
} from '../support/helm.js';

const GRAPH_PLURALS = GRAPH_KINDS.map((kind) => kind.plural);
const STATUS_PLURALS = GRAPH_PLURALS.map((plural) => `${plural}/status`);

// ---- the RBAC table, one row per rule ------------------------------------------------------------

interface RbacRow {
  /** `<kind>/<name>` of the role in a release named `streamroute`. */
  role: string;
  apiGroup: string;
  resources: readonly string[];
  verbs: readonly string[];
  resourceNames?: readonly string[];
}

const RBAC_TABLE: readonly RbacRow[] = [
  // operator (ClusterRole)
  {
    role: 'ClusterRole/streamroute-operator',
    apiGroup: 'streamroute.io',
    resources: GRAPH_PLURALS,
    verbs: ['get', 'list', 'watch'],
  },
  {
    role: 'ClusterRole/streamroute-operator',
    apiGroup: 'streamroute.io',
    resources: STATUS_PLURALS,
    verbs: ['patch'],
  },
  {
    role: 'ClusterRole/streamroute-operator',
    apiGroup: 'streamroute.io',
    resources: ['dataplanenodes'],
    verbs: ['list', 'watch'],
  },
  {
    role: 'ClusterRole/streamroute-operator',
    apiGroup: '',
    resources: ['configmaps'],
    verbs: ['get', 'list', 'watch', 'create', 'update', 'delete'],
  },
  {
    role: 'ClusterRole/streamroute-operator',
    apiGroup: '',
    resources: ['secrets'],
    verbs: ['list', 'watch'],
  },
  {
    role: 'ClusterRole/streamroute-operator',
    apiGroup: '',
    resources: ['events'],
    verbs: ['create'],
  },
  // operator (Role, own namespace)
  {
    role: 'Role/streamroute-operator',
    apiGroup: 'coordination.k8s.io',
    resources: ['leases'],
    verbs: ['get', 'create', 'update'],
  },
  // the live API's fan-out to the data-plane pods (decision 0019)
  { role: 'Role/streamroute-operator', apiGroup: '', resources: ['pods'], verbs: ['list', 'watch'] },
  // readers of the live API (ClusterRole, aggregated to view, edit and admin)
  {
    role: 'ClusterRole/streamroute-live-reader',
    apiGroup: 'live.streamroute.io',
    resources: ['relays/log'],
    verbs: ['get'],
  },
  {
    role: 'ClusterRole/streamroute-live-reader',
    apiGroup: 'live.streamroute.io',
    resources: [
      'httpingestors/describe',
      'syslogingestors/describe',
      'topicingestors/describe',
      'emitters/describe',
    ],
    verbs: ['get'],
  },
  // data plane (ClusterRole)
  { role: 'ClusterRole/streamroute-dataplane', apiGroup: '', resources: ['configmaps'], verbs: ['get'] },
  { role: 'ClusterRole/streamroute-dataplane', apiGroup: '', resources: ['secrets'], verbs: ['get'] },
  {
    role: 'ClusterRole/streamroute-dataplane',
    apiGroup: 'streamroute.io',
    resources: ['dataplanenodes'],
    verbs: ['create'],
  },
  {
    role: 'ClusterRole/streamroute-dataplane',
    apiGroup: 'streamroute.io',
    resources: ['dataplanenodes/status'],
    verbs: ['patch'],
  },
  // data plane (Role, own namespace): only the index
  {
    role: 'Role/streamroute-dataplane',
    apiGroup: '',
    resources: ['configmaps'],
    resourceNames: [INDEX_NAME],
    verbs: ['list', 'watch'],
  },
  // CLI users (ClusterRole, aggregated to `edit`)
  {
    role: 'ClusterRole/streamroute-editor',
    apiGroup: 'streamroute.io',
    resources: GRAPH_PLURALS,
    verbs: ['get', 'list', 'create', 'patch', 'delete'],
  },
  {
    role: 'ClusterRole/streamroute-editor',
    apiGroup: '',
    resources: ['configmaps'],
    verbs: ['create', 'get', 'list', 'patch'],
  },
  {
    role: 'ClusterRole/streamroute-editor',
    apiGroup: '',
    resources: ['secrets'],
    verbs: ['create', 'list'],
  },
  // (pods list and pods/portforward only with live.enabled=false: the CLI's port-forwards)
  // the post-delete hook (Role in the release namespace, ClusterRole for the node reports)
  { role: 'Role/streamroute-uninstall-cleanup', apiGroup: '', resources: ['pods'], verbs: ['list'] },
  {
    role: 'Role/streamroute-uninstall-cleanup',
    apiGroup: '',
    resources: ['configmaps'],
    verbs: ['delete'],
    resourceNames: ['streamroute-index'],
  },
  {
    role: 'Role/streamroute-uninstall-cleanup',
    apiGroup: 'coordination.k8s.io',
    resources: ['leases'],
    verbs: ['delete'],
    resourceNames: ['streamroute-operator'],
  },
  {
    role: 'ClusterRole/streamroute-uninstall-cleanup',
    apiGroup: 'streamroute.io',
    resources: ['dataplanenodes'],
    verbs: ['list', 'delete'],
  },
];

interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** Every (role, group, resource, name, verb) a set of rules grants, one string each, sorted. */
function permissions(role: string, rules: readonly PolicyRule[]): string[] {
  const granted: string[] = [];
  for (const rule of rules) {
    assert.equal(rule.nonResourceURLs, undefined, `${role}: nonResourceURLs`);
    for (const group of rule.apiGroups ?? [])
      for (const resource of rule.resources ?? [])
        for (const name of rule.resourceNames ?? ['*'])
          for (const verb of rule.verbs ?? []) granted.push(`${role} ${group}/${resource}[${name}] ${verb}`);
  }
  return granted.sort();
}

function tablePermissions(role: string): string[] {
  const rows = RBAC_TABLE.filter((row) => row.role === role);
  return permissions(
    role,
    rows.map((row) => ({
      apiGroups: [row.apiGroup],
      resources: [...row.resources],
      verbs: [...row.verbs],
      ...(row.resourceNames ? { resourceNames: [...row.resourceNames] } : {}),
    })),
  );
}

// ---- rendered objects ----------------------------------------------------------------------------

interface Probe {
  httpGet?: { host?: string; path: string; port: string | number };
  periodSeconds?: number;
  failureThreshold?: number;
}
interface Container {
  name: string;
  args?: string[];
  env?: { name: string }[];
  command?: string[];
  securityContext?: {
    runAsNonRoot?: boolean;
    runAsUser?: number;
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    privileged?: boolean;
    capabilities?: { drop?: string[]; add?: string[] };
    seccompProfile?: { type: string };
  };
  startupProbe?: Probe;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  ports?: { name: string; containerPort: number; protocol: string }[];
}
interface PodSpec {
  hostNetwork?: boolean;
  dnsPolicy?: string;
  serviceAccountName?: string;
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; seccompProfile?: { type: string } };
  containers: Container[];
  initContainers?: Container[];
  volumes?: { name: string; emptyDir?: object }[];
}
interface Workload extends RenderedObject {
  spec: {
    replicas?: number;
    updateStrategy?: { type: string; rollingUpdate?: { maxUnavailable?: number | string } };
    template: { spec: PodSpec };
  };
}

interface Binding extends RenderedObject {
  roleRef: { kind: string; name: string };
  subjects: { kind: string; name: string; namespace: string }[];
}
interface Service extends RenderedObject {
  spec: { internalTrafficPolicy: string; ports: { name: string; port: number; protocol: string }[] };
}

function find(objects: readonly RenderedObject[], kind: string, name: string): RenderedObject | undefined {
  return objects.find((object) => object.kind === kind && object.metadata.name === name);
}
function get<T extends RenderedObject>(objects: readonly RenderedObject[], kind: string, name: string): T {
  const object = find(objects, kind, name);
  assert.ok(object, `${kind}/${name} is not rendered`);
  return object as T;
}
const operatorDeployment = (objects: readonly RenderedObject[]) =>
  get<Workload>(objects, 'Deployment', 'streamroute-operator');
const dataplaneDaemonSet = (objects: readonly RenderedObject[]) =>
  get<Workload>(objects, 'DaemonSet', 'streamroute-dataplane');
const firstContainer = (workload: Workload): Container => workload.spec.template.spec.containers[0]!;

const SYSLOG_514 = { dataplane: { syslogPorts: [{ name: 'syslog-udp', port: 514, protocol: 'UDP' }] } };
const NO_HOST_NETWORK = { dataplane: { hostNetwork: false } };

describe('Helm chart charts/streamroute (real helm)', function () {
  this.timeout(60_000);

  before(async function () {
    await requireHelmOrSkip(this);
  });

  it('ships the same CRDs in its crds/ as the repository (generated by operator/tools/generate-crds.ts)', () => {
    const repository = join(CHART_DIR, '..', '..', 'crds');
    const chart = join(CHART_DIR, 'crds');
    const files = readdirSync(repository).sort();
    assert.deepEqual(readdirSync(chart).sort(), files);
    for (const file of files)
      assert.equal(
        readFileSync(join(chart, file), 'utf8'),
        readFileSync(join(repository, file), 'utf8'),
        file,
      );
  });

  describe('helm lint --strict', () => {
    const cases: [string, Record<string, unknown>][] = [
      ['default values', {}],
      ['hostNetwork=false', NO_HOST_NETWORK],
      [
        'hostNetwork=false with a syslog port 514',
        { dataplane: { ...NO_HOST_NETWORK.dataplane, ...SYSLOG_514.dataplane } },
      ],
      ['networkPolicy.enabled=true', { networkPolicy: { enabled: true } }],
    ];
    for (const [title, values] of cases) {
      it(`passes with ${title}`, async () => {
        const { stdout } = await runHelm(['lint', '--strict', CHART_DIR], values);
        assert.match(stdout, /1 chart\(s\) linted, 0 chart\(s\) failed/);
        assert.doesNotMatch(stdout, /\[(WARNING|ERROR)\]/);
      });
    }
  });

  it('rejects a syslog port outside the values schema (values.schema.json)', async () => {
    const values = { dataplane: { syslogPorts: [{ name: 'syslog', port: 70000, protocol: 'SCTP' }] } };
    const failure = await runHelm(['lint', '--strict', CHART_DIR], values).then(
      () => assert.fail('helm lint accepted port 70000/SCTP'),
      (error: unknown) => String((error as { stdout?: string }).stdout),
    );
    assert.match(failure, /syslogPorts\/0\/port/);
    assert.match(failure, /syslogPorts\/0\/protocol/);
  });

  describe('with default values', () => {
    let objects: RenderedObject[];
    before(async () => {
      objects = await renderChart();
    });

    it('passes only flags the streamroute CLI knows to the operator and the data plane', () => {
      const program = buildProgram({ out: () => {}, err: () => {} }, () => {});
      for (const workload of [operatorDeployment(objects), dataplaneDaemonSet(objects)]) {
        const [command, ...args] = firstContainer(workload).args ?? [];
        const known = program.commands.find((each) => each.name() === command);
        assert.ok(known !== undefined, `the CLI has no command ${String(command)}`);
        const flags = new Set(known.options.map((option) => option.long));
        for (const flag of args.filter((arg) => arg.startsWith('--'))) {
          assert.ok(flags.has(flag), `streamroute ${String(command)} has no ${flag}`);
        }
      }
    });

    it('runs two operator replicas with the contract arguments and a PodDisruptionBudget of 1', () => {
      const deployment = operatorDeployment(objects);
      assert.equal(deployment.spec.replicas, 2);
      const container = firstContainer(deployment);
      assert.equal(container.command, undefined, 'the image entrypoint is the streamroute CLI');
      assert.deepEqual(container.args, [
        'operator',
        '--namespace',
        '$(POD_NAMESPACE)',
        '--leader-elect',
        '--keep-versions',
        '10',
        '--health-listen-addr',
        '0.0.0.0:8082',
        '--live-listen-addr',
        '0.0.0.0:9443',
        '--live-tls-cert-file',
        '/etc/streamroute/live-tls/tls.crt',
        '--live-tls-key-file',
        '/etc/streamroute/live-tls/tls.key',
        '--internal-ca-file',
        '/etc/streamroute/internal-tls/ca.crt',
        '--internal-client-cert-file',
        '/etc/streamroute/internal-tls/tls.crt',
        '--internal-client-key-file',
        '/etc/streamroute/internal-tls/tls.key',
        '--log-level',
        'info',
        '--log-format',
        'json',
      ]);
      assert.deepEqual(container.livenessProbe?.httpGet, { path: '/healthz', port: 'health' });
      assert.deepEqual(container.readinessProbe?.httpGet, { path: '/readyz', port: 'health' });
      assert.deepEqual(container.ports, [
        { name: 'health', containerPort: 8082, protocol: 'TCP' },
        { name: 'live', containerPort: 9443, protocol: 'TCP' },
      ]);
      type Pdb = RenderedObject & { spec: { minAvailable: number } };
      const pdb = get<Pdb>(objects, 'PodDisruptionBudget', 'streamroute-operator');
      assert.equal(pdb.spec.minAvailable, 1);
    });

    it('runs the data plane on the host network, with no Service', () => {
      const daemonSet = dataplaneDaemonSet(objects);
      const pod = daemonSet.spec.template.spec;
      assert.equal(pod.hostNetwork, true);
      assert.equal(pod.dnsPolicy, 'ClusterFirstWithHostNet');
      assert.equal(pod.terminationGracePeriodSeconds, 30);
      assert.equal(daemonSet.spec.updateStrategy?.type, 'RollingUpdate');
      assert.equal(daemonSet.spec.updateStrategy?.rollingUpdate?.maxUnavailable, 1);
      assert.deepEqual(firstContainer(daemonSet).args, [
        'dataplane',
        '--node-name',
        '$(NODE_NAME)',
        '--operator-namespace',
        '$(POD_NAMESPACE)',
        '--http-listen-addr',
        '0.0.0.0:8080',
        '--https-listen-addr',
        '0.0.0.0:8443',
        '--admin-listen-addr',
        '127.0.0.1:8081',
        '--internal-listen-addr',
        '0.0.0.0:9444',
        '--internal-tls-cert-file',
        '/etc/streamroute/internal-tls/tls.crt',
        '--internal-tls-key-file',
        '/etc/streamroute/internal-tls/tls.key',
        '--internal-client-ca-file',
        '/etc/streamroute/internal-tls/ca.crt',
        '--health-listen-addr',
        '0.0.0.0:8090',
        '--log-level',
        'info',
        '--log-format',
        'json',
      ]);
      // The startup probe holds the liveness probe off while the first sync (at 1 QPS) runs: 5 minutes.
      assert.deepEqual(firstContainer(daemonSet).startupProbe, {
        httpGet: { path: '/healthz', port: 'health' },
        periodSeconds: 1,
        failureThreshold: 300,
      });
      assert.deepEqual(firstContainer(daemonSet).livenessProbe?.httpGet, {
        path: '/healthz',
        port: 'health',
      });
      assert.deepEqual(firstContainer(daemonSet).readinessProbe?.httpGet, {
        path: '/readyz',
        port: 'health',
      });
      assert.deepEqual(
        firstContainer(daemonSet).ports?.map((port) => [port.name, port.containerPort]),
        [
          ['http', 8080],
          ['https', 8443],
          ['admin', 8081],
          ['health', 8090],
          ['internal', 9444],
        ],
      );
      assert.ok(
        !(firstContainer(daemonSet).env ?? []).some((variable) => variable.name === 'POD_IP'),
        'nothing binds the pod IP any more',
      );
      assert.ok(pod.volumes?.some((volume) => volume.name === 'tmp' && volume.emptyDir));
      // the only Service is the live API's, on the operator pods
      assert.deepEqual(
        objects.filter((object) => object.kind === 'Service').map((object) => object.metadata.name),
        ['streamroute-live'],
      );
    });

    it('adds no NET_BIND_SERVICE when every port is 1024 or above', () => {
      const capabilities = firstContainer(dataplaneDaemonSet(objects)).securityContext?.capabilities;
      assert.deepEqual(capabilities, { drop: ['ALL'] });
    });

    it('puts the operator and the data plane in the release namespace, with their own ServiceAccounts', () => {
      for (const object of objects) {
        if (object.kind.startsWith('Cluster') || object.kind === 'APIService')
          assert.equal(object.metadata.namespace, undefined, object.kind);
        // the one object elsewhere: the live API may read the API server's front-proxy CA there
        else if (object.metadata.name === 'streamroute-operator-extension-auth-reader')
          assert.equal(object.metadata.namespace, 'kube-system');
        else
          assert.equal(
            object.metadata.namespace,
            DEFAULT_NAMESPACE,
            `${object.kind}/${object.metadata.name}`,
          );
      }
      assert.equal(operatorDeployment(objects).spec.template.spec.serviceAccountName, 'streamroute-operator');
      assert.equal(
        dataplaneDaemonSet(objects).spec.template.spec.serviceAccountName,
        'streamroute-dataplane',
      );
      get(objects, 'ServiceAccount', 'streamroute-operator');
      get(objects, 'ServiceAccount', 'streamroute-dataplane');
    });

    it('labels every object with name, instance, version, managed-by and component', () => {
      for (const object of objects) {
        const labels = object.metadata.labels ?? {};
        for (const key of ['name', 'instance', 'version', 'managed-by', 'component'])
          assert.ok(labels[`app.kubernetes.io/${key}`], `${object.kind}/${object.metadata.name}: ${key}`);
      }
    });

    for (const role of [...new Set(RBAC_TABLE.map((row) => row.role))]) {
      it(`${role} grants exactly its rows of the RBAC table`, () => {
        const [kind, name] = role.split('/') as [string, string];
        const object = get<RenderedObject & { rules?: PolicyRule[] }>(objects, kind, name);
        assert.deepEqual(permissions(role, object.rules ?? []), tablePermissions(role));
      });
    }

    it('renders no other role, and binds each role to its own ServiceAccount', () => {
      const roles = objects
        .filter((object) => object.kind === 'ClusterRole' || object.kind === 'Role')
        .map((object) => `${object.kind}/${object.metadata.name}`)
        .sort();
      assert.deepEqual(roles, [...new Set(RBAC_TABLE.map((row) => row.role))].sort());
      for (const who of ['operator', 'dataplane']) {
        for (const kind of ['ClusterRoleBinding', 'RoleBinding']) {
          const binding = get<Binding>(objects, kind, `streamroute-${who}`);
          assert.deepEqual(binding.roleRef, {
            apiGroup: 'rbac.authorization.k8s.io',
            kind: kind.replace('Binding', ''),
            name: `streamroute-${who}`,
          });
          assert.deepEqual(binding.subjects, [
            { kind: 'ServiceAccount', name: `streamroute-${who}`, namespace: DEFAULT_NAMESPACE },
          ]);
        }
      }
      assert.equal(
        find(objects, 'ClusterRole', 'streamroute-editor')?.metadata.labels?.[
          'rbac.authorization.k8s.io/aggregate-to-edit'
        ],
        'true',
      );
    });
  });

  describe('with hostNetwork=false', () => {
    let objects: RenderedObject[];
    before(async () => {
      objects = await renderChart({ dataplane: { ...NO_HOST_NETWORK.dataplane, ...SYSLOG_514.dataplane } });
    });

    it('exposes HTTP and the syslog ports through a Service with internalTrafficPolicy Local', () => {
      assert.equal(dataplaneDaemonSet(objects).spec.template.spec.hostNetwork, false);
      const service = get<Service>(objects, 'Service', 'streamroute-dataplane');
      assert.equal(service.spec.internalTrafficPolicy, 'Local');
      const ports = service.spec.ports.map(({ name, port, protocol }) => ({ name, port, protocol }));
      assert.deepEqual(ports, [
        { name: 'http', port: 8080, protocol: 'TCP' },
        { name: 'https', port: 8443, protocol: 'TCP' },
        { name: 'syslog-udp', port: 514, protocol: 'UDP' },
      ]);
    });

    it('renders no NetworkPolicy unless asked', () => {
      assert.ok(!objects.some((object) => object.kind === 'NetworkPolicy'));
    });

    it('with networkPolicy.enabled, lets in the listener ports, and the internal port only from the operator', async () => {
      type Policy = RenderedObject & {
        spec: {
          podSelector: { matchLabels: Record<string, string> };
          ingress: { from?: { podSelector: { matchLabels: Record<string, string> } }[]; ports: object[] }[];
        };
      };
      const values = {
        dataplane: { ...NO_HOST_NETWORK.dataplane, ...SYSLOG_514.dataplane },
        networkPolicy: { enabled: true },
      };
      const rendered = await renderChart(values);
      const dataplane = get<Policy>(rendered, 'NetworkPolicy', 'streamroute-dataplane');
      assert.equal(dataplane.spec.podSelector.matchLabels['app.kubernetes.io/component'], 'dataplane');
      assert.deepEqual(dataplane.spec.ingress, [
        {
          ports: [
            { port: 8080, protocol: 'TCP' },
            { port: 8443, protocol: 'TCP' },
            { port: 8090, protocol: 'TCP' },
            { port: 514, protocol: 'UDP' },
          ],
        },
        {
          from: [
            {
              podSelector: {
                matchLabels: {
                  'app.kubernetes.io/name': 'streamroute',
                  'app.kubernetes.io/instance': 'streamroute',
                  'app.kubernetes.io/component': 'operator',
                },
              },
            },
          ],
          ports: [{ port: 9444, protocol: 'TCP' }],
        },
      ]);
      const operator = get<Policy>(rendered, 'NetworkPolicy', 'streamroute-operator');
      assert.deepEqual(operator.spec.ingress, [
        {
          ports: [
            { port: 8082, protocol: 'TCP' },
            { port: 9443, protocol: 'TCP' },
          ],
        },
      ]);
    });
  });

  it('adds NET_BIND_SERVICE (and nothing else) when a syslog port 514 is configured', async () => {
    const objects = await renderChart(SYSLOG_514);
    const container = firstContainer(dataplaneDaemonSet(objects));
    assert.deepEqual(container.securityContext?.capabilities, { drop: ['ALL'], add: ['NET_BIND_SERVICE'] });
    assert.ok(container.ports?.some((port) => port.containerPort === 514 && port.protocol === 'UDP'));
    // The operator binds no low port.
    assert.deepEqual(firstContainer(operatorDeployment(objects)).securityContext?.capabilities, {
      drop: ['ALL'],
    });
  });

  for (const [title, values] of [
    ['on the host network', {}],
    ['with hostNetwork=false', NO_HOST_NETWORK],
  ] as const) {
    it(`binds the records API to 127.0.0.1 and probes the health port ${title}`, async () => {
      const dataplane = { ...values.dataplane, adminPort: 9091, healthPort: 9092 };
      const container = firstContainer(dataplaneDaemonSet(await renderChart({ dataplane })));
      const args = container.args ?? [];
      const at = args.indexOf('--admin-listen-addr');
      assert.deepEqual(args.slice(at, at + 2), ['--admin-listen-addr', '127.0.0.1:9091']);
      const health = args.indexOf('--health-listen-addr');
      assert.deepEqual(args.slice(health, health + 2), ['--health-listen-addr', '0.0.0.0:9092']);
      for (const probe of [container.startupProbe, container.livenessProbe, container.readinessProbe]) {
        assert.equal(probe?.httpGet?.port, 'health');
        assert.equal(probe?.httpGet?.host, undefined);
      }
      assert.ok(container.ports?.some((port) => port.name === 'health' && port.containerPort === 9092));
    });
  }

  it('no longer takes adminBind (the admin API never binds the pod IP)', async () => {
    const failure = await runHelm(['lint', '--strict', CHART_DIR], {
      dataplane: { adminBind: 'podIP' },
    }).then(
      () => assert.fail('helm lint accepted adminBind=podIP'),
      (error: unknown) => String((error as { stdout?: string }).stdout),
    );
    assert.match(failure, /adminBind/);
  });

  it('rejects a healthPort out of range', async () => {
    const failure = await runHelm(['lint', '--strict', CHART_DIR], { dataplane: { healthPort: 70000 } }).then(
      () => assert.fail('helm lint accepted healthPort=70000'),
      (error: unknown) => String((error as { stdout?: string }).stdout),
    );
    assert.match(failure, /healthPort/);
  });

  it('takes the startup probe period and failure threshold from values', async () => {
    const values = { dataplane: { startupProbe: { periodSeconds: 10, failureThreshold: 90 } } };
    const probe = firstContainer(dataplaneDaemonSet(await renderChart(values))).startupProbe;
    assert.equal(probe?.periodSeconds, 10);
    assert.equal(probe?.failureThreshold, 90);
  });

  it('passes --watch-namespaces and --keep-versions from values', async () => {
    const objects = await renderChart({ operator: { watchNamespaces: ['a', 'b'], keepVersions: 3 } });
    const args = firstContainer(operatorDeployment(objects)).args ?? [];
    assert.deepEqual(args.slice(args.indexOf('--keep-versions'), args.indexOf('--keep-versions') + 2), [
      '--keep-versions',
      '3',
    ]);
    assert.deepEqual(args.slice(args.indexOf('--watch-namespaces'), args.indexOf('--watch-namespaces') + 2), [
      '--watch-namespaces',
      'a,b',
    ]);
  });

  const VARIANTS: [string, Record<string, unknown>][] = [
    ['default values', {}],
    [
      'hostNetwork=false and syslog 514',
      { dataplane: { ...NO_HOST_NETWORK.dataplane, ...SYSLOG_514.dataplane } },
    ],
  ];
  for (const [title, values] of VARIANTS) {
    it(`runs every container non-root, read-only, without privilege escalation and capabilities (${title})`, async () => {
      const workloads = (await renderChart(values)).filter((o) =>
        ['Deployment', 'DaemonSet'].includes(o.kind),
      );
      assert.equal(workloads.length, 2);
      for (const workload of workloads as Workload[]) {
        const pod = workload.spec.template.spec;
        assert.equal(pod.securityContext?.runAsNonRoot, true, workload.kind);
        assert.equal(pod.securityContext?.seccompProfile?.type, 'RuntimeDefault', workload.kind);
        for (const container of [...pod.containers, ...(pod.initContainers ?? [])]) {
          const where = `${workload.kind} ${container.name}`;
          const context = container.securityContext;
          assert.equal(context?.runAsNonRoot, true, where);
          assert.equal(context?.runAsUser, 65532, where);
          assert.equal(context?.readOnlyRootFilesystem, true, where);
          assert.equal(context?.allowPrivilegeEscalation, false, where);
          assert.notEqual(context?.privileged, true, where);
          assert.deepEqual(context?.capabilities?.drop, ['ALL'], where);
          assert.deepEqual(
            context?.capabilities?.add ?? [],
            title.includes('514') && workload.kind === 'DaemonSet' ? ['NET_BIND_SERVICE'] : [],
            where,
          );
          assert.equal(context?.seccompProfile?.type, 'RuntimeDefault', where);
        }
      }
    });

    it(`holds no key material in a Secret or ConfigMap (${title})`, async () => {
      const objects = await renderChart(values);
      const stores = objects.filter((object) => object.kind === 'Secret' || object.kind === 'ConfigMap');
      for (const store of stores) {
        const text = JSON.stringify([store['data'], store['stringData'], store['binaryData']]);
        assert.doesNotMatch(text, /-----BEGIN [A-Z ]*(PRIVATE KEY|CERTIFICATE)-----/, store.metadata.name);
        assert.doesNotMatch(text, /MII[A-Za-z0-9+/]{20}/, `${store.metadata.name}: base64 DER`);
      }
      assert.doesNotMatch(JSON.stringify(objects), /PRIVATE KEY/);
    });
  }
});
