// The payload readers' counters on the node's /metrics (docs/codec-formats.md, "Large payloads are read
// off the event loop").
import type { Registry } from 'prom-client';
import { registerStatCounters, statCounter, type StatCounter } from '../stat-counters.js';
import type { ReaderPool, ReaderPoolStats } from './reader-pool.js';

export const READER_METRICS: readonly StatCounter<ReaderPoolStats>[] = [
  statCounter('streamroute_payload_reads_total', 'Payloads read on a payload reader thread', 'reads'),
  statCounter(
    'streamroute_payload_read_time_limits_total',
    'Payload reads stopped at the time limit (SR3018; the thread was replaced)',
    'timeLimits',
  ),
  statCounter(
    'streamroute_payload_read_memory_limits_total',
    'Payload reads stopped at the heap limit (SR3018; the thread was replaced)',
    'memoryLimits',
  ),
  statCounter('streamroute_payload_reader_crashes_total', 'Payload reader threads that died', 'crashes'),
  statCounter(
    'streamroute_payload_reader_refused_total',
    'Payloads refused because too many bytes were waiting for a reader (SR3019)',
    'refused',
  ),
];

export function registerReaderMetrics(registry: Registry, pool: () => ReaderPool | undefined): void {
  registerStatCounters(registry, READER_METRICS, () => pool()?.stats);
}
