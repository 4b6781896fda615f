// `streamroute graph` end to end: from files (as validate reads them), from a running embedded node
// (with --rates while traffic flows), each format read back by its real parser (mermaid's, Graphviz's
// dot, JSON), and the README's picture and commands, which must stay what the CLI prints and runs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../operator/cli/program.js';
import { runGraph } from '../../operator/cli/commands/graph.js';
import { CapturedOutput } from '../support/canned-node.js';
import { dotToSvg, parseMermaid, requireDotOrSkip, svgGroups } from '../support/render-checkers.js';
import { startNodeHarness, startNodeHarnessWithGraph, type NodeHarness } from '../fixtures/node-harness.js';

const ROOT = join(import.meta.dirname, '..', '..');
const QUICKSTART = join(ROOT, 'examples', 'quickstart');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

interface GraphDocument {
  apiVersion: string;
  kind: string;
  domain: string;
  nodes: {
    id: string;
    kind: string;
    title: string;
    details: string[];
    rates?: { in: number; out: number };
  }[];
  edges: { from: string; to: string; label?: string; error?: boolean }[];
}

async function cli(...argv: string[]) {
  const output = new CapturedOutput();
  const code = await runCli(argv, output, { env: {} });
  return { code, stdout: output.stdout, stderr: output.stderr };
}

