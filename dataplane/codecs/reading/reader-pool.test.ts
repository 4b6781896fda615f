import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Instant } from '../../core/values.js';
import type { GraphSchema } from '../../graph/types.js';
import { wireJsonDecoder } from '../wire-json.js';
import { OrderedReads } from './ordered-reads.js';
import { ReaderPool } from './reader-pool.js';
import { readerFor, type ReadReply, type ViewRead } from './reader-spec.js';
import { YOUNG_GENERATION_MB, readerResourceLimits } from './reader-thread.js';
import { readingRecordsInOrder } from './records-in-order.js';

const text = (value: string): Uint8Array => new TextEncoder().encode(value);
/** A YAML flow sequence of `count` small integers: about 1 s and 500 MB per MiB for the yaml library. */
const slowYaml = (count: number): Uint8Array => text(`[${'1,'.repeat(count)}1]`);

describe('payload readers (reader-pool.ts)', function () {
  this.timeout(30_000);
  const pools: ReaderPool[] = [];
  const pool = (options: ConstructorParameters<typeof ReaderPool>[0] = {}): ReaderPool => {
    const made = new ReaderPool({ workers: 1, ...options });
    pools.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((made) => made.close()));
  });

  it('reads on a worker thread exactly what the format reads on the event loop', async () => {
    const reply = await pool().read(
      readerFor({ kind: 'format', format: 'YAML' }),
      text('a: 1\n---\nb: [2, 3]\n'),
    );
    assert.deepEqual(reply, { inputs: ['{"a":1}', '{"b":[2,3]}'] });
  });

  it('fails a payload past the time limit with SR3018 and reads the next one on a new thread', async () => {
    const readers = pool({ timeLimitMs: 100 });
    const yaml = readerFor({ kind: 'format', format: 'YAML' });
    const slow = await readers.read(yaml, slowYaml(400_000));
    assert.equal((slow as { error: { code: string } }).error.code, 'SR3018');
    assert.match((slow as { error: { reason: string } }).error.reason, /time limit of 100 ms/);
    assert.deepEqual(await readers.read(yaml, text('[1]')), { inputs: ['[1]'] });
    assert.equal(readers.stats.timeLimits, 1);
    assert.equal(readers.stats.threadsStarted, 2);
  });

  it('fails a payload past the heap limit with SR3018, and the process goes on', async () => {
    const readers = pool({ heapLimitMb: 16, timeLimitMs: 20_000 });
    const yaml = readerFor({ kind: 'format', format: 'YAML' });
    const reply = await readers.read(yaml, slowYaml(300_000));
    assert.equal((reply as { error: { code: string } }).error.code, 'SR3018');
    assert.match((reply as { error: { reason: string } }).error.reason, /memory limit of 16 MiB/);
    assert.equal(readers.stats.memoryLimits, 1);
    assert.deepEqual(await readers.read(yaml, text('[2]')), { inputs: ['[2]'] });
  });

  it('stops a thread at a 256 MiB heap limit without aborting the process (Node 24 young generation)', async () => {
    // Node 24 gives a thread a 192 MiB young generation unless told otherwise: enough promoted at once to
    // end a collection past the 16 MiB Node allows over the limit, and V8 then aborts the whole process.
    assert.deepEqual(readerResourceLimits(256), {
      maxOldGenerationSizeMb: 256,
      maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
    });
    const readers = pool({ heapLimitMb: 256, timeLimitMs: 25_000 });
    const yaml = readerFor({ kind: 'format', format: 'YAML' });
    const reply = await readers.read(yaml, slowYaml(520_000));
    assert.match((reply as { error: { reason: string } }).error.reason, /memory limit of 256 MiB/);
    assert.equal(readers.stats.memoryLimits, 1);
    assert.deepEqual(await readers.read(yaml, text('[3]')), { inputs: ['[3]'] });
  });

  it('refuses payloads beyond maxQueuedBytes at once with SR3019', async () => {
    const readers = pool({ maxQueuedBytes: 100 });
    const json = readerFor({ kind: 'format', format: 'JSON' });
    const replies = await Promise.all([
      readers.read(json, text('[1]')),
      readers.read(json, text(`[${'1,'.repeat(60)}1]`)),
    ]);
    assert.deepEqual(replies[0], { inputs: ['[1]'] });
    assert.equal((replies[1] as { error: { code: string } }).error.code, 'SR3019');
    assert.equal(readers.stats.refused, 1);
  });

  it('takes codecs in turn: a flood on one delays another by at most one read', async () => {
    const readers = pool({ timeLimitMs: 20_000 });
    const yaml = readerFor({ kind: 'format', format: 'YAML' });
    const json = readerFor({ kind: 'format', format: 'JSON' });
    const order: string[] = [];
    const flood = Array.from({ length: 4 }, (_, index) =>
      readers.read(yaml, slowYaml(20_000)).then(() => order.push(`yaml ${index}`)),
    );
    const other = readers.read(json, text('[1]')).then(() => order.push('json'));
    await Promise.all([...flood, other]);
    assert.ok(order.indexOf('json') <= 1, order.join(', '));
  });

  it('stops its threads when idle and starts one again for the next payload', async () => {
    const readers = pool({ idleStopMs: 20 });
    const json = readerFor({ kind: 'format', format: 'JSON' });
    await readers.read(json, text('[1]'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(await readers.read(json, text('[2]')), { inputs: ['[2]'] });
    assert.equal(readers.stats.threadsStarted, 2);
  });
});

