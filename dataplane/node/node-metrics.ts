// Every metric family a node serves on /metrics (the embedded node and `streamroute dataplane`): the
// declarations of the modules that count, gathered in one list, and registered all at once when the data
// plane is made, so `/metrics` lists every family from the start (an alert on a family nobody has
// counted into yet sees 0 series, not a missing metric). docs/metrics.md is written from this list
// (operator/tools/generate-metric-docs.ts); test/architecture/metric-docs.test.ts checks that a running
// node registers exactly what it says.
import type { Registry } from 'prom-client';
import { registerSubscriptionMetrics, SUBSCRIPTION_METRICS } from '../admin/subscription-limits.js';
import { JAQ_CHECK_METRIC, registerJaqCheckMetrics } from '../codecs/jaq/compile-check-metrics.js';
import { JAQ_METRICS, registerJaqMetrics } from '../codecs/jaq/jaq-metrics.js';
import { startedJaqPool } from '../codecs/jaq/jaq-pool.js';
import {
  JAQ_FALLBACKS_METRIC,
  JAQ_RECORDS_METRIC,
  registerProgramPathMetrics,
} from '../codecs/jaq/program-path-metrics.js';
import { READER_METRICS, registerReaderMetrics } from '../codecs/reading/reader-metrics.js';
import { startedReaderPool } from '../codecs/reading/reader-pool.js';
import type { MetricSpec } from '../core/metric-spec.js';
import { registerProcessMetrics } from '../core/process-metrics.js';
import { METRICS, PENDING_METRIC, registerComponentMetrics } from '../core/telemetry.js';
import { CONNECTION_METRICS, registerConnectionMetrics } from '../net/connection-telemetry.js';
import { HTTP_METRICS } from '../sources/http/telemetry.js';
import { registerSyslogMetrics, SYSLOG_METRICS } from '../sources/syslog/listener-metrics.js';
import { registerTopicMetrics, TOPIC_LAG_METRIC } from '../sources/kafka/topic-metrics.js';

/** The node's own families, in the order docs/metrics.md lists them (prom-client's defaults come on top). */
export const NODE_METRICS: readonly MetricSpec[] = [
  ...Object.values(METRICS),
  PENDING_METRIC,
  ...Object.values(HTTP_METRICS),
  ...Object.values(SYSLOG_METRICS),
  TOPIC_LAG_METRIC,
  ...Object.values(CONNECTION_METRICS),
  ...Object.values(SUBSCRIPTION_METRICS),
  ...JAQ_METRICS,
  JAQ_RECORDS_METRIC,
  JAQ_FALLBACKS_METRIC,
  JAQ_CHECK_METRIC,
  ...READER_METRICS,
];

/**
 * Registers every family of NODE_METRICS but the HTTP ones (HttpTelemetry registers those when it is
 * made, as it replaces an older one's), and the process metrics. Idempotent per registry.
 */
export function registerNodeMetrics(registry: Registry): void {
  registerComponentMetrics(registry);
  registerSyslogMetrics(registry);
  registerTopicMetrics(registry);
  registerConnectionMetrics(registry);
  registerSubscriptionMetrics(registry);
  registerJaqMetrics(registry, startedJaqPool);
  registerProgramPathMetrics(registry);
  registerJaqCheckMetrics(registry);
  registerReaderMetrics(registry, startedReaderPool);
  registerProcessMetrics(registry);
}
