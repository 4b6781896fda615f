// `-o table|wide|json|yaml` against a real embedded node (examples/payments), through the real CLI code
// path: every SHOW, SHOW CREATE and DESCRIBE statement and the `describe` command in each format, the JSON
// and YAML read back and checked field by field against the table the same node prints.
import assert from 'node:assert/strict';
import { parse } from 'yaml';
import { runCli } from '../../operator/cli/program.js';
import { SHOW_WORDS } from '../../operator/node/statement-tag.js';
import { shownKinds } from '../../operator/node/show-output.js';
import { WIDE_COLUMNS } from '../../operator/node/show-wide-columns.js';
import type { ShowTarget } from '../../operator/language/ast.js';
import { CapturedOutput } from '../support/canned-node.js';
import { startNodeHarness, type NodeHarness } from '../fixtures/node-harness.js';

const EXTRA = `
  CREATE RESOURCE certs;
  CREATE SCHEMA line (facility U8, severity U8, timestamp DATETIME OPTIONAL, hostname STRING OPTIONAL,
    app_name STRING OPTIONAL, proc_id STRING OPTIONAL, msg_id STRING OPTIONAL,
    structured_data STRING OPTIONAL, message STRING);
  CREATE CODEC syslog FROM SYSLOG TO SCHEMA line;
  CREATE RELAY lines SCHEMA line UNBRANCHED;
  CREATE CLIENT sink TYPE SYSLOG CONFIG { 'protocol' = 'udp', 'addr' = '127.0.0.1:9' };
  CREATE EMITTER to_sink FROM lines TO SYSLOG sink MODE NO_ACK RETRY POLICY BACKOFF 200ms MAX 10s
    ENCODE USING syslog FLUSH IMMEDIATE ON MESSAGE ERROR LOG ON GENERAL ERROR LOG;`;

interface Item {
  name: string;
  kind: string;
  declaredIn: string;
  resource: { apiVersion: string; kind: string; metadata: { name: string }; spec: object };
}
interface Entry {
  statement: string;
  source: string;
  line: number;
  column: number;
  type: string;
  items?: Item[];
  resource?: Item['resource'];
  create?: string;
  description?: { name: string; state: string; metrics: Record<string, number> };
}
interface StatementResults {
  apiVersion: string;
  kind: string;
  domain: string;
  results: Entry[];
}

