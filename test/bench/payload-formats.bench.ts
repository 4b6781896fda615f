// Payload-format benchmark (not a timed test): read messages/s of each JAQ payload format for one ~300-byte
// order, beside `JSON.parse` of the same order's JSON text in the same run (the baseline; the ratio is
// format/JSON.parse). Each row is the median of several rounds after warm-up; the formats take turns
// within a round, so load on the machine hits all alike. Each format is read as JSON text (`read`, for
// jq-wasm) and as values (`read values`, readValues, for a compiled program; the last column is values
// against text). Write messages/s are shown for the same value.
//
//   npx tsx test/bench/payload-formats.bench.ts [rounds]      (default: 7)
import { performance } from 'node:perf_hooks';
import { PAYLOAD_FORMATS } from '../../dataplane/codecs/formats/index.js';
import type { PayloadFormat } from '../../dataplane/codecs/formats/payload-format.js';
import type { JaqFormat } from '../../dataplane/graph/types.js';
import type { JsonValue } from '../../dataplane/codecs/json-value.js';

const ROUNDS = Number(process.argv[2] ?? 7);
const WARM_UP = 2;
/** Each measurement runs for about this long. */
const SLICE_MS = 250;

const ORDER: JsonValue = {
  order_id: 'o-2026-000123',
  customer: { id: 98765, name: 'Ada Lovelace', email: 'ada@example.com' },
  items: [
    { sku: 'A-100', qty: 2, price: 19.99 },
    { sku: 'B-220', qty: 1, price: 5.5 },
  ],
  total: 45.48,
  currency: 'EUR',
  placed_at: '2026-11-22T03:08:00Z',
  seq: 18446744073709551615n,
  tags: ['gift', 'express'],
};

/** The same order in the XML view's image (all text, children as arrays). */
const XML_ORDER: JsonValue = {
  order: {
    '@id': 'o-2026-000123',
    customer: [{ '@id': '98765', name: ['Ada Lovelace'], email: ['ada@example.com'] }],
    item: [
      { '@sku': 'A-100', qty: ['2'], price: ['19.99'] },
      { '@sku': 'B-220', qty: ['1'], price: ['5.5'] },
    ],
    total: [{ '@currency': 'EUR', '#text': '45.48' }],
    placed_at: ['2026-11-22T03:08:00Z'],
    seq: ['18446744073709551615'],
  },
};

const FORMATS = Object.keys(PAYLOAD_FORMATS) as JaqFormat[];

function payloadOf(format: JaqFormat): Uint8Array {
  const result = PAYLOAD_FORMATS[format].write(format === 'XML' ? XML_ORDER : ORDER);
  if (!('bytes' in result)) throw new Error(`${format}: ${result.error.reason}`);
  const read = PAYLOAD_FORMATS[format].read(result.bytes);
  if (!('inputs' in read)) throw new Error(`${format}: ${read.error.reason}`);
  return result.bytes;
}

/** Operations per second of `run`, timed for about SLICE_MS. */
function rate(run: () => unknown): number {
  let count = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < SLICE_MS) {
    for (let i = 0; i < 100; i += 1) run();
    count += 100;
    elapsed = performance.now() - started;
  }
  return (count / elapsed) * 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const payloads = new Map(FORMATS.map((format) => [format, payloadOf(format)]));
const jsonText = new TextDecoder().decode(payloads.get('JSON'));
/** The order without its U64: JSON read as values needs no exact second parse. */
const { seq: _seq, ...smallOrder } = ORDER as Record<string, JsonValue>;
const smallJson = new TextEncoder().encode(JSON.stringify(smallOrder));
const subjects: [string, () => unknown][] = [
  ['JSON.parse (baseline)', (): unknown => JSON.parse(jsonText) as unknown],
  ...FORMATS.map((format): [string, () => unknown] => {
    const reader: PayloadFormat = PAYLOAD_FORMATS[format];
    const payload = payloads.get(format) as Uint8Array;
    return [`${format} read`, () => reader.read(payload)];
  }),
  ...FORMATS.map((format): [string, () => unknown] => {
    const reader: PayloadFormat = PAYLOAD_FORMATS[format];
    const payload = payloads.get(format) as Uint8Array;
    return [`${format} read values`, () => reader.readValues(payload)];
  }),
  ['JSON, no U64 read', () => PAYLOAD_FORMATS.JSON.read(smallJson)],
  ['JSON, no U64 read values', () => PAYLOAD_FORMATS.JSON.readValues(smallJson)],
  ...FORMATS.map((format): [string, () => unknown] => {
    const writer: PayloadFormat = PAYLOAD_FORMATS[format];
    const value = format === 'XML' ? XML_ORDER : ORDER;
    return [`${format} write`, () => writer.write(value)];
  }),
];

const samples = new Map<string, number[]>(subjects.map(([name]) => [name, []]));
for (let round = 0; round < WARM_UP + ROUNDS; round += 1) {
  for (const [name, run] of subjects) {
    const perSecond = rate(run);
    if (round >= WARM_UP) samples.get(name)?.push(perSecond);
  }
}

const baseline = median(samples.get('JSON.parse (baseline)') ?? []);
console.log(
  `payload sizes: ${FORMATS.map((format) => `${format} ${payloads.get(format)?.length} B`).join(', ')}`,
);
console.log(
  `${'subject'.padEnd(24)}${'messages/s'.padStart(12)}${'× JSON.parse'.padStart(14)}${'× text read'.padStart(13)}`,
);
for (const [name] of subjects) {
  const perSecond = median(samples.get(name) ?? []);
  const ratio = (perSecond / baseline).toFixed(3);
  const textRead = name.endsWith(' read values')
    ? median(samples.get(name.replace(/ values$/, '')) ?? [])
    : 0;
  const values = textRead === 0 ? '' : (perSecond / textRead).toFixed(2);
  console.log(
    `${name.padEnd(24)}${Math.round(perSecond).toLocaleString('en-US').padStart(12)}${ratio.padStart(14)}${values.padStart(13)}`,
  );
}
