// Bad input reaching an embedded node: bodies that do not decode, expressions that fail at run time,
// manifests that do not parse or are not resources, and subscribers that are slow or vanish. Each gets
// the documented answer or diagnostic, the node keeps serving, and nothing accepted is lost silently:
// every loss is a counted drop with its reason, and a log line.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LogLine } from '../fixtures/graph-from-statements.js';
import { line, linesOf, eachTestNode, until, type NodeHarness } from '../fixtures/node-harness.js';

/** Values that must never appear in a log line. */
const SECRET = 's3cret-coupon-4711';
const MALFORMED = '{"order_id":"half-sent-8303",';
const EXTRA_KEY = JSON.stringify({ order_id: 'E2', amount: 1, coupon: SECRET });

describe('node e2e: bad input', () => {
  let node: NodeHarness;
  eachTestNode((started) => (node = started));

  describe('bodies that do not decode', () => {
    it('ON MESSAGE ERROR SEND TO errors: 202, and an error record with source, code, message and payload', async () => {
      const errors = await node.subscribe('errors');
      assert.equal((await node.post('/web/orders', MALFORMED)).status, 202);
      assert.equal((await node.post('/web/orders', EXTRA_KEY)).status, 202);
      assert.deepEqual(await linesOf(errors, 2, 'error records'), [
        line({
          source: 'web_in',
          code: 'SR3002',
          message: 'the payload is not valid JSON',
          payload: MALFORMED,
        }),
        line({
          source: 'web_in',
          code: 'SR3004',
          message: 'key 3 of the object is not in the wire schema',
          payload: EXTRA_KEY,
        }),
      ]);
      assert.equal(
        await node.metric('streamroute_message_errors_total', { name: 'web_in', reason: 'SR3002' }),
        1,
      );
      assert.equal(
        await node.metric('streamroute_message_errors_total', { name: 'web_in', reason: 'SR3004' }),
        1,
      );
      assert.equal(
        await node.metric('streamroute_records_in_total', { kind: 'relay', name: 'web_orders' }),
        0,
      );
      await node.assertPairs('OK1');
    });

    it('ON MESSAGE ERROR LOG: 202, a counted message error, and a log line without the payload', async () => {
      assert.equal((await node.post('/shop/orders', MALFORMED)).status, 202);
      assert.equal((await node.post('/shop/orders', EXTRA_KEY)).status, 202);
      const counted = (reason: string): Promise<number> =>
        node.metric('streamroute_message_errors_total', { kind: 'http-ingestor', name: 'shop_in', reason });
      await until(
        async () => (await counted('SR3002')) === 1 && (await counted('SR3004')) === 1,
        'both counted',
      );

      const logged = node
        .logged('message error')
        .filter((entry) => entry.name === 'shop_in')
        .map(({ level, code, reason, route }) => ({ level, code, reason, route }));
      assert.deepEqual(logged, [
        { level: 40, code: 'SR3002', reason: 'the payload is not valid JSON', route: 'shop_orders' },
        {
          level: 40,
          code: 'SR3004',
          reason: 'key 3 of the object is not in the wire schema',
          route: 'shop_orders',
        },
      ]);
      const allLogs = JSON.stringify(node.logs);
      assert.ok(
        !allLogs.includes(SECRET) && !allLogs.includes('half-sent-8303') && !allLogs.includes('coupon'),
        'no payload value or key is logged',
      );
      assert.equal(await node.metric('streamroute_records_in_total', { kind: 'relay', name: 'errors' }), 0);
      await node.assertPairs('OK2');
    });
  });

  it('expressions that fail at run time go to the error policy; an error record that cannot be built is a counted drop', async () => {
    // A null into a field that is not OPTIONAL cannot even be declared: the compiler refuses it (SR2007).
    const refused = await node.sql(`
      CREATE ENDPOINT null_ep ON local PATH '/null' TYPE HTTP;
      CREATE HTTP ENDPOINT INGESTOR null_in FROM null_ep MODE NO ACK ON QUIESCE DROP DECODE USING order_json
        TO web_orders INHERIT ALL SET channel = NULL UNBRANCHED FLUSH IMMEDIATE ON MESSAGE ERROR LOG
        ON GENERAL ERROR LOG;`);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /^-c:4:\d+: error SR2007: HttpIngestor null_in spec\.routes\[0\]\.set\[0\]\.value: /m,
    );

    // Division by zero (SR3101) goes to errors; an overflow (SR3102) whose error record fails (SR3103) is dropped.
    const created = await node.sql(`
      CREATE ENDPOINT ratio_ep ON local PATH '/ratio' TYPE HTTP;
      CREATE HTTP ENDPOINT INGESTOR ratio_in FROM ratio_ep MODE NO ACK ON QUIESCE DROP DECODE USING order_json
        TO web_orders INHERIT ALL SET amount = 1000 / input.amount, channel = 'ratio' UNBRANCHED FLUSH IMMEDIATE
          ON MESSAGE ERROR SEND TO errors
            SET source = 'ratio_in', code = error.code, message = error.message, payload = error.payload
        TO web_orders INHERIT ALL SET amount = input.amount * 1000000000000000, channel = 'scaled' UNBRANCHED
          FLUSH IMMEDIATE
          ON MESSAGE ERROR SEND TO errors
            SET source = substr(error.code, 1, -1), code = error.code, message = error.message
        ON GENERAL ERROR LOG;`);
    assert.equal(created.code, 0, created.stderr);
    const web = await node.subscribe('web-orders');
    const errors = await node.subscribe('errors');

    const zero = JSON.stringify({ order_id: 'R0', amount: 0 });
    assert.equal((await node.post('/ratio', zero)).status, 202);
    assert.deepEqual(await linesOf(errors, 1), [
      line({ source: 'ratio_in', code: 'SR3101', message: 'division by zero', payload: zero }),
    ]);
    assert.deepEqual(await linesOf(web, 1), [line({ order_id: 'R0', amount: 0, channel: 'scaled' })]);

    assert.equal((await node.post('/ratio', { order_id: 'R1', amount: 10_000 })).status, 202);
    assert.deepEqual((await linesOf(web, 2)).slice(1), [
      line({ order_id: 'R1', amount: 0, channel: 'ratio' }),
    ]);
    const ratio = (metric: string, reason: string): Promise<number> =>
      node.metric(metric, { kind: 'http-ingestor', name: 'ratio_in', reason });
    await until(
      async () => (await ratio('streamroute_drops_total', 'error_record_failed')) === 1,
      'the drop',
    );
    assert.equal(await ratio('streamroute_message_errors_total', 'SR3101'), 1);
    assert.equal(await ratio('streamroute_message_errors_total', 'SR3102'), 1);
    const drop = node
      .logged('records dropped')
      .map(({ name, code, failure, reason, count }) => ({ name, code, failure, reason, count }));
    assert.deepEqual(drop, [
      { name: 'ratio_in', code: 'SR3102', failure: 'SR3103', reason: 'error_record_failed', count: 1 },
    ]);
    assert.equal(errors.lines.length, 1);
  });

  describe('manifests', () => {
    it('a syntax error keeps the running graph and logs the diagnostic at FILE:LINE:COL', async () => {
      const text = node.readManifest();
      const version = await node.graphVersion();
      const errorLine = text.split('\n').length + 1;
      node.writeManifest(`${text}\nCREATE RELAY oops SCHEMA;\n`);
      await until(() => node.logged('keeps running what it ran').length === 1, 'the rejected reload');

      const diagnostics = node.logs.filter((entry) => entry.level === 50).map((entry) => entry.msg);
      assert.equal(diagnostics.length, 1);
      assert.ok(
        diagnostics[0]?.startsWith(`${node.manifestFile}:${errorLine}:`) &&
          / error SR1001: /.test(diagnostics[0]),
        diagnostics[0],
      );
      assert.equal(await node.graphVersion(), version);
      assert.doesNotMatch((await node.sql('SHOW RELAYS;')).stdout, /oops/);
      await node.assertPairs('OK3');
    });

    it('a file that is not a streamroute resource is SR1011 at FILE:1:1, and nothing changes', async () => {
      const version = await node.graphVersion();
      const file = join(node.manifestsDir, 'notes.yaml');
      writeFileSync(file, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n');
      await until(() => node.logged('keeps running what it ran').length === 1, 'the rejected reload');
      assert.ok(
        node.logs.some((entry) => entry.level === 50 && entry.msg.startsWith(`${file}:1:1: error SR1011: `)),
        'the diagnostic names the file',
      );
      assert.equal(await node.graphVersion(), version);
      await node.assertPairs('OK4');
    });
  });

  describe('subscribers', () => {
    const drops = (subscription: string, reason: string): Promise<number> =>
      node.metric('streamroute_drops_total', { kind: 'subscriber', name: `errors/${subscription}`, reason });

    /**
     * Posts bodies that become error records of 50 kB (they carry their payload) until every paused
     * subscriber in `stalled` has stalled — the client's socket buffers are full, so it drops every record
     * of 10 posts in a row — then a few more. Returns how many records the relay carried.
     */
    async function flood(stalled: readonly string[]): Promise<number> {
      const connection = await node.connect();
      let count = 0;
      const post = async (): Promise<void> => {
        const body = `${count} ${'x'.repeat(50_000)}`;
        count += 1;
        assert.equal((await connection.request({ path: '/web/orders', body })).status, 202);
      };
      const overflow = (): Promise<number[]> =>
        Promise.all(stalled.map((name) => drops(name, 'subscriber_overflow')));
      const relay = (): Promise<number> =>
        node.metric('streamroute_records_in_total', { kind: 'relay', name: 'errors' });
      for (let done = false; count < 1_000 && !done;) {
        const [before, carried] = [await overflow(), await relay()];
        for (let post10 = 0; post10 < 10; post10 += 1) await post();
        await until(async () => (await relay()) === carried + 10, 'the records on the relay');
        const after = await overflow();
        done = after.every((dropped, index) => dropped - (before[index] ?? 0) === 10);
      }
      for (let more = 0; more < 5; more += 1) await post();
      await until(async () => (await relay()) === count, 'the records on the relay');
      return count;
    }

    it('a subscriber that stops reading loses its oldest records, counted and logged; the others get everything', async () => {
      const slow = await node.subscribe('errors', 'slow', 1);
      slow.pause();
      const fast = await node.subscribe('errors', 'fast');
      const count = await flood(['slow']);
      await linesOf(fast, count, 'error records for the reading subscriber');

      const dropped = await drops('slow', 'subscriber_overflow');
      assert.ok(dropped > 0 && dropped < count, `the slow subscriber dropped ${dropped} of ${count}`);
      assert.equal(await node.metric('streamroute_drops_total', { name: 'errors/fast' }), 0);
      // The log line follows within the 10 s interval (on the node's clock).
      node.clock.advance(10_000);
      const logged = node
        .logged('records dropped')
        .filter((entry) => entry.name === 'errors/slow' && entry.reason === 'subscriber_overflow')
        .reduce((sum, entry) => sum + Number(entry.count), 0);
      assert.equal(logged, dropped);

      // Once it reads again it gets the rest: written + dropped is every record the relay carried.
      slow.resume();
      await until(() => slow.lines.length + dropped === count, 'the slow subscriber to catch up');
      // In order, and ending with the newest: a full buffer drops its oldest record, never the newcomer.
      const received = slow.lines.map((entry) =>
        Number((JSON.parse(entry) as { payload: string }).payload.split(' ')[0]),
      );
      assert.ok(
        received.every((id, index) => index === 0 || id > (received[index - 1] ?? id)),
        'in order',
      );
      assert.equal(received.at(-1), count - 1);
    });

    it('a subscriber that vanishes with records waiting is released, its waiting records counted as stopped', async () => {
      const gone = await node.subscribe('errors', 'gone', 1);
      gone.pause();
      const fast = await node.subscribe('errors', 'fast');
      const count = await flood(['gone']);
      await linesOf(fast, count, 'error records for the reading subscriber');

      gone.disconnect();
      const left = (): LogLine[] =>
        node.logged('subscriber left').filter((entry) => entry.subscription === 'gone');
      await until(() => left().length === 1, 'the node to notice');
      assert.deepEqual(
        left().map(({ finished, discarded, members }) => ({ finished, discarded, members })),
        [{ finished: false, discarded: 1, members: 0 }],
      );
      assert.equal(await drops('gone', 'stopped'), 1, 'its buffer of 1 was full');
      await node.assertPairs('OK5');
    });
  });
});
