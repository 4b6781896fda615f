// Writes docs/metrics.md from the metric declarations. CI regenerates it and fails on drift
// (npm run check:generated).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderMetricDocs } from './render-metric-docs.js';

writeFileSync(join(import.meta.dirname, '..', '..', 'docs', 'metrics.md'), renderMetricDocs());
