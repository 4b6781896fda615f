// Every metric family the operator serves on its /metrics (the health listener): the controller's, the
// health listener's connection counters, and the live API's while it is served. docs/metrics.md is
// written from these lists (operator/tools/generate-metric-docs.ts); test/architecture/metric-docs.test.ts
// checks that a running operator registers exactly what they say.
import type { MetricSpec } from '../../dataplane/core/metric-spec.js';
import { CONNECTION_METRICS } from '../../dataplane/net/connection-telemetry.js';
import { LIVE_METRICS } from '../access/live-metrics.js';
import { CONTROLLER_METRICS } from './controller-metrics.js';

/** Always served (prom-client's defaults come on top). */
export const OPERATOR_METRICS: readonly MetricSpec[] = [
  ...Object.values(CONTROLLER_METRICS),
  ...Object.values(CONNECTION_METRICS),
];

/** Served while the live API is (`--live-listen-addr`). */
export const OPERATOR_LIVE_METRICS: readonly MetricSpec[] = Object.values(LIVE_METRICS);
