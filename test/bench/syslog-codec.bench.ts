// SYSLOG codec benchmark (not a timed test): messages per second on one core for decoding and encoding
// ~200-byte RFC 5424 and RFC 3164 messages, with every syslog field declared, and beside them in the same
// run a native-speed baseline: JSON.parse of a JSON object with the same fields (from a string, so the
// baseline pays no UTF-8 decoding) and JSON.stringify of it (no UTF-8 encoding). The workloads take turns
// round by round, so load on the machine hits all alike; medians of the rounds after warm-up rounds.
//
//   npx tsx test/bench/syslog-codec.bench.ts
import { performance } from 'node:perf_hooks';
import type { Codec, DecodeResult } from '../../dataplane/codecs/codec.js';
import { createSyslogCodecWith } from '../../dataplane/codecs/syslog/syslog-codec.js';
import { SYSLOG_FIELD_SHAPES, SYSLOG_FIELDS } from '../../dataplane/graph/types.js';
import { Instant, type RecordValues } from '../../dataplane/core/values.js';

const WARM_UP = 3;
const ROUNDS = 11;
const ROUND_MS = 250;
/** Distinct messages per workload, cycled: hosts, apps, PIDs, times and texts vary as in a real stream. */
const MESSAGES = 1024;

const codec = (() => {
  const schema = {
    fields: SYSLOG_FIELDS.map((name) => ({ name, ...SYSLOG_FIELD_SHAPES[name], sensitive: false })),
  };
  const made = createSyslogCodecWith(
    { kind: 'syslog', schema: 'lines', canEncode: true, fields: [...SYSLOG_FIELDS] },
    schema,
    {},
  );
  if ('unsupported' in made) throw new Error(made.unsupported);
  return made;
})();

const HOSTS = ['web-01.prod.example.com', 'web-02.prod.example.com', 'db-01.prod.example.com', 'edge-7'];
const APPS = ['nginx', 'postgres', 'sshd', 'payment-service'];
const START = Date.UTC(2026, 10, 24, 9, 0, 0);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function text(i: number): string {
  return `request ${i} from 10.1.${i % 256}.${(i * 7) % 256} completed: status 200 in ${i % 1000} ms`;
}

function rfc5424(i: number): string {
  const at = new Date(START + i * 3).toISOString().replace(/Z$/, `${String(i % 1000).padStart(3, '0')}Z`);
  const sd = `[req@32473 id="${i}" path="/api/v1/orders" user="alice.smith"]`;
  return `<${(16 + (i % 8)) * 8 + (i % 8)}>1 ${at} ${HOSTS[i % 4]} ${APPS[i % 4]} ${1000 + (i % 50)} ACCESS ${sd} ${text(i)}`;
}

function rfc3164(i: number): string {
  const at = new Date(START + i * 3);
  const day = String(at.getUTCDate()).padStart(2, ' ');
  const time = at.toISOString().slice(11, 19);
  const host = HOSTS[i % 4] ?? '';
  return `<${(16 + (i % 8)) * 8 + (i % 8)}>${MONTHS[at.getUTCMonth()]} ${day} ${time} ${host} ${APPS[i % 4]}[${1000 + (i % 50)}]: ${text(i)} user=alice bytes=${i * 13} path=/api/v1/orders agent=curl/8.5.0 tls=1.3 cache=miss`;
}

const encoder = new TextEncoder();
const ids = Array.from({ length: MESSAGES }, (_, i) => i);
const payloads5424 = ids.map((i) => encoder.encode(rfc5424(i)));
const payloads3164 = ids.map((i) => encoder.encode(rfc3164(i)));

function recordOf(result: DecodeResult | Promise<DecodeResult>): RecordValues {
  if (result instanceof Promise || 'error' in result) throw new Error('the benchmark messages must decode');
  return result.records[0] ?? {};
}
const records5424 = payloads5424.map((payload) => recordOf(codec.decode(payload)));
const records3164 = payloads3164.map((payload) => recordOf(codec.decode(payload)));
/** The baseline's JSON objects: the same fields, the timestamp as RFC 3339 text. */
const jsonObjects = records5424.map((record) => ({
  ...record,
  timestamp: record.timestamp instanceof Instant ? record.timestamp.toRfc3339() : null,
}));
const jsonTexts = jsonObjects.map((object) => JSON.stringify(object));

interface Workload {
  name: string;
  bytes: number;
  step: (i: number) => unknown;
}

const syslog: Codec = codec;
const encode = syslog.encode!.bind(syslog);
const average = (items: { length: number }[]) =>
  items.reduce((sum, item) => sum + item.length, 0) / items.length;
const workloads: Workload[] = [
  { name: 'decode RFC 5424', bytes: average(payloads5424), step: (i) => syslog.decode(payloads5424[i]!) },
  { name: 'decode RFC 3164', bytes: average(payloads3164), step: (i) => syslog.decode(payloads3164[i]!) },
  {
    name: 'baseline JSON.parse',
    bytes: average(jsonTexts),
    step: (i) => JSON.parse(jsonTexts[i]!) as unknown,
  },
  { name: 'encode RFC 5424 (from 5424)', bytes: 0, step: (i) => encode(records5424[i]!) },
  { name: 'encode RFC 5424 (from 3164)', bytes: 0, step: (i) => encode(records3164[i]!) },
  { name: 'baseline JSON.stringify', bytes: 0, step: (i) => JSON.stringify(jsonObjects[i]) },
];

let sink: unknown;
/** Messages per second over one round of about ROUND_MS. */
function round(workload: Workload): number {
  let count = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < ROUND_MS) {
    for (let i = 0; i < MESSAGES; i++) sink = workload.step(i);
    count += MESSAGES;
    elapsed = performance.now() - started;
  }
  return (count / elapsed) * 1000;
}

const rates = new Map<string, number[]>(workloads.map((workload) => [workload.name, []]));
for (let r = 0; r < WARM_UP + ROUNDS; r++) {
  for (const workload of workloads) {
    const rate = round(workload);
    if (r >= WARM_UP) rates.get(workload.name)!.push(rate);
  }
}
void sink;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;
const medianOf = (name: string) => median(rates.get(name) ?? []);
console.log(
  `SYSLOG codec, ${MESSAGES} distinct messages cycled, median of ${ROUNDS} rounds of ${ROUND_MS} ms (${process.version})`,
);
for (const workload of workloads) {
  const rate = medianOf(workload.name);
  const baseline = medianOf(
    workload.name.startsWith('decode') ? 'baseline JSON.parse' : 'baseline JSON.stringify',
  );
  const size = workload.bytes > 0 ? ` (${Math.round(workload.bytes)} B)` : '';
  const ratio = workload.name.startsWith('baseline') ? '' : `  ${(rate / baseline).toFixed(2)}× the baseline`;
  console.log(
    `  ${`${workload.name}${size}`.padEnd(36)} ${Math.round(rate).toLocaleString('en-US').padStart(10)} msg/s${ratio}`,
  );
}
