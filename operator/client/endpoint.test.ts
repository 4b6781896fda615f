import assert from 'node:assert/strict';
import { DEFAULT_ADMIN_LISTEN_ADDR } from '../../dataplane/admin/admin-server.js';
import { chooseServer, DEFAULT_SERVER, domainUrl, parseServer, type Server } from './endpoint.js';

function server(text: string): Server {
  const parsed = parseServer(text);
  assert.ok(typeof parsed !== 'string', `${text}: ${typeof parsed === 'string' ? parsed : ''}`);
  return parsed;
}

describe('the node’s address', () => {
  const CASES: [string, string | RegExp][] = [
    ['http://127.0.0.1:8081', 'http://127.0.0.1:8081'],
    ['http://127.0.0.1:8081/', 'http://127.0.0.1:8081'],
    ['localhost:9000', 'http://localhost:9000'],
    ['https://node.example/admin', 'https://node.example/admin'],
    ['ftp://x', /http:\/\/ or https:\/\//],
    ['http://x/?a=1', /without \?query/],
    ['http://user:pw@x', /without user name/],
    ['http://[::1', /expected a URL/],
  ];
  for (const [text, expected] of CASES) {
    it(`${text} → ${String(expected)}`, () => {
      const parsed = parseServer(text);
      if (typeof expected === 'string')
        assert.equal(typeof parsed === 'string' ? parsed : parsed.shown, expected);
      else assert.match(typeof parsed === 'string' ? parsed : 'parsed', expected);
    });
  }

  it('the default is the admin listener’s default address', () => {
    assert.equal(DEFAULT_SERVER, `http://${DEFAULT_ADMIN_LISTEN_ADDR}`);
  });

  it('the flag wins over the environment, which wins over the default', () => {
    const flag = server('http://flag:1');
    assert.equal(chooseServer(flag, 'http://env:2'), flag);
    assert.equal((chooseServer(undefined, 'http://env:2') as Server).shown, 'http://env:2');
    assert.equal((chooseServer(undefined, '') as Server).shown, DEFAULT_SERVER);
    assert.equal((chooseServer(undefined, undefined) as Server).shown, DEFAULT_SERVER);
  });

  it('builds URLs under a path prefix, one encoded segment per name', () => {
    const target = { server: server('https://node.example/admin/'), domain: 'prod' };
    assert.equal(
      domainUrl(target, ['relays', 'a/b', 'subscriptions', 's'], { buffer: '5' }).href,
      'https://node.example/admin/v1/domains/prod/relays/a%2Fb/subscriptions/s?buffer=5',
    );
  });
});