describe('node e2e: -o table|wide|json|yaml', function () {
  this.timeout(60_000);
  let node: NodeHarness;
  before(async () => {
    node = await startNodeHarness();
    // What payments lacks, so every SHOW has rows: a resource, a syslog client and an emitter (UDP to a
    // port nobody reads: sending never fails).
    const added = await node.sql(EXTRA);
    assert.equal(added.code, 0, added.stderr);
  });
  after(() => node?.close());

  async function cli(...argv: string[]) {
    const output = new CapturedOutput();
    const server = `http://127.0.0.1:${node.adminPort}`;
    const code = await runCli(['--server', server, ...argv], output, { env: {} });
    return { code, stdout: output.stdout, stderr: output.stderr };
  }

  /** Runs the script with -o json and -o yaml; both must hold the same document. */
  async function documentOf(script: string): Promise<StatementResults> {
    const json = await cli('-o', 'json', '-c', script);
    const yaml = await cli('-c', script, '-o', 'yaml');
    assert.equal(json.code, 0, json.stderr);
    assert.equal(yaml.code, 0, yaml.stderr);
    const document = JSON.parse(json.stdout) as StatementResults;
    assert.deepEqual(parse(yaml.stdout), document);
    assert.equal(document.apiVersion, 'streamroute.io/cli/v1');
    assert.equal(document.kind, 'StatementResults');
    assert.equal(document.domain, 'default');
    return document;
  }

  /** The rows of a table: cells split on two or more spaces, the header and the row count left out. */
  const rows = (table: string): string[][] =>
    table
      .trim()
      .split('\n')
      .slice(1, -1)
      .map((row) => row.split(/ {2,}/));

  for (const what of Object.keys(SHOW_WORDS) as ShowTarget[]) {
    const script = `SHOW ${SHOW_WORDS[what]};`;
    it(`${script} prints the same objects in every format`, async () => {
      const plain = await cli('-c', script);
      const table = await cli('-c', script, '-o', 'table');
      assert.equal(table.stdout, plain.stdout, '-o table is what the command always printed');
      const tableText = table.stdout.split('\n').slice(1).join('\n');
      const names = rows(tableText).map((row) => row[0]);
      assert.ok(names.length > 0, `${script} lists something`);

      const document = await documentOf(script);
      assert.equal(document.results.length, 1);
      const [entry] = document.results;
      assert.deepEqual(
        { statement: entry?.statement, source: entry?.source, line: entry?.line, column: entry?.column },
        { statement: `SHOW ${SHOW_WORDS[what]}`, source: '-c', line: 1, column: 1 },
      );
      assert.equal(entry?.type, 'show');
      const items = entry?.items ?? [];
      assert.deepEqual(
        items.map((item) => item.name),
        names,
      );
      for (const item of items) {
        assert.ok(shownKinds(what).includes(item.resource.kind as never), item.resource.kind);
        assert.equal(item.kind, item.resource.kind);
        assert.equal(
          item.declaredIn,
          rows(tableText)
            .find((row) => row[0] === item.name)
            ?.at(-1),
        );
        assert.equal(item.resource.apiVersion, 'streamroute.io/v1alpha1');
      }

      const wide = await cli('-o', 'wide', '-c', script);
      assert.equal(wide.code, 0, wide.stderr);
      const [tag, header = ''] = wide.stdout.split('\n');
      assert.equal(tag, `SHOW ${SHOW_WORDS[what]}`);
      const plainHeader = tableText.split('\n')[0]?.split(/ {2,}/) ?? [];
      const extra = WIDE_COLUMNS[shownKinds(what)[0] ?? 'Schema'].map(([title]) => title);
      assert.deepEqual(header.split(/ {2,}/), [...plainHeader.slice(0, -1), ...extra, 'DECLARED IN']);
      assert.deepEqual(
        rows(wide.stdout.split('\n').slice(1).join('\n')).map((row) => row[0]),
        names,
      );
    });
  }

  it('SHOW CREATE: the resource and the canonical statement the table prints', async () => {
    const table = await cli('-c', 'SHOW CREATE INGESTOR web_in;');
    const document = await documentOf('SHOW CREATE INGESTOR web_in;');
    const [entry] = document.results;
    assert.equal(entry?.type, 'show-create');
    assert.equal(entry?.resource?.kind, 'HttpIngestor');
    assert.equal(entry?.resource?.metadata.name, 'web-in');
    assert.equal(entry?.statement, 'SHOW CREATE INGESTOR web_in');
    assert.equal(`SHOW CREATE INGESTOR web_in\n${entry?.create}\n`, table.stdout);
  });

  it('DESCRIBE: the node’s description, as the table says it', async () => {
    assert.equal((await node.post('/web/orders', { order_id: 'D1', amount: 1 })).status, 202);
    const table = await cli('-c', 'DESCRIBE INGESTOR web_in;');
    const document = await documentOf('DESCRIBE INGESTOR web_in;');
    const description = document.results[0]?.description;
    assert.equal(document.results[0]?.type, 'describe');
    assert.equal(description?.name, 'web-in');
    assert.equal(description?.state, 'Running');
    assert.match(table.stdout, new RegExp(`^state: ${description?.state ?? '?'}$`, 'm'));
    for (const [metric, value] of Object.entries(description?.metrics ?? {})) {
      assert.match(table.stdout, new RegExp(`^  ${metric}: ${value}$`, 'm'));
    }
    assert.ok((description?.metrics['records_out'] ?? 0) >= 1, JSON.stringify(description?.metrics));
  });

  it('the describe command: table and wide as DESCRIBE, json and yaml the Description document', async () => {
    const table = await cli('describe', 'ingestor', 'payments_in');
    const wide = await cli('describe', 'ingestor', 'payments_in', '-o', 'wide');
    assert.equal(table.code, 0, table.stderr);
    assert.equal(wide.stdout, table.stdout);
    const json = await cli('describe', 'ingestor', 'payments_in', '-o', 'json');
    const yaml = await cli('-o', 'yaml', 'describe', 'ingestor', 'payments_in');
    const document = JSON.parse(json.stdout) as {
      kind: string;
      target: string;
      domain: string;
      description: { name: string; state: string };
    };
    assert.deepEqual(parse(yaml.stdout), document);
    assert.deepEqual(Object.keys(document), ['apiVersion', 'kind', 'domain', 'target', 'description']);
    assert.equal(document.kind, 'Description');
    assert.equal(document.target, 'node');
    assert.equal(document.description.name, 'payments-in');
    assert.match(table.stdout, new RegExp(`^state: ${document.description.state}$`, 'm'));
  });

  it('a script that also changes things: one document on stdout, the other lines on stderr', async () => {
    const script = 'CREATE RELAY audit SCHEMA orders UNBRANCHED; SHOW RELAYS; DROP RELAY audit; SHOW RELAYS;';
    const run = await cli('-o', 'json', '-c', script);
    assert.equal(run.code, 0, run.stderr);
    const document = JSON.parse(run.stdout) as StatementResults;
    const relays = document.results.map((entry) => entry.items?.map((item) => item.name));
    assert.ok(relays[0]?.includes('audit'));
    assert.ok(!relays[1]?.includes('audit'));
    assert.deepEqual(
      document.results.map((entry) => entry.column),
      [script.indexOf('SHOW') + 1, script.lastIndexOf('SHOW') + 1],
    );
    assert.match(run.stderr, /^CREATE RELAY audit$/m);
    assert.match(run.stderr, /^-- domain default runs graph version \d+$/m);
  });

  it('a failing script still prints its document, holding what ran before the failure; exit 1', async () => {
    const run = await cli('-o', 'yaml', '-c', 'SHOW RELAYS; SHOW CREATE RELAY nope; SHOW RELAYS;');
    assert.equal(run.code, 1);
    const document = parse(run.stdout) as StatementResults;
    assert.deepEqual(
      document.results.map((entry) => entry.statement),
      ['SHOW RELAYS'],
    );
    assert.match(run.stderr, /error SR2001: there is no Relay nope in domain default/);
  });

  it('prints the same text for the same state', async () => {
    const script = 'SHOW INGESTORS; SHOW CREATE CORRELATOR pay_first;';
    for (const format of ['json', 'yaml']) {
      const first = await cli('-o', format, '-c', script);
      assert.equal((await cli('-o', format, '-c', script)).stdout, first.stdout);
    }
  });

  it('an unknown format is exit 2 and sends nothing', async () => {
    const run = await cli('-o', 'xml', '-c', 'DROP RELAY orders;');
    assert.equal(run.code, 2);
    assert.match(run.stderr, /argument 'xml' is invalid\. Allowed choices are table, wide, json, yaml/);
    assert.match((await cli('-c', 'SHOW RELAYS;')).stdout, /^orders /m);
  });
});
