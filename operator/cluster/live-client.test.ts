// The CLI's side of the live API (live-client.ts) against scripted API-server answers: records to stdout,
// the operator's warnings to stderr, a stream the operator ends opened again, and a refusal on reopening
// (expired credentials) ending the command with the API server's reason.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import type { Cluster } from './cluster-target.js';
import { NOT_SERVED, runLiveSubscribe } from './live-client.js';

/** A response with `status` whose body is `lines`, then ends. */
function answer(status: number, lines: string[]): IncomingMessage {
  const body = new PassThrough();
  body.end(lines.map((line) => `${line}\n`).join(''));
  return Object.assign(body, { statusCode: status }) as unknown as IncomingMessage;
}

function clusterAnswering(answers: IncomingMessage[], paths: string[] = []): Cluster {
  const api = {
    stream: (spec: { path: string; query?: Record<string, unknown> }) => {
      paths.push(`${spec.path}?${new URLSearchParams(spec.query as Record<string, string>).toString()}`);
      const next = answers.shift();
      return next === undefined ? Promise.reject(new Error('no more answers')) : Promise.resolve(next);
    },
  };
  return { namespace: 'shop', api } as unknown as Cluster;
}

async function run(answers: IncomingMessage[], paths: string[] = []) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runLiveSubscribe(
    {
      cluster: clusterAnswering(answers, paths),
      relay: 'orders',
      subscription: 'audit',
      signal: new AbortController().signal,
      reconnectMs: 1,
    },
    { out: (line) => out.push(line), err: (line) => err.push(line) },
  );
  return { code, out, err };
}

describe('streamroute subscribe through the live API', () => {
  it('prints records on stdout and the operator’s warnings on stderr; reopens an ended stream', async () => {
    const paths: string[] = [];
    const expired = JSON.stringify({ kind: 'Status', message: 'Unauthorized', code: 401 });
    const { code, out, err } = await run(
      [
        answer(200, ['{"order_id":"A-1"}', '{"@warning":"pod dp-2: lost the stream"}']),
        answer(200, ['{"order_id":"A-2"}', '{"@warning":"the stream reached its maximum time and ends"}']),
        answer(401, [expired]),
      ],
      paths,
    );
    assert.deepEqual(out, ['{"order_id":"A-1"}', '{"order_id":"A-2"}']);
    assert.deepEqual(err, [
      'streamroute: pod dp-2: lost the stream',
      'streamroute: the live API ended the stream; opening it again',
      'streamroute: the stream reached its maximum time and ends',
      'streamroute: the live API ended the stream; opening it again',
      'streamroute: the API server did not accept your credentials (401: expired or revoked?): Unauthorized',
    ]);
    assert.equal(code, 1);
    assert.deepEqual(
      paths,
      Array(3).fill(
        '/apis/live.streamroute.io/v1alpha1/namespaces/shop/relays/orders/log?subscription=audit',
      ),
    );
  });

  it('says the live API is not served on a first 404, so the caller can use port-forwards', async () => {
    const { code } = await run([answer(404, ['404 page not found'])]);
    assert.equal(code, NOT_SERVED);
  });

  it('names the namespace and the API server’s message on a 403', async () => {
    const denied = JSON.stringify({ message: 'cannot get resource "relays/log" in the namespace "shop"' });
    const { code, err } = await run([answer(403, [denied])]);
    assert.equal(code, 1);
    assert.deepEqual(err, [
      'streamroute: not allowed in namespace shop (403): cannot get resource "relays/log" in the namespace "shop"',
    ]);
  });
});
