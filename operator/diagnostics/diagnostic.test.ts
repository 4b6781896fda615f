import assert from 'node:assert/strict';
import { compileCase, httpIngestor, route } from '../../test/fixtures/compile-cases.js';
import { positionIn, SourceMap, type Diagnostic } from './diagnostic.js';

const KEY = { kind: 'HttpIngestor', name: 'in' };
const PATH = 'spec.routes[0].set[0].value';

function located(within: Diagnostic['within'], inText: boolean, path = PATH): Diagnostic['location'] {
  const map = new SourceMap();
  map.set(KEY, '', { file: 'g.sql', line: 1, column: 1 });
  map.set(KEY, PATH, { file: 'g.sql', line: 10, column: 20 });
  const diagnostic: Diagnostic = { code: 'SR2003', severity: 'error', message: 'm', object: KEY, path };
  if (within !== undefined) diagnostic.within = within;
  return map.attach([diagnostic], () => inText)[0]?.location;
}

describe('diagnostic: locations inside an expression', () => {
  it('positionIn: 1-based line and column of an offset', () => {
    assert.deepEqual(positionIn('lower(\n  input.nope)', 0), { line: 1, column: 1 });
    assert.deepEqual(positionIn('lower(\n  input.nope)', 9), { line: 2, column: 3 });
  });

  it('moves the location onto the fault: on the first line by columns, on later lines to that column', () => {
    assert.deepEqual(located({ line: 1, column: 7 }, true), { file: 'g.sql', line: 10, column: 26 });
    assert.deepEqual(located({ line: 3, column: 5 }, true), { file: 'g.sql', line: 12, column: 5 });
  });

  it('keeps the field’s location where it is not the start of the text, or is only a parent’s', () => {
    assert.deepEqual(located({ line: 1, column: 7 }, false), { file: 'g.sql', line: 10, column: 20 });
    assert.deepEqual(located({ line: 1, column: 7 }, true, `${PATH}.deeper`), {
      file: 'g.sql',
      line: 10,
      column: 20,
    });
  });

  it('check-routes says where in the SET value the fault is', () => {
    const result = compileCase({
      statements: httpIngestor(
        'orders_in',
        'orders_json',
        route(
          'orders',
          'SET order_id = lower(\n  input.order_id) || upper(input.nope), amount = input.amount',
        ),
      ),
    });
    const [diagnostic] = result.diagnostics;
    assert.equal(diagnostic?.code, 'SR2003');
    assert.deepEqual(diagnostic.within, { line: 2, column: 28 });
  });

  it('check-correlators says where in CORRELATE WHERE the fault is', () => {
    const result = compileCase({
      statements: `CREATE CORRELATOR c LEFT FROM orders RIGHT FROM orders
        CORRELATE WHERE left.order_id = right.order_id AND right.nope = 1 MATCH EARLIEST MAX TIME 1s
        ON CORRELATION TIMEOUT DROP, DROP UNBRANCHED TO orders SET order_id = left.order_id, amount = 1
        FLUSH IMMEDIATE ON MESSAGE ERROR LOG;`,
    });
    const [diagnostic] = result.diagnostics;
    assert.equal(diagnostic?.code, 'SR2003');
    assert.deepEqual(diagnostic.within, { line: 1, column: 36 });
  });
});
