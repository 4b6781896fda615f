import assert from 'node:assert/strict';
import {
  graphFromStatements,
  harness,
  utf8,
  type Harness,
} from '../../test/fixtures/graph-from-statements.js';
import { readCounter } from '../core/telemetry.js';

const GRAPH = `
CREATE SCHEMA orders (order_id STRING, amount I64, qty U8, note STRING OPTIONAL);
CREATE WIRE JSON SCHEMA orders_wire MODE STRICT (order_id string, amount integer, qty integer, note string);
CREATE CODEC orders_json FROM WIRE JSON SCHEMA orders_wire TO SCHEMA orders;
CREATE SCHEMA digest (order_id STRING, label STRING, doubled I64, small U8, host STRING, note STRING OPTIONAL);
CREATE SCHEMA errors (code STRING, message STRING, payload STRING OPTIONAL, order_id STRING OPTIONAL,
                      host STRING OPTIONAL, doubled I64 OPTIONAL);
CREATE RELAY orders SCHEMA orders UNBRANCHED;
CREATE RELAY digests SCHEMA digest UNBRANCHED;
CREATE RELAY errors SCHEMA errors UNBRANCHED;
CREATE VHOST shop shop.example.com;
CREATE ENDPOINT orders_ep ON shop PATH '/orders' TYPE HTTP;
CREATE HTTP ENDPOINT INGESTOR orders_in FROM orders_ep MODE NO ACK ON QUIESCE DROP DECODE USING orders_json
  TO orders INHERIT ALL FLUSH IMMEDIATE
    ON MESSAGE ERROR SEND TO errors
      SET code = error.code, message = error.message, payload = error.payload, host = metadata.host
  TO digests
    INHERIT ALL,
    SET label = upper(output.order_id) || '/' || to_string(input.qty),
        doubled = input.amount * 2,
        small = input.qty + 1,
        host = metadata.host
    FLUSH IMMEDIATE
    ON MESSAGE ERROR SEND TO errors
      SET code = error.code, message = error.message, order_id = input.order_id, doubled = input.amount * 2
  ON GENERAL ERROR LOG;
`;

const METADATA = {
  host: 'shop.example.com',
  path: '/orders',
  remote_addr: '10.0.0.7:5123',
  content_type: null,
};
const ORDER = { order_id: 'o-1', amount: 21, qty: 3, note: null };

describe('routes', () => {
  let h: Harness;
  beforeEach(() => {
    h = harness(graphFromStatements(GRAPH));
  });

  const ingest = async (payload: Uint8Array): Promise<void> => {
    await h.topology.ingestors.get('orders-in')!.ingest(payload, METADATA);
  };
  const messageErrors = (code: string): Promise<number> =>
    readCounter(h.registry, 'streamroute_message_errors_total', { name: 'orders_in', reason: code });

  it('INHERIT ALL copies the fields, SET assigns in order and reads earlier fields as output.', async () => {
    await ingest(utf8(ORDER));
    assert.deepEqual(h.seen.get('orders'), [{ order_id: 'o-1', amount: 21n, qty: 3, note: null }]);
    assert.deepEqual(h.seen.get('digests'), [
      { order_id: 'o-1', label: 'O-1/3', doubled: 42n, small: 4, host: 'shop.example.com', note: null },
    ]);
    assert.deepEqual(h.seen.get('errors'), []);
  });

  it('a value that overflows its field fails that route only; its handler builds an error record', async () => {
    await ingest(utf8({ ...ORDER, qty: 255 }));
    assert.equal(h.seen.get('orders')?.length, 1);
    assert.deepEqual(h.seen.get('digests'), []);
    assert.deepEqual(h.seen.get('errors'), [
      {
        code: 'SR3102',
        message: 'arithmetic overflow: the result does not fit U8',
        payload: null,
        order_id: 'o-1',
        host: null,
        doubled: 42n,
      },
    ]);
    assert.equal(await messageErrors('SR3102'), 1);
  });

  it('a payload that does not decode goes to every route’s handler, with error.payload and all-null input.', async () => {
    await ingest(utf8('{"order_id": "o-1", "amount": '));
    const expected = {
      code: 'SR3002',
      message: 'the payload is not valid JSON',
      order_id: null,
      doubled: null,
    };
    assert.deepEqual(h.seen.get('errors'), [
      { ...expected, payload: '{"order_id": "o-1", "amount": ', host: 'shop.example.com' },
      { ...expected, payload: null, host: null },
    ]);
    assert.equal(await messageErrors('SR3002'), 2);
    assert.deepEqual([h.seen.get('orders'), h.seen.get('digests')], [[], []]);
  });

  it('error.payload is null when the payload is not valid UTF-8', async () => {
    await ingest(new Uint8Array([0x7b, 0xff, 0x7d]));
    assert.equal(h.seen.get('errors')?.[0]?.code, 'SR3001');
    assert.equal(h.seen.get('errors')?.[0]?.payload, null);
  });

  it('an error record that cannot be built is counted and logged as a drop, never re-routed', async () => {
    await ingest(utf8({ ...ORDER, amount: 2 ** 62 }));
    assert.equal(h.seen.get('orders')?.length, 1);
    assert.deepEqual([h.seen.get('digests'), h.seen.get('errors')], [[], []]);
    const drops = await readCounter(h.registry, 'streamroute_drops_total', {
      name: 'orders_in',
      reason: 'error_record_failed',
    });
    assert.equal(drops, 1);
    const line = h.logs.find((log) => log.msg === 'records dropped');
    assert.ok(line);
    assert.equal(line.reason, 'error_record_failed');
    assert.equal(line.code, 'SR3102');
    assert.match(String(line.detail), /error relay errors record could not be built: arithmetic overflow/);
  });

  it('never logs payload values', async () => {
    await ingest(utf8({ ...ORDER, order_id: 'SECRET-ORDER', qty: 255 }));
    await ingest(utf8('{"order_id":"SECRET-ORDER","amount":"SECRET-AMOUNT"}'));
    assert.ok(h.logs.length > 0);
    assert.doesNotMatch(JSON.stringify(h.logs), /SECRET/);
  });
});

