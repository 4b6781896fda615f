// The payload readers' counters on the node's /metrics (docs/codec-formats.md, "Large payloads are read
// off the event loop").
import type { Registry } from 'prom-client';
import { registerStatCounters, type StatCounter } from '../stat-counters.js';
import type { ReaderPool, ReaderPoolStats } from './reader-pool.js';

const COUNTERS: StatCounter<ReaderPoolStats>[] = [
  {
    name: 'streamroute_payload_reads_total',
    help: 'Payloads read on a payload reader thread',
    stat: 'reads',
  },
  {
    name: 'streamroute_payload_read_time_limits_total',
    help: 'Payload reads stopped at the time limit (SR3018; the thread was replaced)',
    stat: 'timeLimits',
  },
  {
    name: 'streamroute_payload_read_memory_limits_total',
    help: 'Payload reads stopped at the heap limit (SR3018; the thread was replaced)',
    stat: 'memoryLimits',
  },
  {
    name: 'streamroute_payload_reader_crashes_total',
    help: 'Payload reader threads that died',
    stat: 'crashes',
  },
  {
    name: 'streamroute_payload_reader_refused_total',
    help: 'Payloads refused because too many bytes were waiting for a reader (SR3019)',
    stat: 'refused',
  },
];

export function registerReaderMetrics(registry: Registry, pool: () => ReaderPool | undefined): void {
  registerStatCounters(registry, COUNTERS, () => pool()?.stats);
}
