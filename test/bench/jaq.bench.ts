// JAQ codec benchmark (not a timed test): records/s from JSON inputs through an ON INGESTION program into
// records of a schema, for three workloads:
//   - small: a ~300-byte object → one record of 5 fields
//   - unfold: a ~5 KB body `{orders: [50 × …]}` → 50 records (`.orders[] | {…}`)
//   - select: a ~2 KB body of 10 log events → the 5 errors, with string functions on their fields
// each run four ways in the same run, taking turns:
//   - compiled:      the codec with the program compiled to JavaScript (decision 0028): the JSON format
//                    reads each payload into values and the program runs on the event loop
//   - per call:      the codec on jq-wasm with batches of one input (jq is called once per message)
//   - micro-batched: the codec on jq-wasm as it runs programs outside the subset
//   - jq binary:     Debian's `jq -c` fed every input as one stream on stdin (no records built)
// The last line is `jaq: lowest compiled/binary ratio = X` over the workloads.
// The engine runs with the node's default worker count (cores less one, 1–4); messages are offered 2,000 at a time, as many
// concurrent requests would. Medians of several rounds.
//
//   npx tsx test/bench/jaq.bench.ts [--rounds 5] [--messages 20000] [--workers N]
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { GraphSchema } from '../../dataplane/graph/types.js';
import { DEFAULT_POOL_OPTIONS, JaqPool } from '../../dataplane/codecs/jaq/jaq-pool.js';
import { jaqCodec } from '../../dataplane/codecs/jaq/jaq-codec.js';
import type { EngineChoice } from '../../dataplane/codecs/jaq/jaq-transform.js';

const { values: args } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    messages: { type: 'string', default: '20000' },
    workers: { type: 'string', default: String(DEFAULT_POOL_OPTIONS.workers) },
  },
});
const WORKERS = Number(args.workers);
const ROUNDS = Number(args.rounds);
const MESSAGES = Number(args.messages);
const WINDOW = 2000;
const encoder = new TextEncoder();

const SCHEMA: GraphSchema = {
  fields: [
    { name: 'order_id', type: 'STRING', optional: false, sensitive: false },
    { name: 'customer', type: 'STRING', optional: false, sensitive: false },
    { name: 'amount', type: 'I64', optional: false, sensitive: false },
    { name: 'currency', type: 'STRING', optional: false, sensitive: false },
    { name: 'placed_at', type: 'DATETIME', optional: false, sensitive: false },
  ],
};

function order(index: number): Record<string, unknown> {
  return {
    id: `order-${index}`,
    customer: { name: 'Ada Lovelace', email: 'ada@example.com', tier: 'gold' },
    amount: 1000 + index,
    currency: 'EUR',
    placed: '2026-11-24T10:00:00.123Z',
    lines: [{ sku: 'x-1', qty: 2 }],
    note: 'leave at the door, ring twice',
  };
}

const WORKLOADS = [
  {
    name: 'small (300 B → 1 record)',
    program: '{order_id: .id, customer: .customer.name, amount, currency, placed_at: .placed}',
    input: (index: number) => JSON.stringify(order(index)),
    recordsPerInput: 1,
  },
  {
    name: 'unfold (5 KB → 50 records)',
    program: '.orders[] | {order_id: .id, customer: .customer.name, amount, currency, placed_at: .placed}',
    input: (index: number) =>
      JSON.stringify({ orders: Array.from({ length: 50 }, (_, i) => order(index + i)) }),
    recordsPerInput: 50,
  },
  {
    name: 'select (2 KB → 5 records, string functions)',
    program:
      '.events[] | select(.level == "error" and (.message | startswith("disk"))) | {order_id: .id, customer: (.host | ascii_downcase | ltrimstr("node-")), amount: (.code | tonumber), currency: (.tags | join(",")), placed_at: .at}',
    input: (index: number) =>
      JSON.stringify({
        events: Array.from({ length: 10 }, (_, i) => ({
          id: `event-${index}-${i}`,
          level: i % 2 === 0 ? 'error' : 'info',
          host: `NODE-${i}.example.com`,
          message: i % 2 === 0 ? `disk ${i} is full` : 'all good',
          code: String(500 + i),
          tags: ['disk', 'prod', `rack-${i}`],
          at: '2026-11-24T10:00:00.123Z',
        })),
      }),
    recordsPerInput: 5,
  },
];

