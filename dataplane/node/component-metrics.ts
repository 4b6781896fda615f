// Edge metrics of one component for DESCRIBE, read from the node's registry (the counters `/metrics`
// exposes, so both always agree): totals, and message errors and drops also by reason
// (`drops.quiesce_drop`, `message_errors.SR3003`).
import type { Registry } from 'prom-client';
import { METRICS, readCounter, type ComponentKind } from '../core/telemetry.js';

export interface ComponentLabels {
  domain: string;
  kind: ComponentKind;
  name: string;
}

const TOTALS = {
  payloads: METRICS.payloads.name,
  payload_bytes: METRICS.payloadBytes.name,
  records_in: METRICS.recordsIn.name,
  records_out: METRICS.recordsOut.name,
} as const;

const BY_REASON = {
  message_errors: METRICS.messageErrors.name,
  drops: METRICS.drops.name,
  general_errors: METRICS.generalErrors.name,
} as const;

export async function componentMetrics(
  registry: Registry,
  labels: ComponentLabels,
): Promise<Record<string, number>> {
  const wanted = { domain: labels.domain, kind: labels.kind, name: labels.name };
  const metrics: Record<string, number> = {};
  for (const [key, metric] of Object.entries(TOTALS))
    metrics[key] = await readCounter(registry, metric, wanted);
  for (const [key, metric] of Object.entries(BY_REASON)) {
    const byReason = await countsByReason(registry, metric, wanted);
    metrics[key] = [...byReason.values()].reduce((sum, value) => sum + value, 0);
    for (const [reason, value] of byReason) metrics[`${key}.${reason}`] = value;
  }
  return metrics;
}

async function countsByReason(
  registry: Registry,
  metric: string,
  labels: Record<string, string>,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const found = registry.getSingleMetric(metric);
  if (found === undefined) return counts;
  const { values } = await found.get();
  for (const value of values) {
    const matches = Object.entries(labels).every(([label, wanted]) => value.labels[label] === wanted);
    const reason = value.labels.reason;
    if (!matches || typeof reason !== 'string' || value.value === 0) continue;
    counts.set(reason, (counts.get(reason) ?? 0) + value.value);
  }
  return counts;
}
