import assert from 'node:assert/strict';
import type { ListenerStatus } from '../net/retrying-listener.js';
import {
  assertBound,
  BindError,
  bindFailureText,
  retryingBinds,
  startupRetry,
  waitingText,
  type NodeListener,
} from './node-listeners.js';

function listener(status: Partial<ListenerStatus>, what = 'HTTP'): NodeListener {
  return {
    kind: 'http',
    what,
    setBy: '--http-listen-addr',
    status: { state: 'Running', address: '127.0.0.1:8080', failures: 0, ...status },
  };
}

const failed = (code: string): NodeListener =>
  listener({ state: 'Stopped', error: { code, message: `listen ${code}: …` }, failures: 1 });

describe('node listeners', () => {
  it('startupRetry: exit retries nothing until the node has started, then everything; retry always', () => {
    const exit = startupRetry('exit', { initialMs: 5, maxMs: 10 });
    assert.equal(exit.policy.retries?.(), false);
    assert.deepEqual(
      { initialMs: exit.policy.initialMs, maxMs: exit.policy.maxMs },
      { initialMs: 5, maxMs: 10 },
    );
    exit.started();
    assert.equal(exit.policy.retries?.(), true);
    const retry = startupRetry('retry');
    assert.equal(retry.policy.retries?.() ?? true, true);
  });

  for (const [code, text] of [
    ['EADDRINUSE', 'address already in use'],
    ['EACCES', 'permission denied'],
    ['EADDRNOTAVAIL', 'address not available'],
  ] as const) {
    it(`names the listener, the address, its flag and the system's reason: ${code}`, () => {
      assert.equal(
        bindFailureText(failed(code)),
        `cannot listen on 127.0.0.1:8080 (HTTP, --http-listen-addr): ${code}, ${text}; free the address or choose another, or start with --on-bind-error retry to wait for it`,
      );
    });
  }

  it('a code the system does not know is shown as it is', () => {
    assert.match(bindFailureText(failed('ERR_SERVER_ALREADY_LISTEN')), /: ERR_SERVER_ALREADY_LISTEN; /);
  });

  it('assertBound throws for a bind that was not retried, not for one that retries or a listener that runs', () => {
    const retrying = listener(
      { state: 'Retrying', error: { code: 'tls_unavailable', message: '…' } },
      'syslog',
    );
    assert.doesNotThrow(() => assertBound([listener({}), retrying]));
    assert.throws(
      () => assertBound([listener({}), failed('EACCES'), failed('EADDRINUSE')]),
      (error: unknown) => error instanceof BindError && /EACCES, permission denied/.test(error.message),
    );
    assert.deepEqual(retryingBinds([listener({}), retrying]), [retrying]);
    assert.equal(
      waitingText(retrying),
      'waiting for 127.0.0.1:8080 (syslog, --http-listen-addr): tls_unavailable; retrying',
    );
  });
});
