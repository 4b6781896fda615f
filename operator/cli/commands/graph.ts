// `streamroute graph`: the domain as a picture (docs/cli.md#streamroute-graph). From files (checked whole
// first, as validate does), or from the running node or cluster when no file is given; `--rates` adds
// each component's records a second, from two readings of the node's /metrics. `-o dot|mermaid` print
// the text, `-o svg` runs Graphviz's `dot` on it, `-o json` prints the `Graph` document. On a cluster the
// rates add up every data-plane pod's /metrics, read through port-forwards.
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GraphObject } from '../../api/index.js';
import type { NodeTarget } from '../../client/endpoint.js';
import { outputDocument, printDocument } from '../../client/output-format.js';
import { EXIT, type Output } from '../../client/report.js';
import type { Cluster } from '../../cluster/cluster-target.js';
import { domainGraph, type DomainGraph } from '../../graph/domain-graph.js';
import { ratesBetween } from '../../graph/metrics-rates.js';
import { renderDot, renderMermaid, type NodeRates } from '../../graph/render-graph.js';
import { checkedObjects, type CompileOptions } from './compile.js';
import {
  clusterObjects,
  nodeMetrics,
  nodeObjects,
  podMetrics,
  type PodMetricsOptions,
} from './graph-sources.js';

export const GRAPH_FORMATS = ['dot', 'mermaid', 'svg', 'json'] as const;
export type GraphFormat = (typeof GRAPH_FORMATS)[number];

/** Where the domain comes from: files, or what runs on a node or a cluster. */
export type GraphSource =
  | { type: 'files'; files: string[]; compile: CompileOptions }
  | { type: 'node'; target: NodeTarget }
  | { type: 'cluster'; cluster: Cluster; pods: Omit<PodMetricsOptions, 'cluster'> };

export interface GraphOptions {
  source: GraphSource;
  format: GraphFormat;
  /** --rates: seconds between the two readings of /metrics. */
  rates?: number;
  /** Tests: what `dot` is called (default: `dot` on PATH). */
  dot?: string;
}

export async function runGraph(options: GraphOptions, output: Output): Promise<number> {
  const { source } = options;
  const read = await objectsOf(source, output);
  if (read === undefined) return EXIT.invalid;
  const graph = domainGraph(read.domain, read.objects);
  if (graph.nodes.length === 0) output.err(`streamroute: domain ${graph.domain} has nothing to draw`);
  let rates: NodeRates | undefined;
  if (options.rates !== undefined && source.type !== 'files') {
    const read = () =>
      source.type === 'node'
        ? nodeMetrics(source.target)
        : podMetrics({ cluster: source.cluster, ...source.pods }, output);
    const before = await read();
    await sleep(options.rates * 1000);
    rates = ratesBetween(graph, { before, after: await read() }, options.rates);
  }
  return print(graph, rates, options, output);
}

async function objectsOf(
  source: GraphSource,
  output: Output,
): Promise<{ domain: string; objects: GraphObject[] } | undefined> {
  if (source.type === 'cluster') {
    return { domain: source.cluster.namespace, objects: await clusterObjects(source.cluster) };
  }
  if (source.type === 'files') {
    const objects = await checkedObjects(source.files, source.compile, output);
    return objects === undefined ? undefined : { domain: source.compile.domain, objects };
  }
  const objects = await nodeObjects(source.target);
  if (typeof objects === 'string') {
    output.err(`streamroute: the node refused to list domain ${source.target.domain}: ${objects}`);
    return undefined;
  }
  return { domain: source.target.domain, objects };
}

async function print(
  graph: DomainGraph,
  rates: NodeRates | undefined,
  options: GraphOptions,
  output: Output,
): Promise<number> {
  switch (options.format) {
    case 'mermaid':
      output.out(renderMermaid(graph, rates));
      return EXIT.ok;
    case 'dot':
      output.out(renderDot(graph, rates));
      return EXIT.ok;
    case 'json': {
      const nodes = graph.nodes.map((node) => {
        const rate = rates?.get(node.id);
        return { ...node, ...(rate === undefined ? {} : { rates: rate }) };
      });
      const fields = { domain: graph.domain, nodes, edges: graph.edges };
      await printDocument(outputDocument('Graph', fields), 'json', output);
      return EXIT.ok;
    }
    case 'svg':
      return svg(renderDot(graph, rates), options.dot ?? 'dot', output);
  }
}

/** DOT through Graphviz's `dot -Tsvg`; a missing `dot` is said in one line (exit 3). */
async function svg(dot: string, command: string, output: Output): Promise<number> {
  const child = spawn(command, ['-Tsvg'], { stdio: ['pipe', 'pipe', 'pipe'] });
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
  child.stdin.on('error', () => undefined); // a dot that exits early; its status says why
  child.stdin.end(dot);
  const ended = await new Promise<{ code: number | null } | { error: NodeJS.ErrnoException }>((resolve) => {
    child.on('error', (error) => resolve({ error }));
    child.on('close', (code) => resolve({ code }));
  });
  if ('error' in ended) {
    const why =
      ended.error.code === 'ENOENT'
        ? 'is not installed (Debian: apt-get install graphviz)'
        : ended.error.message;
    output.err(
      `streamroute: -o svg runs Graphviz's ${command}, which ${why}; -o dot prints the text it would render`,
    );
    return EXIT.io;
  }
  if (ended.code !== 0) {
    output.err(
      `streamroute: ${command} -Tsvg failed (exit ${ended.code ?? '?'}): ${Buffer.concat(stderr).toString('utf8').trim()}`,
    );
    return EXIT.io;
  }
  output.out(Buffer.concat(stdout).toString('utf8'));
  return EXIT.ok;
}
