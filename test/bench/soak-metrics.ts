// The soak benchmark's samples: every 10 s the node's /metrics (memory, event-loop delay, records,
// drops, message errors, refused connections), its CPU time from /proc, and the /healthz latencies the
// bench measured from outside since the sample before. Written as CSV rows as they are taken.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { fetchAdmin } from '../fixtures/admin-client.js';
import { percentile } from '../support/stalled-subscribers.js';
import { sumSamples } from './syslog-wire-node.js';

export interface Sample {
  seconds: number;
  rssMb: number;
  heapMb: number;
  loopP99Ms: number;
  /** Node CPU over the interval, percent of one core. */
  cpuPct: number;
  recordsIn: number;
  recordsOut: number;
  drops: number;
  messageErrors: number;
  refused: number;
  timedOut: number;
  healthP99Ms: number;
  healthMaxMs: number;
  subscribers: number;
  sinkFrames: number;
}

const COLUMNS: (keyof Sample)[] = [
  'seconds',
  'rssMb',
  'heapMb',
  'loopP99Ms',
  'cpuPct',
  'recordsIn',
  'recordsOut',
  'drops',
  'messageErrors',
  'refused',
  'timedOut',
  'healthP99Ms',
  'healthMaxMs',
  'subscribers',
  'sinkFrames',
];

const INGESTORS = ['http-ingestor', 'syslog-ingestor'];

/** The sum of `name` over samples whose labels include `labels` (one kind at a time for `kinds`). */
export function total(
  text: string,
  name: string,
  labels: Record<string, string> = {},
  kinds?: string[],
): number {
  if (kinds === undefined) return sumSamples(text, name, labels);
  return kinds.reduce((sum, kind) => sum + sumSamples(text, name, { ...labels, kind }), 0);
}

/** Node CPU time in ms (utime + stime of /proc/<pid>/stat). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

export class Sampler {
  readonly samples: Sample[] = [];
  #lastCpu: number;
  #lastAt = performance.now();
  readonly #started = performance.now();

  constructor(
    private readonly adminPort: number,
    private readonly pid: number,
    readonly csv: string,
  ) {
    this.#lastCpu = cpuMs(pid);
    writeFileSync(csv, `${COLUMNS.join(',')}\n`);
  }

  async take(health: number[], sinkFrames: number): Promise<Sample> {
    const text = (await fetchAdmin(this.adminPort, '/metrics')).body;
    const now = performance.now();
    const cpu = cpuMs(this.pid);
    const sample: Sample = {
      seconds: Math.round((now - this.#started) / 1000),
      rssMb: sumSamples(text, 'process_resident_memory_bytes', {}) / 2 ** 20,
      heapMb: sumSamples(text, 'nodejs_heap_size_used_bytes', {}) / 2 ** 20,
      loopP99Ms: sumSamples(text, 'nodejs_eventloop_lag_p99_seconds', {}) * 1000,
      cpuPct: ((cpu - this.#lastCpu) / (now - this.#lastAt)) * 100,
      recordsIn: total(text, 'streamroute_records_in_total', {}, INGESTORS),
      recordsOut: total(text, 'streamroute_records_out_total', {}, ['relay']),
      drops: total(text, 'streamroute_drops_total'),
      messageErrors: total(text, 'streamroute_message_errors_total'),
      refused: total(text, 'streamroute_connections_refused_total'),
      timedOut: total(text, 'streamroute_connections_timed_out_total'),
      healthP99Ms: percentile(health, 99),
      healthMaxMs: Math.max(0, ...health),
      subscribers: sumSamples(text, 'streamroute_subscribers', {}),
      sinkFrames,
    };
    this.#lastCpu = cpu;
    this.#lastAt = now;
    this.samples.push(sample);
    appendFileSync(this.csv, `${COLUMNS.map((column) => round(sample[column])).join(',')}\n`);
    return sample;
  }
}

function round(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** One table row per minute: the minute's last sample, with the worst event-loop and /healthz figures. */
export function minuteRow(minute: Sample[]): string {
  const last = minute.at(-1);
  if (last === undefined) return '';
  const max = (key: keyof Sample) => Math.max(...minute.map((sample) => sample[key]));
  const mean = (key: keyof Sample) => minute.reduce((sum, sample) => sum + sample[key], 0) / minute.length;
  return [
    String(Math.round(last.seconds / 60)).padStart(4),
    last.rssMb.toFixed(0).padStart(7),
    last.heapMb.toFixed(0).padStart(7),
    mean('cpuPct').toFixed(0).padStart(5),
    max('loopP99Ms').toFixed(1).padStart(9),
    max('healthP99Ms').toFixed(1).padStart(9),
    String(last.recordsIn).padStart(10),
    String(last.recordsOut).padStart(10),
    String(last.drops).padStart(7),
    String(last.messageErrors).padStart(7),
    String(last.refused).padStart(7),
    String(last.subscribers).padStart(5),
  ].join(' ');
}

export const MINUTE_HEADER = [
  ' min',
  'RSS MiB',
  'heapMiB',
  'CPU%',
  'loop p99',
  'hlth p99',
  'records in',
  'rel. out',
  'drops',
  'msg err',
  'refused',
  'subs',
].join(' ');
