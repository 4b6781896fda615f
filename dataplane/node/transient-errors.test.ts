import assert from 'node:assert/strict';
import { Instant } from '../core/values.js';
import type { RoutingProblem } from '../sources/http/routing-table.js';
import type { ListenerStatus } from '../net/retrying-listener.js';
import { TransientErrors } from './transient-errors.js';

describe('TransientErrors', () => {
  let millis = 0;
  const errors = () => new TransientErrors(() => Instant.fromMillis(millis));
  beforeEach(() => {
    millis = Date.parse('2026-11-22T03:08:00Z');
  });

  it('a route problem keeps its since while it persists with the same code, and clears when gone', () => {
    const e = errors();
    const problem = (code: RoutingProblem['code']): RoutingProblem => ({
      code,
      target: 'd/in',
      message: 'm',
    });
    e.routesApplied([problem('tls_unavailable')]);
    millis += 5000;
    e.routesApplied([problem('tls_unavailable')]);
    assert.equal(e.ofTarget('d/in')?.since, '2026-11-22T03:08:00Z');
    e.routesApplied([problem('tls_invalid')]);
    assert.deepEqual(e.ofTarget('d/in'), {
      code: 'tls_invalid',
      message: 'm',
      since: '2026-11-22T03:08:05Z',
    });
    e.routesApplied([]);
    assert.equal(e.ofTarget('d/in'), null);
  });

  it('a listener error starts at its first failed attempt and ends when the listener runs', () => {
    const e = errors();
    const status = (state: ListenerStatus['state']): ListenerStatus => ({
      state,
      address: '127.0.0.1:1',
      failures: 1,
      ...(state === 'Retrying' ? { error: { code: 'EACCES', message: 'denied' }, backoffMs: 1000 } : {}),
    });
    e.listenerChanged('http', status('Starting'));
    e.listenerChanged('http', status('Retrying'));
    millis += 1000;
    e.listenerChanged('http', status('Starting'));
    e.listenerChanged('http', status('Retrying'));
    assert.deepEqual(e.ofListener('http', status('Retrying')), {
      code: 'EACCES',
      message: 'denied',
      since: '2026-11-22T03:08:00Z',
    });
    e.listenerChanged('http', status('Running'));
    assert.equal(e.ofListener('http', status('Running')), null);
    e.listenerChanged('http', status('Retrying'));
    assert.equal(e.ofListener('http', status('Retrying'))?.since, '2026-11-22T03:08:01Z');
  });
});
