// docs/metrics.md against running processes, both ways (decision 0024): a real node (the quickstart and
// the syslog example on free ports, with HTTP and syslog traffic) and a real operator on a real
// kube-apiserver serve on /metrics exactly the documented families, with the documented types, help and
// label names, and every sample carries only documented labels — which is also how a family that kept
// an `ingestor` label beside `domain, kind, name` would show.
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { startOperator, type RunningOperator } from '../../operator/controller/main.js';
import { EXAMPLES } from '../fixtures/graph-from-statements.js';
import { startNodeHarnessWithGraph, until, type NodeHarness } from '../fixtures/node-harness.js';
import { requireKubeOrSkip, sharedKubeApiServer } from '../support/kube-apiserver.js';
import {
  documentedFamilies,
  registeredFamilies,
  scrapedFamilies,
  type ScrapedFamily,
  type Section,
} from '../support/metric-docs.js';
import { freeTcpPort } from '../support/syslog-wire-peer.js';
import type { MetricSpec } from '../../dataplane/core/metric-spec.js';

function scrape(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/metrics' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve(body));
    }).on('error', reject);
  });
}

function documented(...sections: Section[]): Map<string, MetricSpec> {
  return new Map(sections.flatMap((section) => [...documentedFamilies(section)]));
}

/** The scrape has the documented families and no other; each with its type, help and only its labels. */
function assertScrapeMatches(scraped: Map<string, ScrapedFamily>, docs: Map<string, MetricSpec>): void {
  assert.deepEqual([...scraped.keys()].sort(), [...docs.keys()].sort());
  for (const [name, family] of scraped) {
    const spec = docs.get(name)!;
    assert.equal(family.type, spec.type, name);
    assert.equal(family.help, spec.help, name);
    for (const label of family.sampleLabels)
      assert.ok(spec.labels.includes(label), `${name} has a series labelled ${label}`);
  }
}

describe('docs/metrics.md against a running node and operator', function () {
  this.timeout(120_000);

  describe('the node', () => {
    let node: NodeHarness;

    before(async () => {
      const syslogPort = await freeTcpPort();
      const forwardPort = await freeTcpPort();
      const syslog = readFileSync(join(EXAMPLES, 'syslog', 'graph.sql'), 'utf8')
        .replaceAll('127.0.0.1:5514', `127.0.0.1:${syslogPort}`)
        .replaceAll('127.0.0.1:5515', `127.0.0.1:${forwardPort}`);
      const quickstart = readFileSync(join(EXAMPLES, 'quickstart', 'graph.sql'), 'utf8');
      node = await startNodeHarnessWithGraph(`${quickstart}\n${syslog}`);
      // Traffic, so that series exist: bodies taken, one not JSON, one too large; syslog frames over TCP.
      assert.equal((await node.post('/orders', { order_id: 'A-1', amount: 3 })).status, 202);
      assert.equal((await node.post('/orders', 'not json')).status, 202);
      assert.equal((await node.post('/orders', 'x'.repeat(2 * 1024 * 1024))).status, 413);
      const socket = new Socket();
      await new Promise<void>((resolve) => socket.connect(syslogPort, '127.0.0.1', resolve));
      socket.write('<13>1 - - - - - - one\n<13>1 - - - - - - two\n');
      await until(
        async () => (await node.metric('streamroute_payloads_total', { kind: 'syslog-ingestor' })) >= 2,
        'frames counted',
      );
      socket.destroy();
    });

    after(() => node?.close());

    it('registers exactly the documented node and process families, with their types, help and labels', () => {
      const registered = registeredFamilies(node.node.dataPlane.registry);
      const docs = documented('node', 'process');
      assert.deepEqual([...registered.keys()].sort(), [...docs.keys()].sort());
      for (const [name, spec] of registered) assert.deepEqual(spec, docs.get(name), name);
    });

    it('serves them on /metrics, every series with documented labels only', async () => {
      const scraped = scrapedFamilies(await scrape(node.adminPort));
      assertScrapeMatches(scraped, documented('node', 'process'));
      // The traffic above is on /metrics under the component labels.
      const payloads = scraped.get('streamroute_payloads_total')!;
      assert.deepEqual([...payloads.sampleLabels].sort(), ['domain', 'kind', 'name']);
      assert.ok(scraped.get('streamroute_http_ingestor_requests_failed_total')!.sampleLabels.has('kind'));
      assert.ok(scraped.get('streamroute_syslog_connections_total')!.sampleLabels.has('kind'));
    });
  });

  describe('the operator', () => {
    let operator: RunningOperator | undefined;

    before(async function () {
      await requireKubeOrSkip(this);
      const server = await sharedKubeApiServer();
      operator = await startOperator({
        kubeconfig: server.kubeconfigPath,
        namespace: 'streamroute-metric-docs',
        keepVersions: 10,
        healthAddress: { host: '127.0.0.1', port: 0 },
        rateLimit: { qps: 50, burst: 100 },
        logger: pino({ level: 'silent' }),
      });
    });

    after(() => operator?.stop({ release: true }));

    it('serves exactly the documented operator and process families on its health listener', async () => {
      const scraped = scrapedFamilies(await scrape(operator!.healthPort));
      assertScrapeMatches(scraped, documented('operator', 'process'));
      const registered = registeredFamilies(operator!.controller.registry);
      for (const [name, spec] of documentedFamilies('operator'))
        assert.deepEqual(registered.get(name), spec, name);
    });
  });
});
