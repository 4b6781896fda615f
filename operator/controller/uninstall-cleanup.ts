// What `helm uninstall` cannot remove because Helm did not create it: the objects the operator and the data
// plane wrote at run time in the cluster — the index ConfigMap and the leader Lease in the operator's
// namespace, and one DataplaneNode per node (cluster-scoped). The chart's post-delete hook runs this
// (`streamroute uninstall-cleanup`) once the release's pods are gone, so nothing writes them back.
//
// Kept on purpose: the CRDs (as Helm keeps them), the graph resources users declared, and the graph-version
// and resource-version ConfigMaps in their namespaces — they belong to those graphs, and an operator
// installed again serves them from there.
import type { Logger } from 'pino';
import {
  corePath,
  customPath,
  DATAPLANE_NODE_PLURAL,
  INDEX_NAME,
  LEASE_NAME,
} from '../../dataplane/kube/contract.js';
import { isStatus, type KubeApi } from '../../dataplane/kube-client/kube-api.js';
import type { Clock } from '../../dataplane/core/clock.js';

export interface UninstallCleanupOptions {
  api: KubeApi;
  /** The operator's namespace (the release's). */
  namespace: string;
  /** Selects the release's operator and data-plane pods. */
  podSelector: string;
  logger: Logger;
  clock: Clock;
  /** How long to wait for the pods to be gone before cleaning up anyway (default 120 s). */
  podsGoneTimeoutMs?: number;
}

export interface UninstallCleanupResult {
  /** Pods still there when the wait gave up (0 when they all went). */
  podsLeft: number;
  deleted: string[];
}

export async function cleanUpAfterUninstall(
  options: UninstallCleanupOptions,
): Promise<UninstallCleanupResult> {
  const podsLeft = await waitForPodsGone(options);
  const { api, namespace } = options;
  const targets = [
    { what: `ConfigMap ${namespace}/${INDEX_NAME}`, path: corePath('configmaps', namespace, INDEX_NAME) },
    {
      what: `Lease ${namespace}/${LEASE_NAME}`,
      path: `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/leases/${LEASE_NAME}`,
    },
  ];
  const nodes = await api.request<{ items?: { metadata: { name: string } }[] | null }>({
    path: customPath(DATAPLANE_NODE_PLURAL),
  });
  for (const node of nodes.items ?? []) {
    targets.push({
      what: `DataplaneNode ${node.metadata.name}`,
      path: customPath(DATAPLANE_NODE_PLURAL, undefined, node.metadata.name),
    });
  }
  const deleted: string[] = [];
  for (const target of targets) {
    if (await deleteIfPresent(api, target.path)) deleted.push(target.what);
  }
  options.logger.info(
    { event: 'uninstall_cleanup', deleted, podsLeft },
    'removed what the release wrote at run time',
  );
  return { podsLeft, deleted };
}

/** Polls every second until no pod matches; the number left when the timeout passes. */
async function waitForPodsGone(options: UninstallCleanupOptions): Promise<number> {
  const { api, namespace, podSelector, logger, clock } = options;
  const deadline = clock.now() + (options.podsGoneTimeoutMs ?? 120_000);
  for (;;) {
    const pods = await api.request<{ items?: unknown[] | null }>({
      path: corePath('pods', namespace),
      query: { labelSelector: podSelector },
    });
    const left = pods.items?.length ?? 0;
    if (left === 0) return 0;
    if (clock.now() >= deadline) {
      logger.warn(
        { event: 'uninstall_cleanup_pods_left', pods: left, selector: podSelector },
        'release pods are still there; cleaning up anyway (they may write their objects again)',
      );
      return left;
    }
    await new Promise((resolve) => clock.setTimeout(() => resolve(undefined), 1_000));
  }
}

/** DELETE; false when the object was not there. */
async function deleteIfPresent(api: KubeApi, path: string): Promise<boolean> {
  try {
    await api.request({ method: 'DELETE', path });
    return true;
  } catch (error: unknown) {
    if (isStatus(error, 404)) return false;
    throw error;
  }
}