/** The README line that starts with `prefix`, without its comment, split into words. */
function readmeCommand(prefix: string): string[] {
  const line = README.split('\n').find((text) => text.startsWith(prefix));
  assert.ok(line !== undefined, `README.md has no line starting with ${prefix}`);
  return [...line.replace(/\s+#.*$/u, '').matchAll(/'([^']*)'|(\S+)/gu)]
    .map((m) => m[1] ?? m[2] ?? '')
    .slice(2);
}

describe('streamroute graph', function () {
  this.timeout(60_000);

  describe('from files', () => {
    it('the README shows exactly what `graph examples/quickstart` prints, and mermaid parses it', async () => {
      const run = await cli(...readmeCommand('npx streamroute graph examples/quickstart'));
      assert.equal(run.code, 0, run.stderr);
      const block = /```mermaid\n([\s\S]*?)```/u.exec(README)?.[1];
      assert.equal(block, run.stdout, 'the README’s picture is the CLI’s output (regenerate it)');
      const [parsed] = await parseMermaid([run.stdout]);
      assert.ok(parsed?.ok, parsed?.error);
      assert.deepEqual(
        parsed.edges?.map((edge) => `${edge.start}->${edge.end}`),
        ['n1->n2', 'n2->n3', 'n3->n4'],
      );
    });

    it('-o dot renders with Graphviz; -o svg is the same picture', async function () {
      requireDotOrSkip(this);
      const dot = await cli('graph', join(ROOT, 'examples', 'payments'), '-o', 'dot');
      assert.equal(dot.code, 0, dot.stderr);
      const rendered = dotToSvg(dot.stdout);
      assert.ok(rendered.ok);
      const svg = await cli('graph', join(ROOT, 'examples', 'payments'), '-o', 'svg');
      assert.equal(svg.code, 0, svg.stderr);
      assert.match(svg.stdout, /^<\?xml [^]*<svg [^]*<\/svg>\n*$/u);
      const titles = (text: string) => svgGroups(text).nodes.map((node) => node.lines.join(' / '));
      assert.deepEqual(titles(svg.stdout), titles(rendered.svg));
      assert.ok(titles(svg.stdout).includes('correlator pay_first'));
    });

    it('-o svg without Graphviz says so in one line (exit 3); -o json is the Graph document', async () => {
      const output = new CapturedOutput();
      const source = {
        type: 'files' as const,
        files: [QUICKSTART],
        compile: { domain: 'shop', resource: [] },
      };
      const code = await runGraph({ source, format: 'svg', dot: '/nonexistent/dot' }, output);
      assert.equal(code, 3);
      assert.equal(
        output.stderr,
        "streamroute: -o svg runs Graphviz's /nonexistent/dot, which is not installed (Debian: apt-get install graphviz); -o dot prints the text it would render\n",
      );
      const json = await cli('-d', 'shop', 'graph', QUICKSTART, '-o', 'json');
      const document = JSON.parse(json.stdout) as GraphDocument;
      assert.deepEqual(
        [document.apiVersion, document.kind, document.domain],
        ['streamroute.io/cli/v1', 'Graph', 'shop'],
      );
      assert.deepEqual(
        document.nodes.map((node) => node.id),
        ['endpoint/orders-ep', 'ingestor/orders-in', 'codec/orders-in/orders-json', 'relay/orders'],
      );
    });

    it('files with errors: every diagnostic, no picture, exit 1; bad flags: exit 2', async () => {
      const broken = await cli('graph', join(ROOT, 'operator', 'cli', 'testdata', 'broken.sql'));
      assert.equal(broken.code, 1);
      assert.equal(broken.stdout, '');
      assert.match(broken.stderr, /error SR\d{4}/u);
      for (const argv of [
        ['graph', QUICKSTART, '--rates'],
        ['graph', QUICKSTART, '-o', 'png'],
        ['graph', '--rates', '0'],
        ['graph', '--rates', '61'],
        ['graph', '--rates', 'soon'],
      ]) {
        const refused = await cli(...argv);
        assert.equal(refused.code, 2, `${argv.join(' ')}: ${refused.stderr}`);
      }
      assert.match(
        (await cli('graph', '--rates', '61')).stderr,
        /--rates.*expected seconds from 0\.1 to 60/u,
      );
    });
  });

  describe('from a running node', () => {
    let node: NodeHarness;
    before(async () => (node = await startNodeHarness()));
    after(() => node?.close());
    const server = () => `http://127.0.0.1:${node.adminPort}`;

    it('draws what runs, as the files would', async () => {
      const running = JSON.parse(
        (await cli('graph', '--server', server(), '-o', 'json')).stdout,
      ) as GraphDocument;
      const files = JSON.parse(
        (await cli('graph', join(ROOT, 'examples', 'payments'), '-o', 'json')).stdout,
      ) as GraphDocument;
      assert.deepEqual(running.edges, files.edges);
      assert.deepEqual(
        running.nodes.map((each) => each.id),
        files.nodes.map((each) => each.id),
      );
    });

    it('--rates: records a second per component, from two readings of /metrics while traffic flows', async () => {
      const graph = cli('--server', server(), 'graph', '--rates', '1', '-o', 'json');
      let sent = 0;
      const started = Date.now();
      while (Date.now() - started < 1200) {
        assert.equal((await node.post('/web/orders', { order_id: `R${sent}`, amount: 1 })).status, 202);
        sent++;
      }
      const run = await graph;
      assert.equal(run.code, 0, run.stderr);
      const rates = new Map(
        (JSON.parse(run.stdout) as GraphDocument).nodes.map((each) => [each.id, each.rates]),
      );
      const web = rates.get('ingestor/web-in');
      assert.ok(web !== undefined && web.in > 0 && web.out > 0, JSON.stringify(web));
      assert.ok(web.in <= sent, `${web.in}/s of ${sent} sent`);
      assert.deepEqual(rates.get('ingestor/payments-in'), { in: 0, out: 0 });
      assert.equal(rates.get('endpoint/web-ep'), undefined, 'an endpoint is no component');
      const mermaid = await cli('--server', server(), 'graph', '--rates', '0.1');
      assert.match(mermaid.stdout, /"HTTP ingestor web_in<br>in \d+(\.\d+)?\/s · out \d+(\.\d+)?\/s"/u);
    });

    it('a node that does not answer: exit 3 with the reason', async () => {
      const run = await cli('graph', '--server', 'http://127.0.0.1:1');
      assert.equal(run.code, 3);
      assert.match(run.stderr, /no node answers at http:\/\/127\.0\.0\.1:1/u);
    });
  });

  describe('the README’s commands against the quickstart', () => {
    let node: NodeHarness;
    before(
      async () =>
        (node = await startNodeHarnessWithGraph(readFileSync(join(QUICKSTART, 'graph.sql'), 'utf8'))),
    );
    after(() => node?.close());

    it('`-o json -c SHOW INGESTORS;` and `graph --rates` run as written', async () => {
      const server = ['--server', `http://127.0.0.1:${node.adminPort}`];
      const shown = await cli(...server, ...readmeCommand('npx streamroute -o json'));
      assert.equal(shown.code, 0, shown.stderr);
      assert.equal((JSON.parse(shown.stdout) as { results: unknown[] }).results.length, 1);
      const drawn = await cli(...server, ...readmeCommand('npx streamroute graph --rates'));
      assert.equal(drawn.code, 0, drawn.stderr);
      assert.match(drawn.stdout, /HTTP ingestor orders_in<br>in 0\/s · out 0\/s/u);
    });
  });
});
