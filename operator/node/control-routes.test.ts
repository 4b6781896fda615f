import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendAdmin } from '../../test/fixtures/admin-client.js';
import { exampleText, openTestNode, removeDir, type TestNode } from '../../test/fixtures/embedded-node.js';
import { controlRoutes, type ControlHook } from './control-routes.js';
import type { DomainsReply, StatementReply } from './protocol.js';
import type { StatementExecutor } from './statement-executor.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done()` holds (checked every 5 ms). */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !done(); waited += 5) {
    if (waited > 5000) throw new Error(`timed out waiting until ${what}`);
    await sleep(5);
  }
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

describe('control routes', () => {
  let node: TestNode;
  let server: Server;
  let port: number;
  let hook: ControlHook;
  /** Requests the hook was handed. */
  let received: number;

  beforeEach(async () => {
    node = openTestNode();
    received = 0;
    hook = controlRoutes({
      executor: node.executor,
      store: node.store,
      queue: node.queue,
      logger: node.logger,
      maxBodyBytes: 4096,
    });
    // The admin server: its own paths first, then the hook, then 404.
    server = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      received++;
      void hook(request, response, url).then((handled) => {
        if (!handled) response.writeHead(404).end('not mine');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    node.close();
    removeDir(node.root);
  });

  /** A request as the CLI sends it: a POST says its body is JSON, unless `contentType` says otherwise. */
  async function call(
    method: string,
    path: string,
    body?: string | object,
    contentType: string | null = method === 'POST' ? 'application/json' : null,
  ): Promise<Answer> {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    const answer = await sendAdmin(port, {
      method,
      path,
      ...(text === undefined ? {} : { body: text }),
      ...(contentType === null ? {} : { contentType }),
    });
    let parsed: unknown = answer.body;
    try {
      parsed = JSON.parse(answer.body);
    } catch {
      // not JSON: kept as text
    }
    return { ...answer, body: parsed };
  }

  it('runs statements and lists domains', async () => {
    const answer = await call('POST', '/v1/domains/team-a/statements', {
      script: exampleText('quickstart/graph.sql'),
      source: 'graph.sql',
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    const reply = answer.body as StatementReply;
    assert.equal(reply.ok, true);
    assert.deepEqual(reply.results[0], {
      statement: 'CREATE SCHEMA orders',
      line: 8,
      column: 1,
      status: 'ok',
      graphVersion: 1,
    });
    const domains = await call('GET', '/v1/domains');
    const expected: DomainsReply = { domains: [{ name: 'team-a', graphVersion: 4, objects: 7 }] };
    assert.deepEqual(domains.body, expected);
  });

  it('answers a failing script with 200 and ok false', async () => {
    const answer = await call('POST', '/v1/domains/default/statements', { script: 'DROP RELAY nope;' });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, {
      ok: false,
      diagnostics: [],
      results: [
        {
          statement: 'DROP RELAY nope',
          line: 1,
          column: 1,
          status: 'error',
          diagnostics: [
            '<request>:1:1: error SR2001: DROP: there is no Relay nope in domain default (DROP … IF EXISTS allows that)',
          ],
        },
      ],
    });
  });

  it('stores an upload carried in base64', async () => {
    const answer = await call('POST', '/v1/domains/default/statements', {
      script: "CREATE RESOURCE pki; UPLOAD RESOURCE pki VERSION './pki';",
      source: '-c',
      uploads: [
        {
          resource: 'pki',
          directory: './pki',
          files: [{ path: 'certs/server.crt', base64: Buffer.from('CERT').toString('base64') }],
        },
      ],
    });
    assert.equal((answer.body as StatementReply).results[1]?.resourceVersion, 1);
    assert.equal(node.resources.files('default', 'pki', 1)?.get('certs/server.crt'), 'CERT');
  });

  const upload = (files: { path: string; base64: string }[]) => ({
    script: "CREATE RESOURCE pki; UPLOAD RESOURCE pki VERSION './pki';",
    uploads: [{ resource: 'pki', directory: './pki', files }],
  });
  const refused: {
    title: string;
    method?: string;
    path?: string;
    body: string | object;
    status: number;
    code: string;
  }[] = [
    { title: 'a body that is not JSON', body: '{"script": ', status: 400, code: 'invalid_json' },
    { title: 'a body without a script', body: { source: '-c' }, status: 400, code: 'invalid_request' },
    {
      title: 'uploads that are not a list',
      body: { script: '', uploads: {} },
      status: 400,
      code: 'invalid_request',
    },
    {
      title: 'bad base64',
      body: upload([{ path: 'a', base64: 'not base64!' }]),
      status: 400,
      code: 'invalid_upload',
    },
    {
      title: 'a path with ..',
      body: upload([{ path: '../a', base64: '' }]),
      status: 400,
      code: 'invalid_upload',
    },
    {
      title: 'an absolute path',
      body: upload([{ path: '/etc/a', base64: '' }]),
      status: 400,
      code: 'invalid_upload',
    },
    {
      title: 'a path given twice',
      body: upload([
        { path: 'a', base64: '' },
        { path: 'a', base64: '' },
      ]),
      status: 400,
      code: 'invalid_upload',
    },
    {
      title: 'uploads that do not match the UPLOAD statements',
      body: { script: "UPLOAD RESOURCE pki VERSION './pki';" },
      status: 400,
      code: 'invalid_request',
    },
    {
      title: 'a bad domain',
      path: '/v1/domains/Team_A/statements',
      body: { script: '' },
      status: 400,
      code: 'invalid_name',
    },
    {
      title: 'a domain longer than a namespace name (63)',
      path: `/v1/domains/${'a'.repeat(64)}/statements`,
      body: { script: '' },
      status: 400,
      code: 'invalid_name',
    },
    {
      title: 'a domain that is not valid percent-encoding',
      path: '/v1/domains/%E0%A4%A/statements',
      body: { script: '' },
      status: 400,
      code: 'invalid_path',
    },
    {
      title: 'a body over the limit',
      body: { script: 'x'.repeat(5000) },
      status: 413,
      code: 'body_too_large',
    },
    { title: 'GET on the statements path', method: 'GET', body: '', status: 405, code: 'method_not_allowed' },
    {
      title: 'POST on the domains path',
      method: 'POST',
      path: '/v1/domains',
      body: '',
      status: 405,
      code: 'method_not_allowed',
    },
  ];
  for (const {
    title,
    method = 'POST',
    path = '/v1/domains/default/statements',
    body,
    status,
    code,
  } of refused) {
    it(`refuses ${title} (${status} ${code})`, async () => {
      const answer = await call(method, path, body);
      assert.equal(answer.status, status);
      const error = (answer.body as { error: { code: string; message: string } }).error;
      assert.equal(error.code, code);
      assert.ok(error.message.length > 0);
      if (status === 405) assert.ok(answer.headers.allow === 'GET' || answer.headers.allow === 'POST');
      assert.deepEqual(node.store.domains(), [], 'nothing ran');
    });
  }

  it('stops reading a chunked body at the limit and closes the connection', async () => {
    const answer = await new Promise<Answer>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/domains/default/statements',
          headers: { 'content-type': 'application/json' },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
            }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.write('{"script": "');
      for (let index = 0; index < 5; index++) outgoing.write('x'.repeat(1000));
      outgoing.end('"}');
    });
    assert.equal(answer.status, 413);
    assert.equal(answer.headers.connection, 'close');
    assert.deepEqual(answer.body, {
      error: { code: 'body_too_large', message: 'the body is larger than 4096 bytes' },
    });
  });

  it('leaves other paths to the admin server', async () => {
    for (const path of ['/v1/domains/default', '/v1/domains/default/relays/orders/subscribe', '/metrics']) {
      const answer = await call('GET', path);
      assert.deepEqual([answer.status, answer.body], [404, 'not mine'], path);
    }
  });

  describe('bug: a web page could POST text/plain cross-site and run statements', () => {
    for (const type of [
      'text/plain',
      'text/plain; charset=utf-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      null,
    ]) {
      it(`refuses ${type ?? 'no Content-Type'} with 415 unsupported_media_type, before reading the body`, async () => {
        const answer = await call(
          'POST',
          '/v1/domains/default/statements',
          { script: 'CREATE SCHEMA a (x STRING);' },
          type,
        );
        assert.equal(answer.status, 415);
        assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
        assert.equal((answer.body as { error: { code: string } }).error.code, 'unsupported_media_type');
        assert.deepEqual(node.store.domains(), [], 'nothing ran');
      });
    }

    it('takes application/json with parameters, in any case', async () => {
      const answer = await call(
        'POST',
        '/v1/domains/default/statements',
        { script: 'CREATE SCHEMA a (x STRING);' },
        'Application/JSON; charset=utf-8',
      );
      assert.equal(answer.status, 200);
      assert.deepEqual(node.store.domains(), ['default']);
    });
  });

  it('bug: a failure quoted its message in the log and the 500 body — now the name and a fixed message', async () => {
    const failing = {
      execute: () => Promise.reject(new TypeError('secret-value from a record')),
    } as unknown as StatementExecutor;
    hook = controlRoutes({ executor: failing, store: node.store, queue: node.queue, logger: node.logger });
    const answer = await call('POST', '/v1/domains/default/statements', { script: '' });
    assert.equal(answer.status, 500);
    const { error } = answer.body as { error: { code: string; message: string } };
    assert.equal(error.code, 'internal_error');
    assert.doesNotMatch(error.message, /secret/);
    const logged = node.logs.filter((line) => line.level === 50);
    assert.equal(logged.length, 1);
    assert.equal(logged[0]?.error, 'TypeError');
    assert.doesNotMatch(JSON.stringify(node.logs), /secret/);
  });

  it('bug: concurrent POSTs each buffered a body — a request waits, unread, until the one before is answered', async () => {
    const answers: Answer[] = [];
    const first = new Promise<Answer>((resolve, reject) => {
      const outgoing = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/domains/default/statements',
          headers: { 'content-type': 'application/json' },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const answer = {
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown,
            };
            answers.push(answer);
            resolve(answer);
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.write('{"script": "CREATE SCHEMA a (x STRING);');
      void until(() => answers.length > 0 || received === 2, 'the second request arrived')
        .then(() => sleep(150))
        .then(() => outgoing.end('"}'));
    });
    await until(() => received === 1, 'the first request arrived');
    const second = call('POST', '/v1/domains/default/statements', {
      script: 'CREATE SCHEMA b (x STRING);',
    }).then((answer) => {
      answers.push(answer);
      return answer;
    });
    const [one, two] = await Promise.all([first, second]);
    assert.equal(answers[0], one, 'the second request was answered only after the first');
    assert.equal((one.body as StatementReply).results[0]?.graphVersion, 1);
    assert.equal((two.body as StatementReply).results[0]?.graphVersion, 2);
  });

  it('bug: work queued at stop ran after the node stopped — a closed queue answers 503 shutting_down', async () => {
    await node.queue.close();
    for (const [method, path] of [
      ['POST', '/v1/domains/default/statements'],
      ['GET', '/v1/domains'],
    ] as const) {
      const answer = await call(
        method,
        path,
        method === 'POST' ? { script: 'CREATE SCHEMA a (x STRING);' } : undefined,
      );
      assert.equal(answer.status, 503, `${method} ${path}`);
      assert.equal((answer.body as { error: { code: string } }).error.code, 'shutting_down');
    }
    assert.deepEqual(node.store.domains(), [], 'nothing ran');
  });
});
