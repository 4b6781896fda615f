import assert from 'node:assert/strict';
import { DEFAULT_HTTP_LISTEN_ADDR, DEFAULT_HTTPS_LISTEN_ADDR, parseListenAddr } from './config.js';

describe('parseListenAddr', () => {
  const good: [string, string, number][] = [
    [DEFAULT_HTTP_LISTEN_ADDR, '0.0.0.0', 8080],
    [DEFAULT_HTTPS_LISTEN_ADDR, '0.0.0.0', 8443],
    ['127.0.0.1:0', '127.0.0.1', 0],
    ['[::]:8080', '::', 8080],
    ['[::1]:65535', '::1', 65535],
  ];
  for (const [text, host, port] of good) {
    it(`${text} → ${host} ${port}`, () => {
      assert.deepEqual(parseListenAddr(text), { ok: true, address: { host, port } });
    });
  }

  const bad: [string, RegExp][] = [
    ['8080', /expected IP:PORT/],
    ['localhost:8080', /"localhost" is not an IP address/],
    ['::1:8080', /expected IP:PORT/],
    ['[127.0.0.1]:8080', /is not an IP address/],
    ['0.0.0.0:65536', /port 65536 is above 65535/],
    ['0.0.0.0:', /expected IP:PORT/],
    ['0.0.0.0:http', /expected IP:PORT/],
  ];
  for (const [text, message] of bad) {
    it(`${text} is refused`, () => {
      const parsed = parseListenAddr(text);
      assert.equal(parsed.ok, false);
      if (!parsed.ok) assert.match(parsed.message, message);
    });
  }
});
