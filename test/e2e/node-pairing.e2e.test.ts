// The payments example on an embedded node, over real sockets: orders POSTed to two HTTP ingestors meet
// in a junction, two correlators pair them with payments (MATCH EARLIEST and MATCH LATEST), and what
// finds no partner within MAX TIME is sent to `unpaid` or dropped — counted and logged. Time is a
// ManualClock: the test moves it, nothing sleeps.
import assert from 'node:assert/strict';
import { line, linesOf, eachTestNode, until, type NodeHarness } from '../fixtures/node-harness.js';

const MAX_TIME_MS = 30_000;

describe('node e2e: pairing orders with payments', () => {
  let node: NodeHarness;
  eachTestNode((started) => (node = started));

  async function postAccepted(path: string, body: object): Promise<void> {
    const response = await node.post(path, body);
    assert.equal(response.status, 202, `POST ${path}`);
  }

  /** Waits until both correlators have taken `count` records (orders and payments together). */
  async function correlatorsTook(count: number): Promise<void> {
    for (const name of ['pay_first', 'pay_last']) {
      const labels = { kind: 'correlator', name };
      await until(
        async () => (await node.metric('streamroute_records_in_total', labels)) === count,
        `${name} to take ${count} records`,
      );
    }
  }

  it('pairs a web order and a shop order, both through the junction, with their payments', async () => {
    const orders = await node.subscribe('orders');
    const first = await node.subscribe('paid-first');
    const last = await node.subscribe('paid-last');

    await postAccepted('/web/orders', { order_id: 'A1', amount: 250 });
    await postAccepted('/shop/orders', { order_id: 'B1', amount: 90 });
    assert.deepEqual(await linesOf(orders, 2, 'orders'), [
      line({ order_id: 'A1', amount: 250, channel: 'web' }),
      line({ order_id: 'B1', amount: 90, channel: 'shop' }),
    ]);

    await postAccepted('/payments', { payment_id: 'P1', order_id: 'A1', amount: 250 });
    await postAccepted('/payments', { payment_id: 'P2', order_id: 'B1', amount: 100 });
    const paid = [
      line({ order_id: 'A1', payment_id: 'P1', channel: 'web', ordered: 250, paid: 250 }),
      line({ order_id: 'B1', payment_id: 'P2', channel: 'shop', ordered: 90, paid: 100 }),
    ];
    assert.deepEqual(await linesOf(first, 2, 'paid_first records'), paid);
    assert.deepEqual(await linesOf(last, 2, 'paid_last records'), paid);
    assert.equal(await node.metric('streamroute_message_errors_total'), 0);
    assert.equal(await node.metric('streamroute_drops_total'), 0);
  });

  it('MATCH EARLIEST pays the older of two waiting orders, MATCH LATEST the newer', async () => {
    const orders = await node.subscribe('orders');
    const first = await node.subscribe('paid-first');
    const last = await node.subscribe('paid-last');

    await postAccepted('/web/orders', { order_id: 'C1', amount: 100 });
    await linesOf(orders, 1, 'orders');
    node.clock.advance(1_000);
    await postAccepted('/shop/orders', { order_id: 'C1', amount: 200 });
    await linesOf(orders, 2, 'orders');
    node.clock.advance(1_000);

    await postAccepted('/payments', { payment_id: 'P3', order_id: 'C1', amount: 200 });
    assert.deepEqual(await linesOf(first, 1), [
      line({ order_id: 'C1', payment_id: 'P3', channel: 'web', ordered: 100, paid: 200 }),
    ]);
    assert.deepEqual(await linesOf(last, 1), [
      line({ order_id: 'C1', payment_id: 'P3', channel: 'shop', ordered: 200, paid: 200 }),
    ]);

    // Pairing consumes: the second payment takes the order each correlator left waiting.
    await postAccepted('/payments', { payment_id: 'P4', order_id: 'C1', amount: 200 });
    assert.deepEqual((await linesOf(first, 2)).slice(1), [
      line({ order_id: 'C1', payment_id: 'P4', channel: 'shop', ordered: 200, paid: 200 }),
    ]);
    assert.deepEqual((await linesOf(last, 2)).slice(1), [
      line({ order_id: 'C1', payment_id: 'P4', channel: 'web', ordered: 100, paid: 200 }),
    ]);

    // Nothing is left waiting: time passing times nothing out.
    node.clock.advance(MAX_TIME_MS * 2);
    assert.equal(await node.metric('streamroute_drops_total'), 0);
    assert.equal(await node.metric('streamroute_records_in_total', { kind: 'relay', name: 'unpaid' }), 0);
  });

  it('after MAX TIME an unpaid order goes to unpaid unchanged; unmatched payments and pay_last timeouts are counted drops', async () => {
    const unpaid = await node.subscribe('unpaid');
    const first = await node.subscribe('paid-first');
    await postAccepted('/web/orders', { order_id: 'U1', amount: 250 });
    await postAccepted('/payments', { payment_id: 'X1', order_id: 'NO-SUCH-ORDER', amount: 5 });
    await correlatorsTook(2);

    const timeouts = (name: string): Promise<number> =>
      node.metric('streamroute_drops_total', { kind: 'correlator', name, reason: 'correlation_timeout' });
    node.clock.advance(MAX_TIME_MS - 1);
    assert.equal(await timeouts('pay_first'), 0);
    assert.equal(await timeouts('pay_last'), 0);
    assert.equal(await node.metric('streamroute_records_in_total', { kind: 'relay', name: 'unpaid' }), 0);

    node.clock.advance(1);
    assert.deepEqual(await linesOf(unpaid, 1, 'unpaid orders'), [
      line({ order_id: 'U1', amount: 250, channel: 'web' }),
    ]);
    // pay_first: ON CORRELATION TIMEOUT SEND TO unpaid (left), DROP (right): the payment is dropped.
    assert.equal(await timeouts('pay_first'), 1);
    // pay_last: DROP, DROP: the order and the payment.
    assert.equal(await timeouts('pay_last'), 2);
    assert.equal(await node.metric('streamroute_drops_total'), 3, 'no other loss');

    const dropLines = node
      .logged('records dropped')
      .map(({ name, side, reason }) => ({ name, side, reason }))
      .sort((a, b) =>
        `${String(a.name)}/${String(a.side)}`.localeCompare(`${String(b.name)}/${String(b.side)}`),
      );
    assert.deepEqual(dropLines, [
      { name: 'pay_first', side: 'right', reason: 'correlation_timeout' },
      { name: 'pay_last', side: 'left', reason: 'correlation_timeout' },
      { name: 'pay_last', side: 'right', reason: 'correlation_timeout' },
    ]);

    // The timed-out order can no longer be paid.
    await postAccepted('/payments', { payment_id: 'P9', order_id: 'U1', amount: 250 });
    await correlatorsTook(3);
    assert.equal(await node.metric('streamroute_records_in_total', { kind: 'relay', name: 'paid_first' }), 0);
    assert.deepEqual(first.lines, []);
  });
});
