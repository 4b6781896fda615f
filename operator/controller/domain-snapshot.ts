// What the controller's runtime (informers, work queue) hands to one domain's reconcile, and what the
// reconcile needs from it. The runtime owns caches and scheduling; reconcile owns decisions and writes.
import type { KubeApi } from '../../dataplane/kube-client/kube-api.js';
import type { KubeObject } from '../../dataplane/kube-client/list-watch.js';
import type { Clock } from '../../dataplane/core/clock.js';
import type { Logger } from 'pino';
import type { DomainCounts } from './fleet-reports.js';

/** A graph object as read from the API: apiVersion, kind, metadata, spec and status. */
export interface ClusterObject extends KubeObject {
  kind: string;
  spec?: unknown;
  status?: Record<string, unknown>;
}

/** Everything the cache holds for one domain (namespace) at the moment its reconcile starts. */
export interface DomainSnapshot {
  domain: string;
  /** Every graph object of the namespace (all 13 kinds), as last observed. */
  objects: readonly ClusterObject[];
  /** The namespace's resource-version ConfigMaps and Secrets (label streamroute.io/resource). */
  resourceVersions: readonly KubeObject[];
  /** The DataplaneNode reports, all nodes (the roll-up picks this domain's part). */
  nodeReports: readonly ClusterObject[];
  /**
   * The domain's part of the reports as counted when they arrived (decision 0018), and the fleet's
   * report window; when set, the reconcile reads it instead of walking `nodeReports`.
   */
  nodes?: { counts: DomainCounts; reportWithinMs: number };
}

export interface ReconcileDeps {
  api: KubeApi;
  clock: Clock;
  /** Wall-clock time for condition timestamps (ISO 8601). */
  now: () => string;
  logger: Logger;
  /** The operator's namespace: where the index ConfigMap lives. */
  operatorNamespace: string;
  /** How many graph versions to keep per domain. */
  keepVersions: number;
  /**
   * True once the domain's objects changed after this reconcile started. Status writes (up to one per
   * object, at the client's rate limit) then stop early: the next reconcile publishes first and
   * rewrites them, so a change never waits behind a long run of status writes.
   */
  superseded?: () => boolean;
}

/** What a reconcile asks of the runtime afterwards. */
export interface ReconcileOutcome {
  /** Reconcile the domain again after this many ms (a transaction timeout, a roll-up delay), if set. */
  requeueAfterMs?: number;
  /** The version the pointer names after this reconcile, if any. */
  publishedVersion?: number;
}

export type ReconcileDomain = (snapshot: DomainSnapshot, deps: ReconcileDeps) => Promise<ReconcileOutcome>;
