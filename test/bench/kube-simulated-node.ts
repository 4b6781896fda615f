// A light node for the scale benchmark: the data plane's own index watch, graph sync and node reporter
// (dataplane/kube), with the data plane itself replaced by a target that accepts every graph and a
// describe that reports every component Running. It speaks exactly the protocol a DaemonSet pod speaks to
// the API server — one watch, immutable reads, rate-limited report writes — at a fraction of the cost.
import { pino } from 'pino';
import type { ComponentDescription, DescribedKind } from '../../dataplane/core/status.js';
import { GraphSync } from '../../dataplane/kube/graph-sync.js';
import { watchIndex } from '../../dataplane/kube/index-watch.js';
import { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import { NodeReporter } from '../../dataplane/kube/node-reporter.js';
import { ResourceCache } from '../../dataplane/kube/resource-versions.js';
import { systemClock } from '../../dataplane/core/clock.js';

const silent = pino({ level: 'silent' });
const now = (): string => new Date().toISOString();

export interface SimulatedNode {
  name: string;
  api: KubeApi;
  reporter: NodeReporter;
  sync: GraphSync;
  /** When the node's report first said it runs each version of the domain (ms, Date.now()). */
  reportedAt: Map<number, number>;
  /** When the node applied each version (ms, Date.now()): what pointer → applied measures. */
  appliedAt: Map<number, number>;
  stop(): Promise<void>;
}

function running(domain: string, kind: DescribedKind, name: string): ComponentDescription {
  return {
    domain,
    kind: kind === 'emitter' ? 'emitter' : 'http-ingestor',
    name,
    graphVersion: 0,
    state: 'Running',
    transientError: null,
    backoffMs: null,
    metrics: {},
    details: {},
  };
}

/**
 * How a node reaches the API server: a kubeconfig, or as a pod does — the service account (token and CA
 * files) and KUBERNETES_SERVICE_HOST/PORT. The pod's way shares Node's keep-alive pool; a kubeconfig goes
 * through client-node, which makes an agent (a TLS handshake) per request and costs a parse per node.
 */
export type NodeConnection = string | { env: Record<string, string>; serviceAccountDir: string };

export function startSimulatedNode(
  name: string,
  connection: NodeConnection,
  operatorNamespace: string,
): SimulatedNode {
  const api = new KubeApi({
    ...(typeof connection === 'string' ? { kubeconfig: connection } : connection),
    rateLimit: { qps: 1, burst: 5 },
    userAgent: `streamroute-bench-node/${name}`,
  });
  const reportedAt = new Map<number, number>();
  const appliedAt = new Map<number, number>();
  const sync: GraphSync = new GraphSync({
    api,
    target: {
      apply: (_graph, version) => {
        if (!appliedAt.has(version)) appliedAt.set(version, Date.now());
        return Promise.resolve({
          ok: true,
          domain: '',
          version,
          changes: { added: [], changed: [], removed: [], unchanged: [] },
          warnings: [],
        });
      },
      removeDomain: () => Promise.resolve(),
    },
    cache: new ResourceCache(),
    logger: silent,
    clock: systemClock,
    now,
    onApplied: () => reporter.graphApplied(),
    onChange: () => reporter.changed(),
  });
  const reporter: NodeReporter = new NodeReporter({
    api: {
      request: async <T>(spec: Parameters<KubeApi['request']>[0]): Promise<T> => {
        const answer = await api.request<T>(spec);
        if (spec.method === 'PATCH') {
          for (const { graphVersion } of sync.states()) {
            if (!reportedAt.has(graphVersion)) reportedAt.set(graphVersion, Date.now());
          }
        }
        return answer;
      },
    },
    nodeName: name,
    describe: (domain, kind, component) => Promise.resolve(running(domain, kind, component)),
    sync,
    logger: silent,
    clock: systemClock,
    random: Math.random,
    now,
  });
  // As dataplane/kube/main.ts: the first index is applied before the reporter starts, so a node's first
  // report already names what it runs.
  let reporting = false;
  const watch = watchIndex(api, {
    namespace: operatorNamespace,
    logger: silent,
    clock: systemClock,
    onIndex: (index) => {
      const synced = sync.update(index);
      if (reporting) return;
      reporting = true;
      void synced.then(() => reporter.start());
    },
  });
  return {
    name,
    api,
    reporter,
    sync,
    reportedAt,
    appliedAt,
    stop: async () => {
      watch.abort();
      await watch.done;
      await sync.stop();
      await reporter.stop();
    },
  };
}
