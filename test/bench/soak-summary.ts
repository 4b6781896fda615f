// The soak benchmark's verdicts: memory at 5 minutes, the middle and the end, the RSS slope over the last
// half, whether memory levelled off, event-loop delay and /healthz figures, and the accounting of every
// record sent against what the node counted.
import { SYSLOG_TRANSPORTS, type SyslogTransport } from './soak-graph.js';
import type { ControlCounts } from './soak-control.js';
import type { HttpLoad, Ingestor } from './soak-http.js';
import type { Sample } from './soak-metrics.js';
import { total } from './soak-metrics.js';
import type { SyslogLoad } from './soak-syslog.js';

/**
 * Levelled off: RSS over the last third of the run grows by less than this per 10 minutes, by the slope
 * of a least-squares line through its samples. RSS swings by ±40 MiB within seconds (payload-reader
 * threads come and go with the 1 MiB bodies), which over the 60 samples of a 30-minute run's last third
 * leaves the slope a standard error of about 10 MiB per 10 min: 32 MiB is three of them, and still
 * catches a leak of 4.6 GiB a day. See docs/benchmarks.md.
 */
export const LEVEL_MB_PER_10_MIN = 32;

/** A run shorter than this is not judged on memory: its last third is mostly warm-up and noise. */
export const JUDGE_MEMORY_AFTER_MINUTES = 15;

/** The least-squares slope of `value` over minutes. */
export function slopePerMinute(samples: Sample[], value: (sample: Sample) => number): number {
  return fit(samples, value).slope;
}

/** The least-squares slope of `value` over minutes, and its standard error. */
export function fit(samples: Sample[], value: (sample: Sample) => number): { slope: number; error: number } {
  if (samples.length < 3) return { slope: 0, error: 0 };
  const xs = samples.map((sample) => sample.seconds / 60);
  const ys = samples.map(value);
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * ((ys[i] ?? 0) - my);
    den += (x - mx) ** 2;
  });
  if (den === 0) return { slope: 0, error: 0 };
  const slope = num / den;
  const residuals = xs.reduce((sum, x, i) => sum + ((ys[i] ?? 0) - my - slope * (x - mx)) ** 2, 0);
  return { slope, error: Math.sqrt(residuals / (xs.length - 2) / den) };
}