type Workload = (typeof WORKLOADS)[number];

/** Records/s through a codec's program, offering WINDOW messages at a time. */
async function throughEngine(
  workload: Workload,
  inputs: string[],
  batched: boolean,
  engine: EngineChoice = 'jq-wasm',
): Promise<number> {
  const pool = new JaqPool(batched ? { workers: WORKERS } : { workers: WORKERS, maxBatchInputs: 1 });
  const codec = jaqCodec(
    {
      kind: 'jaq',
      schema: 'orders',
      canEncode: false,
      format: 'JSON',
      ingestion: workload.program,
      encodeRfc3339: [],
    },
    SCHEMA,
    pool,
    engine,
  );
  const payloads = inputs.map((input) => encoder.encode(input));
  await codec.decode(payloads[0] as Uint8Array); // workers started
  const started = performance.now();
  let records = 0;
  for (let at = 0; at < inputs.length; at += WINDOW) {
    const results = await Promise.all(
      payloads.slice(at, at + WINDOW).map(async (payload) => codec.decode(payload)),
    );
    for (const result of results) {
      if ('error' in result) throw new Error(`${result.error.code} ${result.error.reason}`);
      records += result.records.length;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return records / seconds;
}

/** Records/s (outputs) of `jq -c` reading every input from stdin, process start included. */
function throughJqBinary(workload: Workload, inputs: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('jq', ['-c', workload.program], { stdio: ['pipe', 'pipe', 'inherit'] });
    let lines = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      for (const byte of chunk) if (byte === 10) lines += 1;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`jq exited with ${code}`));
      else resolve(lines / ((performance.now() - started) / 1000));
    });
    child.stdin.end(inputs.join('\n'));
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

const format = (value: number): string => Math.round(value).toLocaleString('en-US');

console.log(`JAQ codec benchmark: ${MESSAGES} messages per round, ${ROUNDS} rounds, ${WORKERS} worker(s)`);
const ratios: number[] = [];
for (const workload of WORKLOADS) {
  const count = Math.max(1, Math.round(MESSAGES / workload.recordsPerInput));
  const inputs = Array.from({ length: count }, (_, index) => workload.input(index));
  const perCallInputs = inputs.slice(0, Math.min(inputs.length, 2000));
  const results = {
    compiled: [] as number[],
    perCall: [] as number[],
    batched: [] as number[],
    binary: [] as number[],
  };
  for (let round = 0; round < ROUNDS; round += 1) {
    results.compiled.push(await throughEngine(workload, inputs, true, 'auto'));
    results.perCall.push(await throughEngine(workload, perCallInputs, false));
    results.batched.push(await throughEngine(workload, inputs, true));
    results.binary.push(await throughJqBinary(workload, inputs));
  }
  const [compiled, perCall, batched, binary] = [
    median(results.compiled),
    median(results.perCall),
    median(results.batched),
    median(results.binary),
  ];
  ratios.push(compiled / binary);
  console.log(`\n${workload.name}, records/s (median):`);
  console.log(
    `  compiled        ${format(compiled).padStart(10)}   ${(compiled / binary).toFixed(2)}× the binary`,
  );
  console.log(`  per call        ${format(perCall).padStart(10)}`);
  console.log(
    `  micro-batched   ${format(batched).padStart(10)}   ${(batched / perCall).toFixed(1)}× per call`,
  );
  console.log(
    `  jq binary       ${format(binary).padStart(10)}   micro-batched is ${(batched / binary).toFixed(2)}× the binary`,
  );
}
console.log(`\njaq: lowest compiled/binary ratio = ${Math.min(...ratios).toFixed(2)}`);
