import assert from 'node:assert/strict';
import type { FieldType } from '../../graph/field-types.js';
import type { GraphCodec, GraphSchema, JaqFormat } from '../../graph/types.js';
import { Instant, type RecordValues } from '../../core/values.js';
import type { Codec, DecodeResult, EncodeResult } from '../codec.js';
import { jaqCodec } from './jaq-codec.js';
import { JaqPool } from './jaq-pool.js';

function schema(...fields: [string, FieldType, boolean?][]): GraphSchema {
  return {
    fields: fields.map(([name, type, optional = false]) => ({ name, type, optional, sensitive: false })),
  };
}

const ORDERS = schema(['order_id', 'STRING'], ['amount', 'U64'], ['placed_at', 'DATETIME', true]);
const text = new TextEncoder();
const bytes = (payload: string): Uint8Array => text.encode(payload);

describe('JAQ codecs (docs/codecs.md "JAQ codecs")', function () {
  this.timeout(20_000);
  let pool: JaqPool;
  before(() => (pool = new JaqPool({ workers: 1, timeLimitMs: 1500 })));
  after(async () => pool.close());

  function codec(format: JaqFormat, ingestion: string, emitting?: string, of = ORDERS): Codec {
    const graphCodec: Extract<GraphCodec, { kind: 'jaq' }> = {
      kind: 'jaq',
      schema: 'orders',
      canEncode: emitting !== undefined,
      format,
      ingestion,
      ...(emitting === undefined ? {} : { emitting }),
      encodeRfc3339: [],
    };
    return jaqCodec(graphCodec, of, pool);
  }

  const decode = (of: Codec, payload: string): Promise<DecodeResult> =>
    Promise.resolve(of.decode(bytes(payload)));

  async function records(of: Codec, payload: string): Promise<RecordValues[]> {
    const result = await decode(of, payload);
    assert.ok('records' in result, 'error' in result ? `${result.error.code} ${result.error.reason}` : '');
    return result.records;
  }

  async function failure(of: Codec, payload: string): Promise<string> {
    const result = await decode(of, payload);
    assert.ok('error' in result, 'expected a message error');
    return `${result.error.code} ${result.error.reason}`;
  }

  it('unfolds an array into one record per element, in order, dropping surplus keys', async () => {
    const orders = codec('JSON', '.orders[] | {order_id: .id, amount, extra: "dropped"}');
    const body = JSON.stringify({
      orders: [
        { id: 'a', amount: 1 },
        { id: 'b', amount: 2 },
        { id: 'c', amount: 3 },
      ],
    });
    assert.deepEqual(await records(orders, body), [
      { order_id: 'a', amount: 1n, placed_at: null },
      { order_id: 'b', amount: 2n, placed_at: null },
      { order_id: 'c', amount: 3n, placed_at: null },
    ]);
  });

  it('passes a field-for-field object through `.` unchanged, with every digit of a U64', async () => {
    const body =
      '{"order_id":"x","amount":18446744073709551615,"placed_at":"2026-11-24T10:00:00.123456789Z"}';
    assert.deepEqual(await records(codec('JSON', '.'), body), [
      { order_id: 'x', amount: 18446744073709551615n, placed_at: new Instant(1795514400123456789n) },
    ]);
  });

  it('rejects a body as a whole when one element fails the schema', async () => {
    const orders = codec('JSON', '.orders[] | {order_id: .id, amount}');
    const body = JSON.stringify({
      orders: [
        { id: 'a', amount: 1 },
        { id: 'b', amount: -1 },
      ],
    });
    assert.equal(
      await failure(orders, body),
      'SR3006 output 2: key "amount": the value is out of the range of U64 (0 to 18446744073709551615)',
    );
  });

  it('gives an empty body’s program nothing to yield as no records, not an error', async () => {
    assert.deepEqual(await records(codec('JSON', '.orders[]?'), '{"orders":[]}'), []);
  });

  it('reads every YAML document as one input and keeps the payload whole', async () => {
    const orders = codec('YAML', '{order_id: .id, amount}');
    assert.deepEqual(await records(orders, 'id: a\namount: 1\n---\nid: b\namount: 2\n'), [
      { order_id: 'a', amount: 1n, placed_at: null },
      { order_id: 'b', amount: 2n, placed_at: null },
    ]);
    assert.match(
      await failure(orders, 'id: a\namount: 1\n---\nid: b\n'),
      /^SR3005 output 2: key "amount" is missing or null/,
    );
    const strict = codec('YAML', 'if .id == "b" then error("no b") else {order_id: .id, amount} end');
    assert.equal(
      await failure(strict, 'id: a\namount: 1\n---\nid: b\namount: 2\n'),
      'SR3012 the ON INGESTION program (document 2) failed: error_text, the program raised an error with a text message (error/1), or jq one this table does not know',
    );
  });

  it('turns bad payloads and failing programs into one message error each', async () => {
    assert.match(await failure(codec('JSON', '.'), '{"order_id": '), /^SR3002 /);
    assert.match(await failure(codec('YAML', '.'), 'a: [1, 2'), /^SR3010 /);
    assert.equal(
      await failure(codec('JSON', '.id[]'), '{"id":"secret"}'),
      'SR3012 the ON INGESTION program failed: iterate, iterating over a value that is neither an array nor an object (.[])',
    );
    const iterate = await decode(codec('JSON', '.id[]'), '{"id":"secret"}');
    assert.ok('error' in iterate);
    assert.deepEqual(iterate.error.detail, { clause: 'ON INGESTION', jqError: 'iterate' });
    assert.equal(
      await failure(codec('JSON', '.[]'), '[1]'),
      'SR3014 output 1 is an integer, not a JSON object',
    );
    assert.equal(
      await failure(codec('JSON', 'halt'), '{}'),
      'SR3012 the ON INGESTION program stopped jq (halt or halt_error)',
    );
    assert.equal(
      await failure(codec('JSON', 'first(range(1e18) | select(. < 0))'), '{}'),
      'SR3013 the ON INGESTION program ran past its time limit of 1500 ms',
    );
  });

  it('encodes with ON EMITTING into its format, and refuses to encode without it', async () => {
    const orders = codec('JSON', '.', '{id: .order_id, total: .amount, at: .placed_at}');
    const record = {
      order_id: 'x',
      amount: 18446744073709551615n,
      placed_at: new Instant(1795514400500000000n),
    };
    const encoded = (await orders.encode?.(record)) as EncodeResult;
    assert.ok('bytes' in encoded);
    assert.equal(
      new TextDecoder().decode(encoded.bytes),
      '{"id":"x","total":18446744073709551615,"at":"2026-11-24T10:00:00.5Z"}',
    );
    assert.equal(Reflect.get(codec('JSON', '.'), 'encode'), undefined, 'decode-only without ON EMITTING');
    const yaml = (await codec('YAML', '.', '{id: .order_id}').encode?.(record)) as EncodeResult;
    assert.ok('bytes' in yaml);
    assert.equal(new TextDecoder().decode(yaml.bytes), 'id: x\n');
  });

  it('needs exactly one value from ON EMITTING', async () => {
    const record = { order_id: 'x', amount: 1n, placed_at: null };
    const none = (await codec('JSON', '.', 'empty').encode?.(record)) as EncodeResult;
    const two = (await codec('JSON', '.', '., .').encode?.(record)) as EncodeResult;
    assert.ok('error' in none && 'error' in two);
    assert.equal(
      none.error.reason,
      'the ON EMITTING program yielded 0 values for a record; it must yield exactly one',
    );
    assert.equal(two.error.code, 'SR3015');
  });

  it('never shows the text of a program error, SENSITIVE fields or not: only its kind', async () => {
    const secret: GraphSchema = {
      fields: [{ name: 'card', type: 'STRING', optional: false, sensitive: true }],
    };
    const cards = codec('JSON', 'error("card \\(.card)")', undefined, secret);
    const reason = await failure(cards, '{"card":"4111111111111111"}');
    assert.equal(
      reason,
      'SR3012 the ON INGESTION program failed: error_text, the program raised an error with a text message (error/1), or jq one this table does not know',
    );
  });
});
