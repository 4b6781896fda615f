// Compile benchmark (not a timed test): generates a domain as statement text — a realistic mix of every
// kind — and measures parse, convert and compile, median of several runs after warm-up. The 100-object
// domain is the baseline of the same run: the ratio shows how the compiler scales.
//
//   npx tsx test/bench/compile.bench.ts [objects...]      (default: 100 1000)
import { performance } from 'node:perf_hooks';
import { compileDomain, prepareCompileAll } from '../../operator/compiler/index.js';
import { statementsToObjects } from '../../operator/language/convert.js';
import { parseScript } from '../../operator/language/parse.js';

// compileDomain needs the jq check loaded (the compiler loads it on demand).
await prepareCompileAll();

const WARM_UP = 5;
const RUNS = 21;
/** Objects one unit of the mix declares (see `unit`). */
const PER_UNIT = 25;

/** One slice of a shop: HTTP orders and payments, syslog in and out, a junction and a correlator. */
function unit(i: number): string {
  return `
CREATE SCHEMA orders_${i} (order_id STRING, customer STRING, amount I64, currency STRING, card STRING OPTIONAL SENSITIVE, placed_at DATETIME OPTIONAL);
CREATE SCHEMA payments_${i} (payment_id STRING, order_id STRING, amount I64, currency STRING);
CREATE SCHEMA paid_${i} (order_id STRING, amount I64, payment_id STRING, matched_at DATETIME, card STRING OPTIONAL SENSITIVE);
CREATE SCHEMA line_${i} (facility U8, severity U8, timestamp DATETIME OPTIONAL, hostname STRING OPTIONAL, app_name STRING OPTIONAL, message STRING);
CREATE WIRE JSON SCHEMA payments_wire_${i} MODE STRICT (payment_id string, order_id string, amount integer, currency string);
CREATE CODEC payments_json_${i} FROM WIRE JSON SCHEMA payments_wire_${i} TO SCHEMA payments_${i};
CREATE CODEC orders_jaq_${i} FROM JSON TO SCHEMA orders_${i} WITH JAQ TRANSFORMATIONS
  ON INGESTION $jaq$ .orders[] | {order_id: .id, customer: .customer.name, amount: .amount, currency: (.currency // "EUR"), card: .card} $jaq$;
CREATE CODEC syslog_${i} FROM SYSLOG TO SCHEMA line_${i};
CREATE RELAY orders_${i} SCHEMA orders_${i} UNBRANCHED;
CREATE RELAY unpaid_${i} SCHEMA orders_${i} UNBRANCHED;
CREATE RELAY orders_all_${i} SCHEMA orders_${i} UNBRANCHED;
CREATE RELAY payments_${i} SCHEMA payments_${i} UNBRANCHED;
CREATE RELAY paid_${i} SCHEMA paid_${i} UNBRANCHED;
CREATE RELAY lines_${i} SCHEMA line_${i} UNBRANCHED;
CREATE VHOST shop_${i} shop${i}.example.com;
CREATE ENDPOINT orders_ep_${i} ON shop_${i} PATH '/orders' TYPE HTTP;
CREATE ENDPOINT payments_ep_${i} ON shop_${i} PATH '/payments' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR orders_in_${i} FROM orders_ep_${i} MODE NO ACK ON QUIESCE BUFFER MAX SIZE 1MiB
  DECODE USING orders_jaq_${i}
  TO orders_${i} INHERIT ALL SET customer = lower(trim(input.customer)), currency = upper(input.currency)
    FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
CREATE HTTP ENDPOINT INGESTOR payments_in_${i} FROM payments_ep_${i} MODE NO ACK ON QUIESCE DROP
  DECODE USING payments_json_${i}
  TO payments_${i} INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
CREATE CLIENT syslog_${i} TYPE SYSLOG CONFIG { 'protocol' = 'udp', 'addr' = '0.0.0.0:${10000 + i}' };
CREATE SYSLOG LISTENER INGESTOR syslog_in_${i} FROM syslog_${i} MODE NO ACK ON QUIESCE SUSPEND DECODE USING syslog_${i}
  TO lines_${i} INHERIT ALL SET app_name = coalesce(input.app_name, metadata.peer_addr, 'unknown')
    FLUSH IMMEDIATE ON MESSAGE ERROR LOG
  ON GENERAL ERROR LOG;
CREATE JUNCTION merge_${i} FROM orders_${i}, unpaid_${i} TO orders_all_${i} INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR LOG;
CREATE CORRELATOR match_${i} LEFT FROM orders_all_${i} RIGHT FROM payments_${i}
  CORRELATE WHERE left.order_id = right.order_id AND right.amount >= left.amount
  MATCH EARLIEST MAX TIME 30s ON CORRELATION TIMEOUT DROP, DROP UNBRANCHED
  TO paid_${i} SET order_id = left.order_id, amount = right.amount, payment_id = right.payment_id,
    matched_at = coalesce(left.placed_at, now()), card = left.card
    FLUSH IMMEDIATE ON MESSAGE ERROR LOG;
CREATE CLIENT out_${i} TYPE SYSLOG CONFIG { 'protocol' = 'tcp', 'addr' = 'collector${i}.example.com:601' };
CREATE EMITTER out_${i} FROM lines_${i} TO SYSLOG out_${i} MODE NO_ACK RETRY POLICY BACKOFF 500ms MAX 30s
  ENCODE USING syslog_${i} FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;
`;
}

interface Timings {
  parse: number;
  convert: number;
  compile: number;
  total: number;
}

function once(text: string): Timings & { objects: number; errors: number } {
  const start = performance.now();
  const parsed = parseScript(text, 'bench.sql');
  const parsedAt = performance.now();
  const converted = statementsToObjects(parsed.statements);
  const convertedAt = performance.now();
  const result = compileDomain(converted.objects, { domain: 'bench' });
  const end = performance.now();
  const errors = [...parsed.diagnostics, ...converted.diagnostics, ...result.diagnostics].filter(
    (d) => d.severity === 'error',
  ).length;
  return {
    parse: parsedAt - start,
    convert: convertedAt - parsedAt,
    compile: end - convertedAt,
    total: end - start,
    objects: converted.objects.length,
    errors,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function measure(objects: number): Timings & { objects: number } {
  const units = Math.max(1, Math.round(objects / PER_UNIT));
  const text = Array.from({ length: units }, (_, i) => unit(i)).join('');
  for (let i = 0; i < WARM_UP; i += 1) once(text);
  const runs = Array.from({ length: RUNS }, () => once(text));
  const first = runs[0];
  if (first === undefined || first.errors > 0)
    throw new Error(`the generated domain has ${first?.errors} errors`);
  return {
    objects: first.objects,
    parse: median(runs.map((run) => run.parse)),
    convert: median(runs.map((run) => run.convert)),
    compile: median(runs.map((run) => run.compile)),
    total: median(runs.map((run) => run.total)),
  };
}

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const results = (sizes.length > 0 ? sizes : [100, 1000]).map(measure);
const baseline = results[0];
const ms = (value: number): string => value.toFixed(1).padStart(9);
console.log(`compile benchmark: median of ${RUNS} runs after ${WARM_UP} warm-up runs (ms)`);
console.log('  objects     parse   convert   compile     total   ms/object   total vs first');
for (const row of results) {
  const ratio = baseline ? row.total / baseline.total : 1;
  console.log(
    `${String(row.objects).padStart(9)}${ms(row.parse)} ${ms(row.convert)} ${ms(row.compile)} ${ms(row.total)}  ${(row.total / row.objects).toFixed(3).padStart(10)}  ${ratio.toFixed(1).padStart(14)}x`,
  );
}
