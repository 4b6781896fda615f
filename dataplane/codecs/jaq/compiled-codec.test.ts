import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { GraphSchema, JaqFormat } from '../../graph/types.js';
import type { Codec, DecodeResult } from '../codec.js';
import { jaqCodec } from './jaq-codec.js';
import { JaqPool } from './jaq-pool.js';
import { programPathStats } from './program-path.js';

// A JAQ codec whose program is compiled (decision 0028): inputs it leaves to jq-wasm give jq's answer, every
// payload's records come back in payload order however the engines interleave, and the counters say which
// engine made them.
const SCHEMA: GraphSchema = {
  fields: [{ name: 'text', type: 'STRING', optional: false, sensitive: false }],
};
const encoder = new TextEncoder();

describe('JAQ codecs with a compiled program', function () {
  this.timeout(30_000);
  let pool: JaqPool;
  before(() => (pool = new JaqPool({ workers: 1 })));
  after(async () => pool.close());

  function codec(format: JaqFormat, ingestion: string, engine: 'auto' | 'jq-wasm' = 'auto'): Codec {
    const encodeRfc3339: string[] = [];
    const spec = { kind: 'jaq' as const, schema: 's', canEncode: false, format, ingestion, encodeRfc3339 };
    return jaqCodec(spec, SCHEMA, pool, engine);
  }

  const texts = (result: DecodeResult): string[] | string =>
    'records' in result ? result.records.map((record) => record.text as string) : result.error.code;

  it('a number jq prints as written goes to jq-wasm; the others are answered compiled', async () => {
    const compiled = codec('JSON', '{text: (.n | tostring)}');
    const before = { ...programPathStats };
    const payloads = ['{"n":1.50}', '{"n":2}', '{"n":1e2}', '{"n":0.25}'];
    const results = await Promise.all(payloads.map(async (p) => compiled.decode(encoder.encode(p))));
    assert.deepEqual(results.map(texts), [['1.50'], ['2'], ['1E+2'], ['0.25']]);
    assert.equal(programPathStats.compiledFallbacks - before.compiledFallbacks, 2);
    assert.equal(programPathStats.compiledRecords - before.compiledRecords, 2);
    assert.equal(programPathStats.engineRecords - before.engineRecords, 2);
  });

  it('keeps payload order when fallbacks and compiled answers interleave (generated)', async () => {
    const compiled = codec('JSON', '{text: (.n | tostring)}');
    await fc.assert(
      fc.asyncProperty(fc.array(fc.boolean(), { minLength: 1, maxLength: 40 }), async (slow) => {
        // `1.50` needs jq (engine), `7` does not; the text says which payload a record came from
        const payloads = slow.map((engine, at) => `{"n":${engine ? `${at}.50` : String(at)}}`);
        const settled: number[] = [];
        const decoding = payloads.map(async (payload, at) => {
          const result = await compiled.decode(encoder.encode(payload));
          settled.push(at);
          return texts(result);
        });
        const results = await Promise.all(decoding);
        assert.deepEqual(
          settled,
          payloads.map((_, at) => at),
          'payloads settle in order',
        );
        assert.deepEqual(
          results,
          slow.map((engine, at) => [engine ? `${at}.50` : String(at)]),
        );
      }),
      { numRuns: 25, seed: 18 },
    );
  });

  it('gives the records jq-wasm gives, for every format (generated objects)', async () => {
    const program = '{text: ([.. | scalars | tostring] | join(","))}';
    const json = fc.dictionary(
      fc.string({ minLength: 1, maxLength: 6 }),
      fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null)),
      { maxKeys: 6 },
    );
    for (const format of ['JSON', 'YAML'] as const) {
      const compiled = codec(format, program);
      const engine = codec(format, program, 'jq-wasm');
      await fc.assert(
        fc.asyncProperty(json, async (object) => {
          const payload = encoder.encode(JSON.stringify(object));
          const [ours, theirs] = await Promise.all([compiled.decode(payload), engine.decode(payload)]);
          assert.deepEqual(ours, theirs);
        }),
        { numRuns: 60, seed: 18 },
      );
    }
  });
});
