// Reading payloads built to be slow (not a timed test): for each worst-case family of
// test/fixtures/worst-case-bodies.ts at 1 MiB, how long reading it holds the event loop when it is read
// there (the baseline: what every payload cost before the payload readers) and when a payload reader reads
// it on a worker thread (the longest gap between 1 ms ticks of the event loop meanwhile), beside the read's
// own time and the event loop's heap growth. Medians of the rounds; families take turns within a round.
//
//   npx tsx test/bench/payload-reading.bench.ts [rounds]      (default: 3)
import { getHeapSpaceStatistics } from 'node:v8';
import { PAYLOAD_FORMATS } from '../../dataplane/codecs/formats/index.js';
import { ReaderPool } from '../../dataplane/codecs/reading/reader-pool.js';
import { readerFor, type Reader } from '../../dataplane/codecs/reading/reader-spec.js';
import { wireJsonDecoder } from '../../dataplane/codecs/wire-json.js';
import type { GraphSchema } from '../../dataplane/graph/types.js';
import { BODY_FAMILIES, type BodyFamily } from '../fixtures/worst-case-bodies.js';

const ROUNDS = Number(process.argv[2] ?? 3);
const SIZE = 1 << 20;
const MiB = 2 ** 20;

const SCHEMA: GraphSchema = { fields: [{ name: 'n', type: 'STRING', optional: true, sensitive: false }] };
const WIRE = {
  kind: 'wire-json' as const,
  schema: 's',
  canEncode: false,
  wireFields: [{ name: 'n', type: 'string' as const }],
};

function readerOf(family: BodyFamily): { reader: Reader; inline: (payload: Uint8Array) => unknown } {
  if (family.format === 'wire-json') {
    const decoder = wireJsonDecoder(WIRE, SCHEMA);
    if ('unsupported' in decoder) throw new Error(decoder.unsupported);
    return {
      reader: readerFor({ kind: 'wire-json', codec: WIRE, schema: SCHEMA }),
      inline: (p) => decoder.decode(p),
    };
  }
  const format = PAYLOAD_FORMATS[family.format];
  return { reader: readerFor({ kind: 'format', format: family.format }), inline: (p) => format.read(p) };
}

const heldHeap = (): number =>
  getHeapSpaceStatistics()
    .filter((space) => space.space_name !== 'new_space')
    .reduce((sum, space) => sum + space.space_used_size, 0);

/** The longest gap between 1 ms ticks while `work` runs. */
async function longestGap(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  await work();
  clearInterval(ticker);
  return Math.max(longest, performance.now() - last);
}

const median = (values: number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function main(): Promise<void> {
  const pool = new ReaderPool({ workers: 1, timeLimitMs: 10_000, heapLimitMb: 1024 });
  const rows = new Map<
    BodyFamily,
    { inline: number[]; heap: number[]; thread: number[]; gap: number[]; outcome: string }
  >();
  const body = (family: BodyFamily): Uint8Array => family.body(SIZE, 0);
  await pool.read(readerOf(BODY_FAMILIES[0] as BodyFamily).reader, new Uint8Array([0x31])); // thread started
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const family of BODY_FAMILIES) {
      const { reader, inline } = readerOf(family);
      const payload = body(family);
      const row = rows.get(family) ?? { inline: [], heap: [], thread: [], gap: [], outcome: '' };
      rows.set(family, row);
      const heapBefore = heldHeap();
      const started = performance.now();
      const result = inline(payload) as { error?: { code: string } };
      row.inline.push(performance.now() - started);
      row.heap.push((heldHeap() - heapBefore) / MiB);
      row.outcome = result.error?.code ?? 'ok';
      let threadMs = 0;
      row.gap.push(
        await longestGap(async () => {
          const begun = performance.now();
          await pool.read(reader, payload);
          threadMs = performance.now() - begun;
        }),
      );
      row.thread.push(threadMs);
    }
  }
  await pool.close();
  console.log(
    `| Family | inline: event loop held (ms) | heap after (MiB) | reader thread: read (ms) | event loop's longest gap (ms) | outcome |`,
  );
  console.log('|---|---:|---:|---:|---:|---|');
  for (const [family, row] of rows) {
    const cells = [median(row.inline), median(row.heap), median(row.thread), median(row.gap)].map((v) =>
      v.toFixed(v < 10 ? 1 : 0),
    );
    console.log(`| ${family.format} ${family.name} | ${cells.join(' | ')} | ${row.outcome} |`);
  }
}

await main();