/** `name`'s samples summed by `kind` and `reason` labels, as `kind/reason n` (the non-zero ones). */
export function byReason(text: string, name: string): string {
  const sums = new Map<string, number>();
  for (const row of text.split('\n')) {
    if (!row.startsWith(`${name}{`)) continue;
    const kind = /(?:kind|listener)="([^"]*)"/.exec(row)?.[1] ?? '';
    const reason = /reason="([^"]*)"/.exec(row)?.[1] ?? '';
    const key = `${kind}/${reason}`;
    sums.set(key, (sums.get(key) ?? 0) + Number(row.slice(row.lastIndexOf(' ') + 1)));
  }
  return (
    [...sums]
      .filter(([, value]) => value > 0)
      .map(([key, value]) => `${key} ${value}`)
      .join(', ') || 'none'
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function at(samples: Sample[], seconds: number): Sample | undefined {
  return samples.find((sample) => sample.seconds >= seconds);
}

export function memoryVerdict(samples: Sample[]): { lines: string[]; levelled: boolean } {
  const last = samples.at(-1);
  if (last === undefined) return { lines: ['no samples'], levelled: false };
  const show = (label: string, sample: Sample | undefined) =>
    sample === undefined
      ? `${label.padEnd(22)}  - (the run is shorter)`
      : `${label.padEnd(22)}  RSS ${sample.rssMb.toFixed(1)} MiB, heap ${sample.heapMb.toFixed(1)} MiB (at ${sample.seconds} s)`;
  const lastHalf = samples.filter((sample) => sample.seconds >= last.seconds / 2);
  const lastThird = samples.filter((sample) => sample.seconds >= (last.seconds * 2) / 3);
  const halfSlope = slopePerMinute(lastHalf, (sample) => sample.rssMb);
  const third = fit(lastThird, (sample) => sample.rssMb);
  const thirdGrowth = third.slope * 10;
  const heapGrowth = slopePerMinute(lastThird, (sample) => sample.heapMb) * 10;
  const judged = last.seconds >= JUDGE_MEMORY_AFTER_MINUTES * 60;
  const levelled = thirdGrowth < LEVEL_MB_PER_10_MIN;
  const verdict = !judged
    ? `not judged: the run is shorter than ${JUDGE_MEMORY_AFTER_MINUTES} min`
    : levelled
      ? 'LEVELLED OFF'
      : 'NOT LEVELLED OFF';
  const loop = samples.map((sample) => sample.loopP99Ms);
  const health = samples.map((sample) => sample.healthP99Ms);
  const cpu = samples.slice(1).map((sample) => sample.cpuPct);
  return {
    levelled: levelled || !judged,
    lines: [
      show('at 5 min', at(samples, 300)),
      show('at the middle', at(samples, last.seconds / 2)),
      show('at the end', last),
      `RSS slope, last half    ${halfSlope.toFixed(2)} MiB/min`,
      `last third, per 10 min  RSS ${thirdGrowth.toFixed(1)} ± ${(third.error * 10).toFixed(1)} MiB, ` +
        `heap ${heapGrowth.toFixed(1)} MiB ` +
        `-> ${verdict} (limit ${LEVEL_MB_PER_10_MIN} MiB RSS per 10 min)`,
      `event-loop delay p99    max ${Math.max(...loop).toFixed(1)} ms, median ${median(loop).toFixed(1)} ms over intervals`,
      `/healthz p99            max ${Math.max(...health).toFixed(1)} ms, median ${median(health).toFixed(1)} ms over intervals`,
      `node CPU                median ${median(cpu).toFixed(0)} %, max ${Math.max(...cpu).toFixed(0)} % of one core`,
    ],
  };
}

interface Line {
  what: string;
  sent: number;
  counted: number;
  /** Sends that may or may not have arrived (connection errors). */
  slack: number;
}

function line(what: string, sent: number, counted: number, slack: number): Line {
  return { what, sent, counted, slack };
}

/**
 * Sent = in + counted message errors + drops, per ingestor; the emitter's path: the relay `lines`' records
 * = the sink's frames + the emitter's drops (duplicates after a retry allowed); 413s as sent.
 */
export function accounting(
  text: string,
  http: HttpLoad,
  syslog: SyslogLoad,
  sinkFrames: number,
): { lines: string[]; ok: boolean } {
  const counted = (kind: string, name: string) =>
    total(text, 'streamroute_records_in_total', { kind, name }) +
    total(text, 'streamroute_message_errors_total', { kind, name }) +
    total(text, 'streamroute_drops_total', { kind, name });
  const rows: Line[] = [];
  for (const [ingestor, count] of Object.entries(http.counts) as [Ingestor, HttpLoad['counts'][Ingestor]][])
    rows.push(
      line(
        `http ${ingestor}`,
        count.good + count.bad,
        counted('http-ingestor', `${ingestor}_in`),
        count.failed,
      ),
    );
  for (const transport of SYSLOG_TRANSPORTS as readonly SyslogTransport[]) {
    const count = syslog.counts[transport];
    rows.push(
      line(
        `syslog ${transport}`,
        count.good + count.bad,
        counted('syslog-ingestor', `${transport}_in`),
        count.errors,
      ),
    );
  }
  const tooLarge = total(text, 'streamroute_http_ingestor_requests_failed_total', {
    reason: 'body_too_large',
  });
  rows.push(
    line('http 413 (or reset)', http.oversize.sent, http.oversize.refused + http.oversize.unanswered, 0),
  );
  rows.push(line('node too_large_total', http.oversize.sent, tooLarge, 0));
  const lines = total(text, 'streamroute_records_in_total', { kind: 'relay', name: 'lines' });
  const emitterDrops = total(text, 'streamroute_drops_total', { kind: 'emitter' });
  const emitterOk = sinkFrames + emitterDrops >= lines;
  const ok = rows.every((row) => row.counted >= row.sent && row.counted <= row.sent + row.slack) && emitterOk;
  return {
    ok,
    lines: [
      `${'what'.padEnd(22)} ${'sent'.padStart(9)} ${'counted'.padStart(9)} ${'diff'.padStart(7)} slack`,
      ...rows.map(
        (row) =>
          `${row.what.padEnd(22)} ${String(row.sent).padStart(9)} ${String(row.counted).padStart(9)} ` +
          `${String(row.counted - row.sent).padStart(7)} ${row.slack}`,
      ),
      `emitter path: relay lines ${lines} records; sink ${sinkFrames} frames + emitter drops ${emitterDrops} ` +
        `-> ${emitterOk ? 'accounted for' : 'LOST ' + String(lines - sinkFrames - emitterDrops)}`,
      `accounting: ${ok ? 'every sent record is accounted for' : 'DOES NOT ADD UP'}`,
    ],
  };
}

/** What the bench sent and how the control traffic went. */
export function loadLines(http: HttpLoad, syslog: SyslogLoad, control: ControlCounts): string[] {
  const ms = [...control.statementMs].sort((a, b) => a - b);
  return [
    `statements              ${control.statements} (${control.statementFailures} failed), ` +
      `median ${median(ms).toFixed(0)} ms, max ${(ms.at(-1) ?? 0).toFixed(0)} ms`,
    ...(control.lastFailure === undefined ? [] : [`last failed statement   ${control.lastFailure}`]),
    `subscribers             ${control.subscribersOpened} opened, ${control.subscribersRefused} refused; ` +
      `/healthz failures ${control.healthFailures}`,
    `HTTP                    ${http.skipped} requests skipped (64 waiting), ${http.halfSent} half-sent, ` +
      `${http.oversize.sent} over the limit`,
    `syslog                  ${JSON.stringify(syslog.counts)}`,
  ];
}

/** The node's drops, message errors and connection counters by reason, and its log lines by message. */
export function nodeLines(metrics: string, log: string): string[] {
  return [
    `drops                   ${byReason(metrics, 'streamroute_drops_total')}`,
    `message errors          ${byReason(metrics, 'streamroute_message_errors_total')}`,
    `connections refused     ${total(metrics, 'streamroute_connections_refused_total')}, ` +
      `timed out ${byReason(metrics, 'streamroute_connections_timed_out_total')}, ` +
      `aborted uploads ${total(metrics, 'streamroute_http_ingestor_requests_failed_total', { reason: 'aborted' })}`,
    `node log (warn, error)  ${log}`,
  ];
}