describe('ON MESSAGE ERROR LOG and sensitive payloads', () => {
  const graph = `
    CREATE SCHEMA cards (card STRING SENSITIVE, amount I64);
    CREATE WIRE JSON SCHEMA cards_wire MODE STRICT (card string, amount integer);
    CREATE CODEC cards_json FROM WIRE JSON SCHEMA cards_wire TO SCHEMA cards;
    CREATE SCHEMA errors (code STRING, payload STRING OPTIONAL);
    CREATE RELAY cards SCHEMA cards UNBRANCHED;
    CREATE RELAY small SCHEMA cards UNBRANCHED;
    CREATE RELAY errors SCHEMA errors UNBRANCHED;
    CREATE VHOST shop shop.example.com;
    CREATE ENDPOINT cards_ep ON shop PATH '/cards' TYPE HTTP;
    CREATE HTTP ENDPOINT INGESTOR cards_in FROM cards_ep MODE NO ACK ON QUIESCE DROP DECODE USING cards_json
      TO cards INHERIT ALL FLUSH IMMEDIATE ON MESSAGE ERROR SEND TO errors SET code = error.code, payload = error.payload
      TO small INHERIT ALL, SET amount = input.amount * 1000 FLUSH IMMEDIATE ON MESSAGE ERROR LOG
      ON GENERAL ERROR LOG;`;

  it('error.payload is null when the source schema has SENSITIVE fields', async () => {
    const h = harness(graphFromStatements(graph));
    await h.topology.ingestors.get('cards-in')!.ingest(utf8('{"card":"4111-1111","amount":"x"}'), {});
    assert.deepEqual(h.seen.get('errors'), [{ code: 'SR3005', payload: null }]);
  });

  it('LOG logs the code, the reason and the route at warn, without values', async () => {
    const h = harness(graphFromStatements(graph));
    await h.topology.ingestors.get('cards-in')!.ingest(utf8({ card: '4111-1111', amount: 2 ** 60 }), {});
    assert.equal(h.seen.get('cards')?.length, 1);
    const warn = h.logs.find((log) => log.msg === 'message error');
    assert.ok(warn);
    assert.deepEqual(
      { level: warn.level, code: warn.code, route: warn.route, kind: warn.kind, name: warn.name },
      { level: 40, code: 'SR3102', route: 'small', kind: 'http-ingestor', name: 'cards_in' },
    );
    assert.doesNotMatch(JSON.stringify(h.logs), /4111|1152921504606846976/);
  });
});
