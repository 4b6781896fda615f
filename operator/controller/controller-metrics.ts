// The controller's families on the operator's /metrics: reconciles and their time, the work queue, the
// lease and the cache. Declared as MetricSpecs like the node's (decision 0024), so docs/metrics.md is
// written from them. The gauges read the controller when prom-client collects.
import { Histogram, type Counter, type Registry } from 'prom-client';
import {
  counterOf,
  counterSpec,
  gaugeOf,
  gaugeSpec,
  type MetricSpec,
} from '../../dataplane/core/metric-spec.js';

export const CONTROLLER_METRICS = {
  reconciles: counterSpec(
    'streamroute_operator_reconciles_total',
    'Domain reconciles, by result (success, error).',
    ['result'],
  ),
  reconcileDuration: {
    name: 'streamroute_operator_reconcile_duration_seconds',
    type: 'histogram',
    help: 'Time one domain reconcile took.',
    labels: [],
  },
  queueDepth: gaugeSpec('streamroute_operator_queue_depth', 'Domains waiting in the work queue.'),
  leader: gaugeSpec('streamroute_operator_leader', '1 while this replica is the leader.'),
  cacheSynced: gaugeSpec('streamroute_operator_cache_synced', '1 once every initial list is done.'),
} as const satisfies Record<string, MetricSpec>;

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What the gauges read. */
export interface ControllerReadings {
  queueDepth(): number;
  leading(): boolean;
  synced(): boolean;
}

export interface ControllerMetrics {
  reconciles: Counter<'result'>;
  duration: Histogram;
}

export function registerControllerMetrics(registry: Registry, read: ControllerReadings): ControllerMetrics {
  const reconciles = counterOf(CONTROLLER_METRICS.reconciles, registry);
  const { name, help } = CONTROLLER_METRICS.reconcileDuration;
  const duration = new Histogram({ name, help, buckets: DURATION_BUCKETS, registers: [registry] });
  gaugeOf(CONTROLLER_METRICS.queueDepth, registry, function () {
    this.set(read.queueDepth());
  });
  gaugeOf(CONTROLLER_METRICS.leader, registry, function () {
    this.set(read.leading() ? 1 : 0);
  });
  gaugeOf(CONTROLLER_METRICS.cacheSynced, registry, function () {
    this.set(read.synced() ? 1 : 0);
  });
  return { reconciles, duration };
}
