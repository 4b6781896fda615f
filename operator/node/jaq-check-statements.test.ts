import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { sendAdmin } from '../../test/fixtures/admin-client.js';
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

  async function statements(script: string): Promise<{ status: number; body: unknown }> {
    const path = '/v1/domains/default/statements';
    const body = JSON.stringify({ script });
    const answer = await sendAdmin(port, { method: 'POST', path, body, contentType: 'application/json' });
    return { status: answer.status, body: JSON.parse(answer.body) as unknown };
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
        `^<request>:1:\\d+: error SR2065: Codec ${name} spec\\.jaq\\.ingestion: .*the ON INGESTION program cannot be checked: `,
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
