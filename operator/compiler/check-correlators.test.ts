import assert from 'node:assert/strict';
import { checkCorrelators } from './check-correlators.js';
import { CompileContext, keyOf } from './context.js';
import { compileCase, object, objectsOf, table } from '../../test/fixtures/compile-cases.js';
import { resourceIndex } from './resource-index.js';

const SETUP = `
CREATE SCHEMA pay (order_id STRING, paid I64, note STRING OPTIONAL);
CREATE SCHEMA paid (order_id STRING, amount I64, paid I64);
CREATE RELAY payments SCHEMA pay UNBRANCHED;
CREATE RELAY paid SCHEMA paid UNBRANCHED;
CREATE RELAY unpaid SCHEMA orders UNBRANCHED;
CREATE RELAY late_payments SCHEMA pay UNBRANCHED;
CREATE RELAY wrong_late SCHEMA orders UNBRANCHED;`;

const correlator = (name: string, where: string, timeout: string, set: string): string =>
  `CREATE CORRELATOR ${name} LEFT FROM orders RIGHT FROM payments CORRELATE WHERE ${where}
     MATCH EARLIEST MAX TIME 30s ON CORRELATION TIMEOUT ${timeout} UNBRANCHED
     TO paid SET ${set} FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`;

const SET = 'order_id = left.order_id, amount = left.amount, paid = right.paid';

describe('check-correlators', () => {
  table([
    {
      name: 'a valid correlator lands with its hash keys',
      statements: `${SETUP}\n${correlator('c', 'left.order_id = right.order_id AND right.paid >= left.amount', 'SEND TO unpaid, SEND TO late_payments', SET)}`,
      expect: [],
      inGraph: ['correlators/c'],
    },
    {
      name: 'WHERE must be a BOOL over left. and right.; input. is not a scope here',
      statements: `${SETUP}
        ${correlator('c1', 'left.amount + right.paid', 'DROP, DROP', SET)}
        ${correlator('c2', 'input.order_id = right.order_id', 'DROP, DROP', SET)}`,
      expect: [
        {
          code: 'SR2005',
          object: 'Correlator/c1',
          path: 'spec.where',
          message: 'CORRELATE WHERE is I64; expected a BOOL condition',
        },
        {
          code: 'SR2008',
          object: 'Correlator/c2',
          path: 'spec.where',
          message: 'the input. scope is not available here; use left., right.',
        },
      ],
    },
    {
      name: 'a required output field unassigned, and input. in a route',
      statements: `${SETUP}\n${correlator('c', 'left.order_id = right.order_id', 'DROP, DROP', 'order_id = input.order_id, amount = left.amount')}`,
      expect: [
        {
          code: 'SR2008',
          object: 'Correlator/c',
          path: 'spec.routes[0].set[0].value',
          message: 'the input. scope is not available here',
        },
        {
          code: 'SR2004',
          object: 'Correlator/c',
          path: 'spec.routes[0]',
          message: 'leaves field paid (I64) of relay paid unassigned',
        },
      ],
    },
    {
      name: 'a timeout target whose schema differs from that side (SR2022)',
      statements: `${SETUP}\n${correlator('c', 'left.order_id = right.order_id', 'SEND TO unpaid, SEND TO wrong_late', SET)}`,
      expect: [
        {
          code: 'SR2022',
          object: 'Correlator/c',
          path: 'spec.onTimeout.right.relay',
          message: 'forwards right records of relay payments unchanged to relay wrong_late',
        },
      ],
    },
    {
      name: 'INHERIT in a correlator route is the kind’s rule (SR2020) at that route; required fields still checked',
      objects: [
        object('Correlator', 'inherits', {
          left: 'orders',
          right: 'orders',
          where: 'left.order_id = right.order_id',
          match: 'LATEST',
          maxTime: '1s',
          onTimeout: { left: { action: 'DROP' }, right: { action: 'DROP' } },
          branching: 'UNBRANCHED',
          routes: [
            {
              to: 'orders',
              inheritAll: true,
              branching: 'UNBRANCHED',
              flush: 'IMMEDIATE',
              onMessageError: { action: 'LOG' },
            },
          ],
        }),
      ],
      expect: [
        {
          code: 'SR2020',
          object: 'Correlator/inherits',
          path: 'spec.routes[0].inheritAll',
          message: 'INHERIT is rejected',
        },
        { code: 'SR2004', object: 'Correlator/inherits', path: 'spec.routes[0]', message: 'order_id' },
        { code: 'SR2004', object: 'Correlator/inherits', path: 'spec.routes[0]', message: 'amount' },
      ],
    },
  ]);

  it('lowers WHERE with its equality conjuncts as hash keys, durations in ms, the default MAX PENDING', () => {
    const result = compileCase({
      statements: `${SETUP}\n${correlator('c', 'right.order_id = left.order_id AND lower(left.order_id) = right.order_id AND left.amount = right.paid', 'DROP, SEND TO late_payments', SET)}`,
    });
    const lowered = result.graph.correlators.c;
    assert.deepEqual(lowered?.keys, [
      { left: 'order_id', right: 'order_id' },
      { left: 'amount', right: 'paid' },
    ]);
    assert.equal(lowered?.maxTimeMs, 30000);
    assert.equal(lowered?.maxPending, 100000);
    assert.deepEqual(lowered?.onTimeout, {
      left: { action: 'DROP' },
      right: { action: 'SEND_TO', relay: 'late-payments' },
    });
    assert.equal(lowered?.where.type, 'BOOL');
  });
});

describe('check-correlators: branch identity (SR2021)', () => {
  it('compares the correlator’s branching with every relay it uses', () => {
    const ctx = new CompileContext('shop', resourceIndex([], 'shop'));
    const relays = ['orders', 'payments', 'paid'].map((name) =>
      object('Relay', name, {
        schema: 'orders',
        branching: (name === 'payments' ? 'BRANCHED' : 'UNBRANCHED') as 'UNBRANCHED',
      }),
    );
    const correlator = objectsOf(`${SETUP}\n${correlator_('c')}`).find((o) => o.kind === 'Correlator');
    assert.ok(correlator);
    for (const relay of [...relays, correlator]) ctx.declare(keyOf(relay), relay);
    for (const relay of relays) ctx.setStatus(keyOf(relay), 'accepted');
    checkCorrelators(ctx, [correlator]);
    assert.deepEqual(
      ctx.diagnostics.map((d) => [d.code, d.path, d.message.includes('relay payments is BRANCHED')]),
      [['SR2021', 'spec.right', true]],
    );
  });
});

function correlator_(name: string): string {
  return correlator(name, 'left.order_id = right.order_id', 'DROP, DROP', SET);
}
