import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CapturedOutput,
  closedPort,
  replyJson,
  startCannedNode,
  type CannedHandler,
  type CannedNode,
  type RecordedRequest,
} from '../../test/support/canned-node.js';
import { runCli } from '../cli/program.js';
import { EXIT } from './report.js';
import type { ClientContext } from '../cli/node-commands.js';
import type { Stdin } from './scripts.js';
import type { StatementsReply, StatementsRequest, StatementResult } from './protocol.js';

const scratch = mkdtempSync(join(tmpdir(), 'streamroute-client-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const NO_STDIN: Stdin = {
  isTTY: true,
  read: () => Promise.reject(new Error('stdin must not be read')),
};

function ok(statement: string, extra: Partial<StatementResult> = {}): StatementResult {
  return { statement, line: 1, column: 1, status: 'ok', ...extra };
}

function reply(results: StatementResult[], diagnostics: string[] = []): StatementsReply {
  const failed = diagnostics.length > 0 || results.some((result) => result.status !== 'ok');
  return { ok: !failed, diagnostics, results };
}

/** A node that answers every statements request with `answer` (or the reply for that request). */
function answering(
  answer: StatementsReply | ((request: StatementsRequest) => StatementsReply),
): CannedHandler {
  return (request, response) => {
    const body = JSON.parse(request.body) as StatementsRequest;
    replyJson(response, 200, typeof answer === 'function' ? answer(body) : answer);
  };
}

function sent(request: RecordedRequest | undefined): StatementsRequest {
  assert.ok(request, 'a request was sent');
  return JSON.parse(request.body) as StatementsRequest;
}

describe('streamroute -c / -f / stdin: running statements on a node', () => {
  let node: CannedNode | undefined;
  afterEach(async () => {
    await node?.close();
    node = undefined;
  });

  async function run(handler: CannedHandler, argv: string[], context: ClientContext = {}) {
    await node?.close();
    node = await startCannedNode(handler);
    const output = new CapturedOutput();
    const code = await runCli(['--server', node.url, ...argv], output, { stdin: NO_STDIN, ...context });
    return { code, output, requests: node.requests };
  }

  it('posts the script of -c to the domain and prints tags, output and the graph version (exit 0)', async () => {
    const { code, output, requests } = await run(
      answering(
        reply([
          ok('CREATE RELAY orders', { graphVersion: 3 }),
          ok('SHOW RELAYS', { output: 'orders' }),
          ok('ALTER RELAY orders', { warnings: ['nothing changed'] }),
        ]),
      ),
      ['-d', 'team-a', '-c', 'CREATE RELAY orders ...; SHOW RELAYS; ALTER RELAY orders ...;'],
    );
    assert.equal(code, EXIT.ok, output.stderr);
    assert.equal(
      output.stdout,
      'CREATE RELAY orders\n-- domain team-a runs graph version 3\nSHOW RELAYS\norders\nALTER RELAY orders\n',
    );
    assert.equal(output.stderr, 'warning: nothing changed\n');
    assert.equal(requests.length, 1);
    const [request] = requests;
    assert.equal(request?.method, 'POST');
    assert.equal(request?.url, '/v1/domains/team-a/statements');
    assert.match(request?.headers['content-type'] ?? '', /^application\/json/);
    assert.deepEqual(sent(request), {
      script: 'CREATE RELAY orders ...; SHOW RELAYS; ALTER RELAY orders ...;',
      source: '-c',
      uploads: [],
    });
  });

  it('prints a failed statement’s diagnostics and sums up what did not run (exit 1)', async () => {
    const failed: StatementResult = {
      statement: 'CREATE CODEC c',
      line: 2,
      column: 1,
      status: 'error',
      diagnostics: ['-c:2:1: error SR2001: Codec c: schema s does not exist'],
    };
    const notRun: StatementResult = { statement: 'SHOW CODECS', line: 3, column: 1, status: 'not_run' };
    const { code, output } = await run(
      answering(reply([ok('CREATE SCHEMA s'), failed, notRun, { ...notRun, statement: 'SHOW RELAYS' }])),
      ['-c', 'CREATE SCHEMA s (a STRING);\nCREATE CODEC c …;\nSHOW CODECS; SHOW RELAYS;'],
    );
    assert.equal(code, EXIT.invalid);
    assert.equal(output.stdout, 'CREATE SCHEMA s\n');
    assert.equal(
      output.stderr,
      '-c:2:1: error SR2001: Codec c: schema s does not exist\n2 statements not run after the error\n',
    );
  });

  it('a failure without diagnostics still says where (exit 1)', async () => {
    const { code, output } = await run(
      answering(reply([{ statement: 'DROP RELAY r', line: 4, column: 3, status: 'error' }])),
      ['-c', 'DROP RELAY r'],
    );
    assert.equal(code, EXIT.invalid);
    assert.equal(output.stderr, '-c:4:3: error: DROP RELAY r failed\n');
  });

  it('syntax errors: the script is still sent, the node’s diagnostics are printed as given (exit 1)', async () => {
    const { code, output, requests } = await run(
      answering(reply([], ['-c:1:8: error SR1001: expected a kind', '1 error'])),
      ['-c', "CREATE GARBAGE x; UPLOAD RESOURCE p VERSION '/no/such/directory';"],
    );
    assert.equal(code, EXIT.invalid);
    assert.equal(output.stderr, '-c:1:8: error SR1001: expected a kind\n1 error\n');
    assert.deepEqual(sent(requests[0]).uploads, [], 'a script that does not parse reads no directory');
  });

  it('a transaction is sent whole, as one script; the COMMIT reports the graph version', async () => {
    const script = 'BEGIN;\nCREATE RELAY a …;\nCREATE RELAY b …;\nCOMMIT;';
    const { code, output, requests } = await run(
      answering(
        reply([ok('BEGIN'), ok('CREATE RELAY a'), ok('CREATE RELAY b'), ok('COMMIT', { graphVersion: 7 })]),
      ),
      ['-c', script],
    );
    assert.equal(code, EXIT.ok, output.stderr);
    assert.equal(requests.length, 1);
    assert.equal(sent(requests[0]).script, script);
    assert.match(output.stdout, /COMMIT\n-- domain default runs graph version 7\n$/);
  });

  it('an error answer from the node is printed with its code (exit 1)', async () => {
    const { code, output } = await run(
      (_request, response) =>
        replyJson(response, 413, {
          error: { code: 'payload_too_large', message: 'the body is over 64 MiB' },
        }),
      ['-c', 'SHOW RELAYS'],
    );
    assert.equal(code, EXIT.invalid);
    assert.equal(
      output.stderr,
      'streamroute: -c: the node refused the script: the body is over 64 MiB (payload_too_large, HTTP 413)\n',
    );
  });

  it('-f sends the file with its path as the source', async () => {
    const file = join(scratch, 'graph.sql');
    writeFileSync(file, 'SHOW RELAYS;\n');
    const { code, requests } = await run(answering(reply([ok('SHOW RELAYS')])), ['-f', file]);
    assert.equal(code, EXIT.ok);
    assert.deepEqual(sent(requests[0]), { script: 'SHOW RELAYS;\n', source: file, uploads: [] });
  });

  it('-f with a file that cannot be read: exit 3, nothing sent', async () => {
    const { code, output, requests } = await run(answering(reply([])), [
      '-c',
      'SHOW RELAYS',
      '-f',
      '/no/such.sql',
    ]);
    assert.equal(code, EXIT.io);
    assert.equal(output.stderr, 'streamroute: cannot read /no/such.sql: no such file or directory\n');
    assert.equal(requests.length, 0);
  });

  it('several -c and -f run in the order given, each its own script; the first failure stops the rest', async () => {
    const file = join(scratch, 'second.sql');
    writeFileSync(file, 'DROP RELAY gone;');
    const { code, output, requests } = await run(
      answering((request) =>
        request.source === file
          ? reply([
              { statement: 'DROP RELAY gone', line: 1, column: 1, status: 'error', diagnostics: ['no'] },
            ])
          : reply([ok('SHOW RELAYS')]),
      ),
      ['-c', 'SHOW RELAYS', '-f', file, '-c', 'SHOW CODECS'],
    );
    assert.equal(code, EXIT.invalid);
    assert.deepEqual(
      requests.map((request) => sent(request).source),
      ['-c', file],
    );
    assert.equal(output.stdout, 'SHOW RELAYS\n');
    assert.equal(output.stderr, 'no\nstreamroute: not run after the error: -c\n');
  });

  it('reads stdin when there is neither -c nor -f and stdin is not a terminal', async () => {
    const stdin = { isTTY: false, read: () => Promise.resolve('SHOW RELAYS;') };
    const { code, requests } = await run(answering(reply([ok('SHOW RELAYS')])), [], { stdin });
    assert.equal(code, EXIT.ok);
    assert.deepEqual(sent(requests[0]), { script: 'SHOW RELAYS;', source: '<stdin>', uploads: [] });
  });

  it('-f - reads stdin, also from a terminal', async () => {
    const stdin = { isTTY: true, read: () => Promise.resolve('SHOW CODECS;') };
    const { code, requests } = await run(answering(reply([ok('SHOW CODECS')])), ['-f', '-'], { stdin });
    assert.equal(code, EXIT.ok);
    assert.equal(sent(requests[0]).source, '<stdin>');
    const twice = await run(answering(reply([])), ['-f', '-', '-f', '-'], { stdin });
    assert.equal(twice.code, EXIT.usage);
    assert.equal(twice.output.stderr, 'streamroute: -f - reads stdin, which can be read only once\n');
  });

  it('no input on a terminal: the shell runs on that terminal; \\q ends it (exit 0)', async () => {
    const input = new PassThrough();
    const screen = new PassThrough();
    let shown = '';
    screen.on('data', (chunk: Buffer) => (shown += chunk.toString('utf8')));
    input.end('SHOW RELAYS\n;\n\\q\n');
    const terminal = { input, output: screen, errors: screen };
    const env = { STREAMROUTE_HISTORY: '' };
    const { code, requests } = await run(answering(reply([ok('SHOW RELAYS')])), [], { terminal, env });
    assert.equal(code, EXIT.ok);
    assert.match(shown, /^streamroute shell: domain default on node http:\/\/127\.0\.0\.1:\d+\./);
    const scripts = requests.map((request) => sent(request).script);
    assert.ok(scripts.includes('SHOW RELAYS\n;'), scripts.join(' | '));
  });

  it('the shell whose input ends while a statement runs finishes it and exits 0 (no prompt on a closed terminal)', async () => {
    const input = new PassThrough();
    const screen = new PassThrough();
    let shown = '';
    screen.on('data', (chunk: Buffer) => (shown += chunk.toString('utf8')));
    input.end('SHOW RELAYS;\n');
    const slow: CannedHandler = (request, response) => {
      setTimeout(() => void answering(reply([ok('SHOW RELAYS')]))(request, response), 200);
    };
    const terminal = { input, output: screen, errors: screen };
    const { code, requests } = await run(slow, [], { terminal, env: { STREAMROUTE_HISTORY: '' } });
    assert.equal(code, EXIT.ok, shown);
    const scripts = requests.map((request) => sent(request).script);
    assert.ok(scripts.includes('SHOW RELAYS;'), scripts.join(' | '));
  });

  it('a script of nothing but comments needs no node', async () => {
    const stdin = { isTTY: false, read: () => Promise.resolve('-- nothing yet\n') };
    const port = await closedPort();
    const output = new CapturedOutput();
    const code = await runCli(['--server', `http://127.0.0.1:${port}`], output, { stdin });
    assert.equal(code, EXIT.ok, output.stderr);
  });

  it('-c with a command is a wrong command line (exit 2)', async () => {
    const { code, output } = await run(answering(reply([])), [
      '-c',
      'SHOW RELAYS',
      'describe',
      'emitter',
      'e',
    ]);
    assert.equal(code, EXIT.usage);
    assert.match(output.stderr, /-c and -f run statements; they do not go with describe/);
  });

  it('-d must be a namespace name (exit 2)', async () => {
    const { code, output, requests } = await run(answering(reply([])), ['-d', '..', '-c', 'SHOW RELAYS']);
    assert.equal(code, EXIT.usage);
    assert.match(output.stderr, /a domain is a namespace name/);
    assert.equal(requests.length, 0);
  });

  describe('UPLOAD RESOURCE reads the directory where the client runs and sends it', () => {
    const tree = join(scratch, 'protos');
    const binary = Buffer.from([0, 1, 2, 0xfe, 0xff, 0x0a, 0x0d]);
    before(() => {
      mkdirSync(join(tree, 'nested', 'deeper'), { recursive: true });
      writeFileSync(join(tree, 'b.proto'), 'syntax = "proto3";\n');
      writeFileSync(join(tree, 'a.bin'), binary);
      writeFileSync(join(tree, 'nested', 'deeper', 'c.proto'), 'message C {}');
      mkdirSync(join(scratch, 'other'), { recursive: true });
      writeFileSync(join(scratch, 'other', 'd.txt'), 'd');
    });

    it('every regular file, nested, in name order, as base64; one upload per statement in script order', async () => {
      const script = `UPLOAD RESOURCE order_protos VERSION '${tree}';\nUPLOAD RESOURCE other VERSION 'other';`;
      const { code, output, requests } = await run(
        answering(
          reply([
            ok('UPLOAD RESOURCE order_protos', { resourceVersion: 2 }),
            ok('UPLOAD RESOURCE other', { resourceVersion: 1 }),
          ]),
        ),
        ['-c', script],
        { cwd: scratch },
      );
      assert.equal(code, EXIT.ok, output.stderr);
      assert.equal(
        output.stdout,
        'UPLOAD RESOURCE order_protos VERSION 2\nUPLOAD RESOURCE other VERSION 1\n',
      );
      assert.deepEqual(sent(requests[0]).uploads, [
        {
          resource: 'order-protos',
          directory: tree,
          files: [
            { path: 'a.bin', base64: binary.toString('base64') },
            { path: 'b.proto', base64: Buffer.from('syntax = "proto3";\n').toString('base64') },
            { path: 'nested/deeper/c.proto', base64: Buffer.from('message C {}').toString('base64') },
          ],
        },
        {
          resource: 'other',
          directory: 'other',
          files: [{ path: 'd.txt', base64: Buffer.from('d').toString('base64') }],
        },
      ]);
    });

    it('follows symbolic links, but not back into a directory that holds them', async () => {
      const linked = join(scratch, 'linked');
      mkdirSync(linked, { recursive: true });
      symlinkSync(join(tree, 'b.proto'), join(linked, 'b.proto'));
      symlinkSync(join(scratch, 'other'), join(linked, 'other'));
      const { code, requests } = await run(answering(reply([ok('UPLOAD RESOURCE l')])), [
        '-c',
        `UPLOAD RESOURCE l VERSION '${linked}'`,
      ]);
      assert.equal(code, EXIT.ok);
      assert.deepEqual(
        sent(requests[0]).uploads[0]?.files.map((file) => file.path),
        ['b.proto', 'other/d.txt'],
      );

      symlinkSync(linked, join(linked, 'loop'));
      const looped = await run(answering(reply([])), ['-c', `UPLOAD RESOURCE l VERSION '${linked}'`]);
      assert.equal(looped.code, EXIT.io);
      assert.match(looped.output.stderr, /cannot read directory .*linked\/loop: a symbolic link leads back/);
      assert.equal(looped.requests.length, 0);
    });

    it('a missing directory: exit 3 with the path and the cause, and no request at all', async () => {
      const { code, output, requests } = await run(answering(reply([])), [
        '-c',
        'SHOW RELAYS;',
        '-c',
        "SHOW CODECS;\nUPLOAD RESOURCE p VERSION './missing';",
      ]);
      assert.equal(code, EXIT.io);
      assert.equal(
        output.stderr,
        'streamroute: -c:2:1: UPLOAD RESOURCE p: cannot read directory ./missing: no such file or directory\n',
      );
      assert.equal(requests.length, 0, 'not even the first script is sent');
    });

    it('a file where a directory should be: exit 3', async () => {
      const { code, output } = await run(answering(reply([])), [
        '-c',
        `UPLOAD RESOURCE p VERSION '${join(tree, 'b.proto')}'`,
      ]);
      assert.equal(code, EXIT.io);
      assert.match(
        output.stderr,
        /cannot read directory .*b\.proto: a part of the path is not a directory\n$/,
      );
    });
  });

  describe('reaching the node', () => {
    it('nothing listening: exit 3 and how to start one', async () => {
      const port = await closedPort();
      const output = new CapturedOutput();
      const code = await runCli(['--server', `http://127.0.0.1:${port}`, '-c', 'SHOW RELAYS'], output);
      assert.equal(code, EXIT.io);
      assert.equal(
        output.stderr,
        `streamroute: no node answers at http://127.0.0.1:${port} (start one with \`streamroute node\`)\n` +
          '  the node was chosen by --server; for a cluster, pass --context NAME or --kubeconfig FILE\n',
      );
    });

    it('$STREAMROUTE_SERVER replaces the default server; --server wins over it', async () => {
      node = await startCannedNode(answering(reply([ok('SHOW RELAYS')])));
      const port = await closedPort();
      const viaEnv = new CapturedOutput();
      const env = { STREAMROUTE_SERVER: `${node.url}/` };
      assert.equal(await runCli(['-c', 'SHOW RELAYS'], viaEnv, { env }), EXIT.ok, viaEnv.stderr);
      assert.equal(node.requests.length, 1);
      const flagWins = new CapturedOutput();
      const code = await runCli(['--server', `127.0.0.1:${port}`, '-c', 'SHOW RELAYS'], flagWins, { env });
      assert.equal(code, EXIT.io);
      assert.match(flagWins.stderr, new RegExp(`no node answers at http://127\\.0\\.0\\.1:${port} `));
      assert.equal(node.requests.length, 1);
    });

    it('a bad server address: exit 2', async () => {
      const output = new CapturedOutput();
      assert.equal(await runCli(['--server', 'ftp://x', '-c', 'SHOW RELAYS'], output), EXIT.usage);
      const fromEnv = new CapturedOutput();
      const env = { STREAMROUTE_SERVER: 'http://x/?q' };
      assert.equal(await runCli(['-c', 'SHOW RELAYS'], fromEnv, { env }), EXIT.usage);
      assert.match(
        fromEnv.stderr,
        /^streamroute: \$STREAMROUTE_SERVER=http:\/\/x\/\?q: expected a URL without/,
      );
    });

    const NOT_THE_PROTOCOL: [string, CannedHandler, RegExp][] = [
      [
        'an HTML page',
        (_request, response) => {
          response.writeHead(200, { 'content-type': 'text/html' });
          response.end('<html></html>');
        },
        /is not a streamroute node: it answered HTTP 200 \(text\/html\), which is not JSON/,
      ],
      [
        'JSON of another shape',
        (_request, response) =>
          replyJson(response, 200, { ok: true, diagnostics: [], results: [{ line: 1 }] }),
        /it answered HTTP 200 \(application\/json\) that does not fit the protocol \(results\[0\]\.statement: missing\)/,
      ],
      [
        'an error status without the error body',
        (_request, response) => replyJson(response, 502, { message: 'bad gateway' }),
        /it answered HTTP 502 \(application\/json\) without the protocol's error body/,
      ],
    ];
    for (const [what, handler, message] of NOT_THE_PROTOCOL) {
      it(`a server that is not a node (${what}): exit 3`, async () => {
        const { code, output } = await run(handler, ['-c', 'SHOW RELAYS']);
        assert.equal(code, EXIT.io);
        assert.match(output.stderr, message);
      });
    }
  });
});
