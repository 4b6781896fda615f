// Node's own process metrics on /metrics, under prom-client's standard names (process_resident_memory_bytes,
// nodejs_heap_size_used_bytes, nodejs_eventloop_lag_p99_seconds, …), so the dashboards people already have
// for Node services work: memory that levels off or does not, and event-loop delay, are what a soak run and
// an operator watch first (docs/admin-api.md, "Metrics").
import { collectDefaultMetrics, type Registry } from 'prom-client';

/** Registers them once per registry (a node restarted in one process keeps its registry). */
export function registerProcessMetrics(registry: Registry): void {
  if (registry.getSingleMetric('process_resident_memory_bytes') !== undefined) return;
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
}
