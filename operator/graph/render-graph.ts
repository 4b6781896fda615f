// A DomainGraph as Graphviz DOT and as a Mermaid flowchart, left to right. Shapes tell the stages apart
// (sources and sinks, ingestors, codecs, relays, junctions, correlators, emitters); error routes are
// dashed. With rates, each component's line `in 12.5/s · out 12.5/s` is added under its title.
import type { DomainGraph, GraphNode, GraphNodeKind } from './domain-graph.js';
import { dotId, dotLabel, mermaidLabel } from './escape.js';

/** Records a second in and out of a component, by node id. */
export type NodeRates = ReadonlyMap<string, { in: number; out: number }>;

const DOT_SHAPES: Record<GraphNodeKind, string> = {
  'http-endpoint': 'shape=house, orientation=270',
  'syslog-client': 'shape=cds',
  'kafka-topic': 'shape=cylinder',
  ingestor: 'shape=box, style=rounded',
  codec: 'shape=hexagon',
  relay: 'shape=box, style="rounded,filled", fillcolor="#e8f0fe"',
  junction: 'shape=invtrapezium',
  correlator: 'shape=diamond',
  emitter: 'shape=box, style=rounded',
};

/** Mermaid's node shapes: opening and closing brackets around the quoted label. */
const MERMAID_SHAPES: Record<GraphNodeKind, readonly [string, string]> = {
  'http-endpoint': ['>', ']'],
  'syslog-client': ['[/', '/]'],
  'kafka-topic': ['[(', ')]'],
  ingestor: ['(', ')'],
  codec: ['{{', '}}'],
  relay: ['([', '])'],
  junction: ['[\\', '/]'],
  correlator: ['{', '}'],
  emitter: ['(', ')'],
};

function labelLines(node: GraphNode, rates: NodeRates | undefined): string[] {
  const rate = rates?.get(node.id);
  const rateLine = rate === undefined ? [] : [`in ${perSecond(rate.in)}/s · out ${perSecond(rate.out)}/s`];
  return [node.title, ...node.details, ...rateLine];
}

/** 0, 0.25, 3.5, 12, 1200: at most two decimals, none when whole. */
function perSecond(value: number): string {
  return String(Math.round(value * 100) / 100);
}

export function renderDot(graph: DomainGraph, rates?: NodeRates): string {
  const lines = [
    `digraph ${dotId(`streamroute domain ${graph.domain}`)} {`,
    '  rankdir=LR;',
    '  node [fontname="Helvetica", fontsize=11];',
    '  edge [fontname="Helvetica", fontsize=10];',
    `  label=${dotLabel([`domain ${graph.domain}`])}; labelloc=t;`,
    ...graph.nodes.map(
      (node) => `  ${dotId(node.id)} [label=${dotLabel(labelLines(node, rates))}, ${DOT_SHAPES[node.kind]}];`,
    ),
    ...graph.edges.map((edge) => {
      const attributes = [
        ...(edge.label === undefined ? [] : [`label=${dotLabel([edge.label])}`]),
        ...(edge.error === true ? ['style=dashed', 'color="#c5221f"'] : []),
      ];
      const list = attributes.length === 0 ? '' : ` [${attributes.join(', ')}]`;
      return `  ${dotId(edge.from)} -> ${dotId(edge.to)}${list};`;
    }),
    '}',
  ];
  return `${lines.join('\n')}\n`;
}

export function renderMermaid(graph: DomainGraph, rates?: NodeRates): string {
  // Mermaid IDs are plain words: n1, n2, … in node order.
  const ids = new Map(graph.nodes.map((node, index) => [node.id, `n${index + 1}`]));
  const idOf = (id: string): string => ids.get(id) ?? 'missing';
  const lines = [
    'flowchart LR',
    ...graph.nodes.map((node) => {
      const [open, close] = MERMAID_SHAPES[node.kind];
      return `  ${idOf(node.id)}${open}${mermaidLabel(labelLines(node, rates))}${close}`;
    }),
    ...graph.edges.map((edge) => {
      const arrow = edge.error === true ? '-.->' : '-->';
      const label = edge.label === undefined ? '' : `|${mermaidLabel([edge.label])}|`;
      return `  ${idOf(edge.from)} ${arrow}${label} ${idOf(edge.to)}`;
    }),
  ];
  return `${lines.join('\n')}\n`;
}
