// How a fan-out (cluster-subscribe.ts, live-describe.ts) finds the data-plane pods and reads one pod's
// admin API. The CLI run by a cluster admin lists pods and port-forwards to each pod's loopback
// (portForwardAccess); the operator's live API watches the pods and reaches them over the internal
// channel (internal-access.ts), so a subscription start costs the API server nothing (decision 0019).
import type { IncomingMessage } from 'node:http';
import { corePath } from '../../dataplane/kube/contract.js';
import { clusterCall, type Cluster } from './cluster-target.js';
import { podAdminGet, reachable, type Pod, type PodGet } from './pod-admin.js';

export const DATAPLANE_SELECTOR = 'app.kubernetes.io/name=streamroute,app.kubernetes.io/component=dataplane';

/** A data-plane pod, with the node it runs on. */
export type DataplanePod = Pod & { spec?: { nodeName?: string } };

export interface PodAccess {
  /** The running data-plane pods, in name order; rejects when they cannot be listed. */
  pods(): Promise<DataplanePod[]>;
  /** A GET on a pod's admin API (any status); rejects when the pod cannot be reached. */
  get(pod: Pod, path: string, accept: string, signal?: AbortSignal): Promise<IncomingMessage>;
}

/** Pods listed through the API server, each read through a port-forward with the cluster's credentials. */
export function portForwardAccess(
  cluster: Cluster,
  operatorNamespace: string,
  forward?: Pick<PodGet, 'connection' | 'hooks'>,
): PodAccess {
  return {
    async pods() {
      const list = await clusterCall(() =>
        cluster.api.request<{ items?: DataplanePod[] }>({
          path: corePath('pods', operatorNamespace),
          query: { labelSelector: DATAPLANE_SELECTOR },
        }),
      );
      return runningInOrder(list.items ?? []);
    },
    get: (pod, path, accept, signal) =>
      podAdminGet({
        cluster,
        namespace: operatorNamespace,
        pod,
        path,
        accept,
        ...(signal === undefined ? {} : { signal }),
        ...forward,
      }),
  };
}

export function runningInOrder(pods: Iterable<DataplanePod>): DataplanePod[] {
  return [...pods].filter(reachable).sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}
