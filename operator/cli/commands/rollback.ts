// `streamroute rollback -d DOMAIN --to N` on a cluster: pins the domain to a graph version it still
// keeps (`streamroute-graph-vN`): `pinned: "N"` in the pointer ConfigMap `streamroute-graph`, after which
// the operator points the pointer and the index at N and publishes newer versions only as history.
// `--unpin` removes the pin (decision 0015).
import { POINTER_NAME, corePath, graphConfigMapName } from '../../../dataplane/kube/contract.js';
import { isStatus } from '../../../dataplane/kube-client/kube-api.js';
import { EXIT, type Output } from '../../client/report.js';
import { apiFailureText, clusterCall, type Cluster } from '../../cluster/cluster-target.js';

export interface RollbackOptions {
  cluster: Cluster;
  to?: number;
  unpin: boolean;
}

export async function runRollback(options: RollbackOptions, output: Output): Promise<number> {
  const { namespace } = options.cluster;
  try {
    if (options.unpin) return await unpin(options.cluster, output);
    if (options.to === undefined) throw new Error('unreachable: --to or --unpin is required');
    if (!(await exists(options.cluster, graphConfigMapName(options.to)))) {
      const kept = await keptVersions(options.cluster);
      const list = kept.length === 0 ? 'none' : kept.join(', ');
      output.err(
        `streamroute: domain ${namespace} keeps no graph version ${options.to} (${graphConfigMapName(options.to)} does not exist); kept versions: ${list}`,
      );
      return EXIT.invalid;
    }
    await patchPointer(options.cluster, { pinned: String(options.to) });
    output.out(
      `pinned domain ${namespace} to graph version ${options.to}: the operator moves the pointer and the index to it (undo with rollback --unpin)`,
    );
    return EXIT.ok;
  } catch (error: unknown) {
    if (!(error instanceof Error) || error.name !== 'KubeApiError') throw error;
    if (isStatus(error, 404)) {
      output.err(
        `streamroute: domain ${namespace} has no ${POINTER_NAME} ConfigMap: the operator has not published a graph for it yet`,
      );
    } else output.err(`streamroute: the API server refused: ${apiFailureText(error)}`);
    return EXIT.invalid;
  }
}

async function unpin(cluster: Cluster, output: Output): Promise<number> {
  await patchPointer(cluster, { pinned: null });
  output.out(`unpinned domain ${cluster.namespace}: the operator activates its newest graph version again`);
  return EXIT.ok;
}

async function exists(cluster: Cluster, name: string): Promise<boolean> {
  try {
    await clusterCall(() => cluster.api.request({ path: corePath('configmaps', cluster.namespace, name) }));
    return true;
  } catch (error: unknown) {
    if (isStatus(error, 404)) return false;
    throw error;
  }
}

/** The graph versions the namespace keeps (by ConfigMap name), ascending. */
export async function keptVersions(cluster: Cluster): Promise<number[]> {
  const list = await clusterCall(() =>
    cluster.api.request<{ items?: { metadata: { name: string } }[] }>({
      path: corePath('configmaps', cluster.namespace),
    }),
  );
  const versions = (list.items ?? [])
    .map((item) => /^streamroute-graph-v([1-9][0-9]*)$/.exec(item.metadata.name)?.[1])
    .filter((version): version is string => version !== undefined)
    .map(Number);
  return [...new Set(versions)].sort((a, b) => a - b);
}

async function patchPointer(cluster: Cluster, data: Record<string, string | null>): Promise<void> {
  await clusterCall(() =>
    cluster.api.request({
      method: 'PATCH',
      path: corePath('configmaps', cluster.namespace, POINTER_NAME),
      contentType: 'application/merge-patch+json',
      body: { data },
    }),
  );
}
