// The Kafka families of /metrics (docs/kafka.md, "DESCRIBE and metrics"): the lag of every partition a topic ingestor's
// group assigned this node, as its consumer last measured it (every LAG_INTERVAL_MS). Read at scrape time
// from the consumers that run, so a partition given away or an ingestor removed leaves no stale series.
import type { Registry } from 'prom-client';
import { COMPONENT_LABELS, gaugeOf, gaugeSpec } from '../../core/metric-spec.js';

export const TOPIC_LAG_METRIC = gaugeSpec(
  'streamroute_topic_lag_messages',
  "Messages of a topic partition the ingestor's group has not consumed (log end offset − committed offset), for the partitions assigned to this node",
  [...COMPONENT_LABELS, 'partition'],
);

export interface LagSource {
  domain: string;
  name: string;
  /** Lag by partition number. */
  lag(): Record<string, number>;
}

const BY_REGISTRY = new WeakMap<Registry, Set<LagSource>>();

/** Registers the family in `registry` (idempotent). */
export function registerTopicMetrics(registry: Registry): Set<LagSource> {
  const known = BY_REGISTRY.get(registry);
  if (known !== undefined) return known;
  const sources = new Set<LagSource>();
  gaugeOf(TOPIC_LAG_METRIC, registry, function () {
    this.reset();
    for (const source of sources)
      for (const [partition, lag] of Object.entries(source.lag()))
        this.labels(source.domain, 'topic-ingestor', source.name, partition).set(lag);
  });
  BY_REGISTRY.set(registry, sources);
  return sources;
}

/** Reports `source` until the returned function is called. */
export function reportLag(registry: Registry, source: LagSource): () => void {
  const sources = registerTopicMetrics(registry);
  sources.add(source);
  return () => sources.delete(source);
}
