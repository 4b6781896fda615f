import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { openTestNode, removeDir, type TestNode } from '../../test/fixtures/embedded-node.js';
import { HOSTILE_EXAMPLES, hostileProgram } from '../../test/fixtures/hostile-jaq-programs.js';
import { controlRoutes } from './control-routes.js';
import type { StatementReply } from './protocol.js';

const SCHEMA = 'CREATE SCHEMA orders (order_id STRING, amount I64);';
const codec = (name: string, program: string): string =>
  `CREATE CODEC ${name} FROM JSON TO SCHEMA orders WITH JAQ TRANSFORMATIONS ON INGESTION $jaq$${program}$jaq$;`;

describe('the node’s statement API: JAQ programs that exhaust jq’s compiler', () => {
  let node: TestNode;
  let server: Server;
  let port: number;
  let unique = 0;

  before(async () => {
    node = openTestNode();
    const hook = controlRoutes({
      executor: node.executor,
      store: node.store,
      queue: node.queue,
      logger: node.logger,
      maxBodyBytes: 1 << 20,
    });
    server = createServer((request, response) => {
      void hook(request, response, new URL(request.url ?? '/', 'http://localhost')).then((handled) => {
        if (!handled) response.writeHead(404).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    assert.equal((await statements(SCHEMA)).status, 200);
  });
  after(async () => {
    await new Promise((resolve) => server.close(resolve));
    node.close();
    removeDir(node.root);
  });

  function statements(script: string): Promise<{ status: number; body: unknown }> {
    return new Promise((resolve, reject) => {
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
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown });
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(JSON.stringify({ script }));
    });
  }

  /** The hostile codec is refused with SR2065 like any invalid statement; the next codec is created. */
  async function assertRefused(program: string): Promise<void> {
    const name = `hostile_${unique++}`;
    const answer = await statements(codec(name, program));
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const reply = answer.body as StatementReply;
    assert.equal(reply.ok, false);
    const diagnostics = reply.results.flatMap((result) => result.diagnostics ?? []);
    assert.equal(diagnostics.length, 1, diagnostics.join('\n'));
    assert.match(
      diagnostics[0] ?? '',
      new RegExp(
        `^<request>:1:\\d+: error SR2065: Codec ${name.replace('_', '-')} spec\\.jaq\\.ingestion: .*the ON INGESTION program cannot be checked: `,
      ),
    );
    const next = await statements(
      codec(`fine_${unique}`, `{order_id: .id, amount: .amount} | .n${unique++}`),
    );
    assert.equal((next.body as StatementReply).ok, true, JSON.stringify(next.body));
  }

  for (const { name, program } of HOSTILE_EXAMPLES) {
    it(`bug: ${name} was a 500 (or hung the node) — now refused with SR2065, and the node goes on`, async function () {
      this.timeout(30_000);
      await assertRefused(program);
    });
  }

  it('generated: any program of any hostile class', async function () {
    this.timeout(180_000);
    await fc.assert(
      fc.asyncProperty(hostileProgram, (hostile) => assertRefused(hostile.program)),
      { numRuns: 6 },
    );
  });
});
