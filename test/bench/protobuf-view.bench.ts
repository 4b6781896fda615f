// Protobuf JSON view benchmark (not a timed test): decode + JSON view of a typical message — ten fields,
// a nested message, a repeated field of three nested messages — in messages/s, beside a baseline from
// the same run: protobufjs's own Type.decode + toObject + JSON.stringify; and jsonValueView, the same view
// as a value for a compiled jq program. Then the way back, fromJsonView,
// beside protobufjs's fromObject + encode. Medians of several rounds after warm-up; rounds alternate
// between contender and baseline so a noisy neighbour hits both.
//
//   npx tsx test/bench/protobuf-view.bench.ts [rounds]      (default: 11)
import { performance } from 'node:perf_hooks';
import { parseJsonValue, type JsonValue } from '../../dataplane/codecs/json-value.js';
import { fromJsonView } from '../../dataplane/codecs/protobuf/from-json-view.js';
import { jsonValueView, jsonView } from '../../dataplane/codecs/protobuf/json-view.js';
import { messageType } from '../../dataplane/codecs/protobuf/testdata/test-messages.js';

const ROUNDS = Number(process.argv[2] ?? 11);
const PER_ROUND = 50_000;
const WARM_UP_ROUNDS = 3;

const ORDER = messageType('streamroute.test.v1.Order');
const TO_OBJECT = { longs: String, enums: String, bytes: String, defaults: true } as const;

/** Messages that differ a little, so nothing is cached by accident. */
const payloads = Array.from({ length: 64 }, (_, i) =>
  ORDER.encode(
    ORDER.fromObject({
      order_id: `ord-2026-11-22-${100000 + i}`,
      customer: `customer-${i}@example.com`,
      amount: 129_990 + i,
      currency: 'EUR',
      sequence: `${18_000_000_000_000_000_000n + BigInt(i)}`,
      express: i % 2 === 0,
      weight_kg: 1.25 + i,
      status: 1,
      total: { currency_code: 'EUR', units: 129_990 + i },
      items: [
        { sku: 'SKU-10001', quantity: 1, price: { currency_code: 'EUR', units: 99_990 } },
        { sku: 'SKU-10002', quantity: 2, price: { currency_code: 'EUR', units: 10_000 } },
        { sku: 'SKU-10003', quantity: 1, price: { currency_code: 'EUR', units: 10_000 + i } },
      ],
    }),
  ).finish(),
);

const views: JsonValue[] = payloads.map((payload) => {
  const result = jsonView(ORDER, payload);
  if (!('text' in result)) throw new Error(result.error.reason);
  return parseJsonValue(result.text);
});
const objects = payloads.map(
  (payload) => JSON.parse(JSON.stringify(ORDER.toObject(ORDER.decode(payload), TO_OBJECT))) as object,
);

let sink = 0;
/** The view is built from many small strings; reading a character flattens it, as its consumer will. */
const flat = (text: string): number => text.charCodeAt(text.length >> 1);
const contenders: Record<string, (i: number) => void> = {
  jsonView: (i) => {
    const result = jsonView(ORDER, payloads[i & 63] as Uint8Array);
    sink += 'text' in result ? flat(result.text) : 0;
  },
  // The same view as a value (for a compiled jq program), no text in between.
  jsonValueView: (i) => {
    const result = jsonValueView(ORDER, payloads[i & 63] as Uint8Array);
    sink += 'value' in result ? 1 : 0;
  },
  'protobufjs decode+toObject+stringify': (i) => {
    sink += flat(JSON.stringify(ORDER.toObject(ORDER.decode(payloads[i & 63] as Uint8Array), TO_OBJECT)));
  },
  fromJsonView: (i) => {
    const result = fromJsonView(ORDER, views[i & 63] as JsonValue);
    sink += 'bytes' in result ? result.bytes.length : 0;
  },
  'protobufjs fromObject+encode': (i) => {
    sink += ORDER.encode(ORDER.fromObject(objects[i & 63] as object)).finish().length;
  },
};

function rate(run: (i: number) => void): number {
  const start = performance.now();
  for (let i = 0; i < PER_ROUND; i++) run(i);
  return PER_ROUND / ((performance.now() - start) / 1000);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const rates = new Map<string, number[]>(Object.keys(contenders).map((name) => [name, []]));
for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
  for (const [name, run] of Object.entries(contenders)) {
    const measured = rate(run);
    if (round >= WARM_UP_ROUNDS) rates.get(name)?.push(measured);
  }
}

const medianOf = (name: string): number => median(rates.get(name) ?? []);
const size = payloads[0]?.length ?? 0;
const viewSize = JSON.stringify(views[0], (_key, value: unknown) =>
  typeof value === 'bigint' ? Number(value) : value,
).length;
console.log(
  `protobuf view benchmark: ${size}-byte Order (view ~${viewSize} chars), ${PER_ROUND} messages per round,`,
);
console.log(`median of ${ROUNDS} rounds after ${WARM_UP_ROUNDS} warm-up rounds (messages/s)`);
const row = (name: string, baseline: string): void => {
  const ratio = medianOf(name) / medianOf(baseline);
  console.log(
    `  ${name.padEnd(38)} ${Math.round(medianOf(name)).toLocaleString('en').padStart(11)}   ${ratio.toFixed(2)}x`,
  );
};
row('jsonView', 'protobufjs decode+toObject+stringify');
row('jsonValueView', 'protobufjs decode+toObject+stringify');
row('protobufjs decode+toObject+stringify', 'protobufjs decode+toObject+stringify');
row('fromJsonView', 'protobufjs fromObject+encode');
row('protobufjs fromObject+encode', 'protobufjs fromObject+encode');
if (sink === 0) console.log('(nothing measured)');
