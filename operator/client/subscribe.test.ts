import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import {
  CapturedOutput,
  closedPort,
  replyJson,
  startCannedNode,
  type CannedHandler,
  type CannedNode,
} from '../../test/support/canned-node.js';
import { runCli } from '../cli/program.js';
import { EXIT } from './report.js';

const MAIN = join(import.meta.dirname, '..', 'cli', 'main.ts');

function startStream(response: ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/x-ndjson' });
  response.flushHeaders();
}

describe('streamroute subscribe', () => {
  let node: CannedNode | undefined;
  afterEach(async () => {
    await node?.close();
    node = undefined;
  });

  async function subscribe(handler: CannedHandler, argv: string[], output = new CapturedOutput()) {
    const stop = new AbortController();
    await node?.close();
    node = await startCannedNode(handler);
    const code = await runCli(['--server', node.url, ...argv], output, { signal: stop.signal });
    return { code, output, requests: node.requests, stop };
  }

  it('prints each record as it arrives, also one split across chunks and several in one chunk; Ctrl-C ends it with 0', async () => {
    const output = new CapturedOutput();
    const stop = new AbortController();
    const seen: string[][] = [];
    node = await startCannedNode(async (_request, response) => {
      startStream(response);
      response.write('{"id":1,"text":"caf');
      response.write('é"}\n{"id":');
      await output.untilOut(1);
      seen.push([...output.outs]);
      response.write('2}\n{"id":3}\n{"id":4}\n');
      await output.untilOut(4);
      seen.push([...output.outs]);
      stop.abort();
    });
    const code = await runCli(['--server', node.url, 'subscribe', 'audit', 'order_events'], output, {
      signal: stop.signal,
    });
    assert.equal(code, EXIT.ok, output.stderr);
    assert.deepEqual(seen, [
      ['{"id":1,"text":"café"}'],
      ['{"id":1,"text":"café"}', '{"id":2}', '{"id":3}', '{"id":4}'],
    ]);
    assert.equal(output.stderr, '');
    assert.equal(node.requests[0]?.method, 'GET');
    assert.equal(node.requests[0]?.url, '/v1/domains/default/relays/order-events/subscriptions/audit');
  });

  it('the node ending the stream ends the subscription with a note and exit 1', async () => {
    const { code, output } = await subscribe(
      (_request, response) => {
        startStream(response);
        response.end('{"id":1}\n\n{"id":2}\n{"id":');
      },
      ['subscribe', 's', 'r'],
    );
    assert.equal(code, EXIT.invalid);
    assert.deepEqual(output.outs, ['{"id":1}', '{"id":2}'], 'a blank line (keep-alive) is not a record');
    assert.equal(
      output.stderr,
      'streamroute: the stream ended inside a record; its first 6 bytes were not printed\n' +
        'streamroute: the node ended the subscription s to relay r (the relay was removed or the node stopped)\n',
    );
  });

  it('a connection lost mid-stream: exit 1', async () => {
    const { code, output } = await subscribe(
      (_request, response) => {
        startStream(response);
        response.write('{"id":1}\n', () => response.destroy());
      },
      ['subscribe', 's', 'r'],
    );
    assert.equal(code, EXIT.invalid);
    assert.deepEqual(output.outs, ['{"id":1}']);
    assert.match(
      output.stderr,
      /^streamroute: lost the connection to the node at http:\/\/127\.0\.0\.1:\d+ \(/,
    );
  });

  it('an interrupt before the node answers: exit 0, nothing printed', async () => {
    const output = new CapturedOutput();
    const stop = new AbortController();
    node = await startCannedNode(() => stop.abort());
    const code = await runCli(['--server', node.url, 'subscribe', 's', 'r'], output, { signal: stop.signal });
    assert.equal(code, EXIT.ok);
    assert.deepEqual([output.outs, output.errs], [[], []]);
  });

  it('-d and --server before or after the command; --buffer is passed on', async () => {
    const handler: CannedHandler = (_request, response) => {
      startStream(response);
      response.end();
    };
    const before = await subscribe(handler, ['-d', 'prod', 'subscribe', 's', 'r', '--buffer', '100']);
    assert.equal(before.requests[0]?.url, '/v1/domains/prod/relays/r/subscriptions/s?buffer=100');
    const after = await subscribe(handler, ['-d', 'ignored', 'subscribe', '-d', 'prod', 's', 'r']);
    assert.equal(
      after.requests[0]?.url,
      '/v1/domains/prod/relays/r/subscriptions/s',
      'the command’s own -d wins',
    );
    await node?.close();
    node = await startCannedNode(handler);
    const port = await closedPort();
    const output = new CapturedOutput();
    const code = await runCli(
      ['--server', `http://127.0.0.1:${port}`, 'subscribe', '--server', node.url, 's', 'r'],
      output,
      { signal: new AbortController().signal },
    );
    assert.equal(code, EXIT.invalid, output.stderr);
    assert.equal(node.requests.length, 1, 'the command’s own --server wins');
  });

  it('an unknown relay (404): named as typed (decision 0025), exit 1', async () => {
    const { code, output, requests } = await subscribe(
      (_request, response) =>
        replyJson(response, 404, {
          error: { code: 'unknown_relay', message: 'domain default has no relay orders-in' },
        }),
      ['subscribe', 's', 'Orders_In'],
    );
    assert.equal(code, EXIT.invalid);
    assert.match(requests[0]?.url ?? '', /\/relays\/orders-in\//);
    assert.equal(output.stderr, 'streamroute: domain default has no relay Orders_In on this node\n');
  });

  it('a 200 that is not a record stream: exit 3', async () => {
    const { code, output } = await subscribe(
      (_request, response) => replyJson(response, 200, { records: [] }),
      ['subscribe', 's', 'r'],
    );
    assert.equal(code, EXIT.io);
    assert.match(output.stderr, /answered HTTP 200 \(application\/json\), not a stream of records/);
  });

  it('names are identifiers or resource names (decision 0025), refused (exit 2) when neither', async () => {
    const { code, output, requests } = await subscribe(() => {}, ['subscribe', 'audit', 'order-events-']);
    assert.equal(code, EXIT.usage);
    assert.match(output.stderr, /invalid for argument 'relay'\. an identifier starts with a letter/);
    assert.equal(requests.length, 0);
    const wrongBuffer = await subscribe(() => {}, ['subscribe', '--buffer', '0', 's', 'r']);
    assert.equal(wrongBuffer.code, EXIT.usage);
  });

  it('as a process: SIGINT ends the subscription with exit 0 after the records printed so far', async () => {
    node = await startCannedNode((_request, response) => {
      startStream(response);
      response.write('{"id":1}\n');
    });
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', MAIN, '--server', node.url, 'subscribe', 's', 'r'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.endsWith('\n')) child.kill('SIGINT');
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, EXIT.ok, stderr);
    assert.equal(stdout, '{"id":1}\n');
    assert.equal(stderr, '');
  });
});