describe('ordered reads (ordered-reads.ts)', function () {
  this.timeout(60_000);
  let readers: ReaderPool;
  before(() => {
    readers = new ReaderPool({ workers: 2 });
  });
  after(() => readers.close());

  it('hands payloads on in arrival order, whether read here or on a thread (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 12 }),
        async (sizes) => {
          const reads = new OrderedReads<ViewRead>(
            { kind: 'format', format: 'YAML' },
            { pool: () => readers, inlineBytes: 200 },
          );
          const seen: number[] = [];
          const payloads = sizes.map((size, index) => text(`[${index}${', 7'.repeat(size)}]`));
          const inline = (index: number) => () => ({ inputs: [`inline ${index}`] });
          const done = payloads.map((payload, index) =>
            reads.read(payload, inline(index), (read: ReadReply) => {
              seen.push(index);
              return read;
            }),
          );
          const replies = await Promise.all(done.map(async (reply) => reply));
          assert.deepEqual(
            seen,
            sizes.map((_, index) => index),
          );
          replies.forEach((reply, index) => {
            assert.ok('inputs' in reply);
            const first = reply.inputs[0] ?? '';
            assert.ok(
              first === `inline ${index}` || first.startsWith(`[${index},`) || first === `[${index}]`,
              first,
            );
          });
        },
      ),
      { numRuns: 25 },
    );
  });

  it('gives records read on a thread their DATETIME fields as Instants again', async () => {
    const schema: GraphSchema = {
      fields: [
        { name: 'at', type: 'DATETIME', optional: false, sensitive: false },
        { name: 'n', type: 'I64', optional: false, sensitive: false },
      ],
    };
    const graphCodec = {
      kind: 'wire-json' as const,
      schema: 's',
      canEncode: false,
      wireFields: [
        { name: 'at', type: 'string' as const },
        { name: 'n', type: 'integer' as const },
      ],
    };
    const decoder = wireJsonDecoder(graphCodec, schema);
    assert.ok(!('unsupported' in decoder));
    const codec = readingRecordsInOrder(decoder, { kind: 'wire-json', codec: graphCodec, schema });
    const body = text(`{"at":"2026-11-27T08:00:00.123456789Z","n":9007199254740993${' '.repeat(200_000)}}`);
    const decoded = await codec.decode(body);
    assert.ok('records' in decoded);
    const [record] = decoded.records;
    assert.ok(record?.['at'] instanceof Instant);
    assert.equal(record['at'].toRfc3339(), '2026-11-27T08:00:00.123456789Z');
    assert.equal(record['n'], 9007199254740993n);
  });
});
