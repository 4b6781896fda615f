import assert from 'node:assert/strict';
import { HostPolicy } from './host-check.js';

describe('regression: DNS rebinding against the admin API (HostPolicy)', () => {
  const policy = new HostPolicy({
    listenHost: '10.1.2.3',
    allowedHosts: ['node-7.cluster.internal', '.admin.example', 'UPPER.Example'],
  });

  const cases: [string, boolean][] = [
    ['localhost', true],
    ['localhost:8081', true],
    ['LOCALHOST:8081', true],
    ['localhost.:8081', true],
    ['node.localhost:8081', true],
    ['127.0.0.1:8081', true],
    ['10.1.2.3:8081', true],
    ['192.0.2.9', true],
    ['[::1]:8081', true],
    ['[fe80::1]', true],
    ['node-7.cluster.internal:8081', true],
    ['admin.example', true],
    ['a.admin.example:8081', true],
    ['upper.example', true],
    ['evil.example:8081', false],
    ['evil.example', false],
    ['localhost.evil.example', false],
    ['evil-admin.example', false],
    ['127.0.0.1.evil.example', false],
    ['[::1', false],
    ['[not-ip]:8081', false],
    ['::1', false],
    ['', false],
    [':8081', false],
    ['user@localhost', false],
    ['localhost:8081/path', false],
    ['localhost evil', false],
  ];
  for (const [host, allowed] of cases)
    it(`Host ${JSON.stringify(host)} is ${allowed ? 'served' : 'refused'}`, () => {
      assert.equal(policy.allows(host, '/healthz'), allowed);
    });

  it('serves a request without a Host header (HTTP/1.0; browsers always send one)', () => {
    assert.equal(policy.allows(undefined, '/healthz'), true);
  });

  it('checks the authority of an absolute-form target as well as the Host header', () => {
    assert.equal(policy.allows('localhost', 'http://127.0.0.1:8081/healthz'), true);
    assert.equal(policy.allows('localhost', 'http://evil.example:8081/healthz'), false);
    assert.equal(policy.allows(undefined, 'HTTP://EVIL.example/healthz'), false);
    assert.equal(policy.allows('evil.example', 'http://localhost/healthz'), false);
  });

  it('answers for no name but loopback and IP addresses unless told', () => {
    const plain = new HostPolicy({ listenHost: '127.0.0.1' });
    assert.equal(plain.allows('node-7.cluster.internal', '/'), false);
    assert.equal(plain.allows('localhost', '/'), true);
  });
});
