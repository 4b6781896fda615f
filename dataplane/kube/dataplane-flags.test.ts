import assert from 'node:assert/strict';
import { DATAPLANE_FLAGS, resolveDataplaneFlags } from './dataplane-flags.js';

const ENV = { NODE_NAME: 'node-1' };

describe('data-plane flags', () => {
  it('keeps the admin API on loopback and opens no health listener by default', () => {
    const result = resolveDataplaneFlags({}, ENV);
    assert.ok(result.ok);
    assert.deepEqual(result.flags.adminAddress, { host: '127.0.0.1', port: 8081 });
    assert.equal(result.flags.healthAddress, undefined);
  });

  it('parses --health-listen-addr (IPv4 and bracketed IPv6)', () => {
    const v4 = resolveDataplaneFlags({ healthListenAddr: '0.0.0.0:8090' }, ENV);
    assert.ok(v4.ok);
    assert.deepEqual(v4.flags.healthAddress, { host: '0.0.0.0', port: 8090 });
    const v6 = resolveDataplaneFlags({ healthListenAddr: '[::]:8090' }, ENV);
    assert.ok(v6.ok);
    assert.equal(v6.flags.healthAddress?.port, 8090);
  });

  for (const bad of ['8090', 'localhost:8090', '0.0.0.0:', '0.0.0.0:99999', '::1:8090', '']) {
    it(`refuses --health-listen-addr ${JSON.stringify(bad)}, naming the flag`, () => {
      const result = resolveDataplaneFlags({ healthListenAddr: bad }, ENV);
      assert.ok(!result.ok);
      assert.match(result.message, /^--health-listen-addr /);
    });
  }

  it('on a cluster: retries a port in use at start and answers refused HTTP requests with an empty body, unless told', () => {
    const defaults = resolveDataplaneFlags({}, ENV);
    assert.ok(defaults.ok);
    assert.deepEqual(
      { onBindError: defaults.flags.onBindError, httpErrorBody: defaults.flags.httpErrorBody },
      { onBindError: 'retry', httpErrorBody: 'empty' },
    );
    const told = resolveDataplaneFlags({ onBindError: 'exit', httpErrorBody: 'explain' }, ENV);
    assert.ok(told.ok);
    assert.deepEqual(
      { onBindError: told.flags.onBindError, httpErrorBody: told.flags.httpErrorBody },
      { onBindError: 'exit', httpErrorBody: 'explain' },
    );
  });

  for (const [flag, key, bad, choices] of [
    ['--on-bind-error', 'onBindError', 'Exit', 'exit, retry'],
    ['--on-bind-error', 'onBindError', '', 'exit, retry'],
    ['--http-error-body', 'httpErrorBody', 'verbose', 'explain, empty'],
  ] as const) {
    it(`refuses ${flag} ${JSON.stringify(bad)}, naming the flag and the choices`, () => {
      const result = resolveDataplaneFlags({ [key]: bad }, ENV);
      assert.ok(!result.ok);
      assert.equal(result.message, `${flag} ${bad}: expected one of ${choices}`);
    });
  }

  it('takes --log-format json or text, and leaves it to stderr when absent', () => {
    const none = resolveDataplaneFlags({}, ENV);
    assert.ok(none.ok);
    assert.equal(none.flags.logFormat, undefined);
    for (const format of ['json', 'text'] as const) {
      const result = resolveDataplaneFlags({ logFormat: format }, ENV);
      assert.ok(result.ok);
      assert.equal(result.flags.logFormat, format);
    }
    for (const bad of ['', 'JSON', 'pretty']) {
      const result = resolveDataplaneFlags({ logFormat: bad }, ENV);
      assert.ok(!result.ok);
      assert.equal(result.message, `--log-format ${bad}: expected one of json, text`);
    }
  });

  it('lists --health-listen-addr in the flag table (both entry points take it)', () => {
    assert.ok(
      DATAPLANE_FLAGS.some(
        ([key, usage]) => key === 'healthListenAddr' && usage.startsWith('--health-listen-addr '),
      ),
    );
  });
});
