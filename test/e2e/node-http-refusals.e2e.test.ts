// Why a request was refused, as an HTTP client of an embedded node sees it (docs/http-ingestion.md, "Why a
// request was refused"): with `--http-error-body explain` (the node's default) every 404, 405 and 413
// carries one line of text naming what was wrong and what is served; with `empty` the answers are bare.
// Either way each refusal is counted, and logged at info at most once a minute per reason (the node's
// ManualClock moves the minute), with the host escaped and cut and never the path or the body.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startNodeHarness, type HarnessNodeOptions, type NodeHarness } from '../fixtures/node-harness.js';
import type { RawRequest } from '../support/raw-http.js';

const BODY = JSON.stringify({ order_id: 'BODY-MARK-1', amount: 1 });
const MIB = 1024 * 1024;

/** One request per refusal the listener knows, and the line `explain` answers it with. */
const REFUSALS: { what: string; request: RawRequest; status: number; reason: string; text: string }[] = [
  {
    what: 'a host no vhost serves (the quickstart curl to 127.0.0.1)',
    request: { host: '127.0.0.1:8080', path: '/web/orders', body: BODY },
    status: 404,
    reason: 'unknown_host',
    text: 'no vhost for host "127.0.0.1"; known: localhost',
  },
  {
    what: 'no Host header (HTTP/1.0)',
    request: { host: null, version: '1.0', path: '/web/orders', body: BODY },
    status: 404,
    reason: 'unknown_host',
    text: 'no Host header; known: localhost',
  },
  {
    what: 'a Host that is not a host name',
    request: { host: 'shop:x', path: '/web/orders', body: BODY },
    status: 404,
    reason: 'unknown_host',
    text: 'Host "shop:x" is not a host name; known: localhost',
  },
  {
    what: 'a path no endpoint of the vhost has',
    request: { host: 'localhost', path: '/web/order?x=1', body: BODY },
    status: 404,
    reason: 'unknown_path',
    text: 'no endpoint at path "/web/order" on host localhost; known: /payments, /shop/orders, /web/orders',
  },
  {
    what: 'another method than POST',
    request: { method: 'GET', host: 'localhost', path: '/web/orders' },
    status: 405,
    reason: 'method_not_allowed',
    text: 'method GET is not allowed at "/web/orders" on host localhost; only POST is',
  },
  {
    what: 'a body over MAX BODY SIZE',
    request: { host: 'localhost', path: '/web/orders', body: ' '.repeat(MIB + 1) },
    status: 413,
    reason: 'body_too_large',
    text: 'the body is larger than 1048576 bytes, the MAX BODY SIZE of this endpoint',
  },
];

function eachNode(options: HarnessNodeOptions, use: (node: NodeHarness) => void): void {
  let node: NodeHarness | undefined;
  beforeEach(async () => {
    node = await startNodeHarness('payments', options);
    use(node);
  });
  afterEach(() => node?.close());
}

/** The sampled refusal lines of the node's log. */
function refusalLines(node: NodeHarness): Record<string, unknown>[] {
  return node.logs.filter((line) => (line as { event?: string }).event === 'http_request_refused');
}

describe('node e2e: refused HTTP requests explain themselves', () => {
  let node: NodeHarness;
  eachNode({}, (started) => (node = started));

  for (const { what, request, status, reason, text } of REFUSALS) {
    it(`${what}: ${status} with "${text}"`, async () => {
      const answer = await node.send(request);
      assert.equal(answer.status, status);
      assert.equal(answer.body, `${text}\n`);
      assert.equal(answer.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(answer.headers['x-content-type-options'], 'nosniff');
      assert.equal(
        await node.metric('streamroute_http_responses_total', {
          listener: 'http',
          status: String(status),
          reason,
        }),
        1,
      );
    });
  }

  it('quotes what the client sent escaped and cut: a hostile Host cannot forge text or grow the answer', async () => {
    const host = `evil"\\\u00e9${'x'.repeat(100)}`;
    const answer = await node.send({ host, path: '/web/orders', body: BODY });
    assert.equal(answer.status, 404);
    const quoted = `evil\\"\\\\\\xe9${'x'.repeat(57)}`;
    assert.equal(answer.body, `no vhost for host "${quoted}"…; known: localhost\n`);
  });

  it('a HEAD gets the status and the headers of the explanation, without its body', async () => {
    const head = await new Promise<{ status: number; length: string | undefined; body: string }>(
      (resolve, reject) => {
        const req = request(
          { port: node.httpPort, method: 'HEAD', path: '/web/orders', headers: { host: 'localhost' } },
          (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString()));
            res.on('end', () =>
              resolve({ status: res.statusCode ?? 0, length: res.headers['content-length'], body }),
            );
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    const text = 'method HEAD is not allowed at "/web/orders" on host localhost; only POST is\n';
    assert.deepEqual(head, { status: 405, length: String(text.length), body: '' });
  });

  it('logs one info line per reason a minute, with the host and how many went unlogged; never the path or body', async () => {
    const strange = { host: 'Strange.Example:8080', path: '/PATH-MARK', body: BODY };
    for (let i = 0; i < 3; i++) assert.equal((await node.send(strange)).status, 404);
    assert.equal((await node.send({ host: 'localhost', path: '/PATH-MARK', body: BODY })).status, 404);
    assert.deepEqual(
      refusalLines(node).map(({ reason, host, unlogged, level }) => ({ reason, host, unlogged, level })),
      [
        { reason: 'unknown_host', host: 'strange.example', unlogged: 0, level: 30 },
        { reason: 'unknown_path', host: 'localhost', unlogged: 0, level: 30 },
      ],
      'the first of each reason, not the repeats',
    );

    node.clock.advance(59_999);
    assert.equal((await node.send(strange)).status, 404);
    assert.equal(refusalLines(node).length, 2, 'still within the minute');
    node.clock.advance(1);
    assert.equal((await node.send({ ...strange, host: 'other.example' })).status, 404);
    const last = refusalLines(node).at(-1);
    assert.deepEqual(
      { reason: last?.reason, host: last?.host, unlogged: last?.unlogged },
      { reason: 'unknown_host', host: 'other.example', unlogged: 3 },
    );
    assert.equal(
      await node.metric('streamroute_http_responses_total', { reason: 'unknown_host' }),
      5,
      'the counter has every one',
    );
    const log = JSON.stringify(node.logs);
    assert.doesNotMatch(log, /PATH-MARK|BODY-MARK/);
  });
});

describe('node e2e: refused HTTP requests with --http-error-body empty', () => {
  let node: NodeHarness;
  eachNode({ httpErrorBody: 'empty' }, (started) => (node = started));

  it('answers every refusal with its status and no body, counts it, and logs it sampled all the same', async () => {
    for (const { request, status } of REFUSALS) {
      const answer = await node.send(request);
      assert.equal(answer.status, status);
      assert.equal(answer.body, '');
      assert.equal(answer.headers['content-type'], undefined);
    }
    const counted = await node.metric('streamroute_http_responses_total', { listener: 'http' });
    assert.equal(counted, REFUSALS.length);
    assert.deepEqual(
      refusalLines(node).map(({ reason }) => reason),
      ['unknown_host', 'unknown_path', 'method_not_allowed', 'body_too_large'],
    );
  });
});
