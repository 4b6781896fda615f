// Every string from the domain reaches the picture as exactly what it was, whatever it holds: generated
// graphs whose titles, details, edge labels, ids and domain are hostile (quotes, backslashes, braces,
// newlines, `-->`, entities, HTML, markdown, unicode, control characters) are rendered as DOT and read
// back from `dot -Tsvg`, and as Mermaid and read back by mermaid's own parser.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { DomainGraph, GraphNodeKind } from './domain-graph.js';
import { renderDot, renderMermaid } from './render-graph.js';
import {
  asDrawn,
  dotToSvg,
  mermaidShown,
  parseMermaid,
  requireDotOrSkip,
  svgGroups,
} from '../../test/support/render-checkers.js';

const KINDS: readonly GraphNodeKind[] = [
  'http-endpoint',
  'syslog-client',
  'kafka-topic',
  'ingestor',
  'codec',
  'relay',
  'junction',
  'correlator',
  'emitter',
];
const PIECES = [
  '"',
  "'",
  '\\',
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  '\n',
  '\r\n',
  '-->',
  '-.->',
  '|',
  '#',
  '#quot;',
  '&',
  '&amp;',
  '<b>',
  '<br>',
  '`',
  ';',
  '%%',
  'end',
  'ﬂ°°35¶ß',
  '\\n',
  '\\N',
  'é',
  '🚀',
  '\u2028',
  ' ',
  '\t',
  '\u0001',
  'x',
  'subgraph',
  'click',
];
const hostile = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom(...PIECES), maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
);

const graphs: fc.Arbitrary<DomainGraph> = fc
  .record({
    domain: hostile,
    nodes: fc.uniqueArray(
      fc.record({
        id: hostile,
        kind: fc.constantFrom(...KINDS),
        title: hostile,
        details: fc.array(hostile, { maxLength: 2 }),
      }),
      { minLength: 1, maxLength: 5, selector: (node) => node.id },
    ),
    edges: fc.array(
      fc.record({
        from: fc.nat(),
        to: fc.nat(),
        label: fc.option(hostile, { nil: undefined }),
        error: fc.boolean(),
      }),
      { maxLength: 5 },
    ),
  })
  .map(({ domain, nodes, edges }) => ({
    domain,
    nodes,
    edges: edges.map(({ from, to, label, error }) => ({
      from: nodes[from % nodes.length]?.id ?? '',
      to: nodes[to % nodes.length]?.id ?? '',
      error,
      ...(label === undefined ? {} : { label }),
    })),
  }));

/** What a label shows, per the documented rule: line breaks split lines, control characters as \xNN. */
function shown(lines: readonly string[]): string[] {
  return lines.flatMap((line) =>
    line
      .replace(
        /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/gu,
        (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
      )
      .split(/\r\n|\r|\n/u),
  );
}

/** Graphviz draws no text for an empty line. */
const drawn = (lines: string[]): string[] => lines.filter((line) => line !== '').map(asDrawn);
/** Mermaid draws an empty label as one space (it refuses an empty string). */
const inMermaid = (lines: string[]): string[] => (lines.length === 1 && lines[0] === '' ? [' '] : lines);

const SAMPLES = fc.sample(graphs, { numRuns: 80, seed: 17 });

describe('graph pictures: hostile strings', () => {
  it('DOT: dot -Tsvg draws every node, edge and label with exactly the text given', function () {
    requireDotOrSkip(this);
    for (const graph of SAMPLES) {
      const dot = renderDot(graph);
      const svg = dotToSvg(dot);
      assert.ok(svg.ok, `dot refused:\n${svg.ok ? '' : svg.error}\n${dot}`);
      const { nodes, edges } = svgGroups(svg.svg);
      // Graphviz may draw nodes and edges in another order than given: compare them as sets.
      const sorted = (labels: string[][]) => labels.map((lines) => JSON.stringify(lines)).sort();
      assert.deepEqual(
        sorted(nodes.map((node) => node.lines)),
        sorted(graph.nodes.map((node) => drawn(shown([node.title, ...node.details])))),
        dot,
      );
      assert.deepEqual(
        sorted(edges.map((edge) => edge.lines)),
        sorted(graph.edges.map((edge) => (edge.label === undefined ? [] : drawn(shown([edge.label]))))),
        dot,
      );
    }
  });

  it('Mermaid: mermaid’s parser reads every node, edge and label with exactly the text given', async function () {
    this.timeout(60_000);
    const texts = SAMPLES.map((graph) => renderMermaid(graph));
    const parsed = await parseMermaid(texts);
    for (const [index, graph] of SAMPLES.entries()) {
      const result = parsed[index];
      const text = texts[index] ?? '';
      assert.ok(result?.ok, `mermaid refused: ${result?.error}\n${text}`);
      assert.equal(result.type, 'flowchart-v2');
      assert.deepEqual(
        (result.vertices ?? []).map((vertex) => [vertex.id, mermaidShown(vertex.text)]),
        graph.nodes.map((node, at) => [`n${at + 1}`, inMermaid(shown([node.title, ...node.details]))]),
        text,
      );
      const ids = new Map(graph.nodes.map((node, at) => [node.id, `n${at + 1}`]));
      assert.deepEqual(
        (result.edges ?? []).map((edge) => [
          edge.start,
          edge.end,
          edge.stroke,
          edge.text === '' ? [] : mermaidShown(edge.text),
        ]),
        graph.edges.map((edge) => [
          ids.get(edge.from),
          ids.get(edge.to),
          edge.error === true ? 'dotted' : 'normal',
          edge.label === undefined ? [] : inMermaid(shown([edge.label])),
        ]),
        text,
      );
    }
  });

  it('the strings the issue names, one by one, in both', async function () {
    requireDotOrSkip(this);
    const strings = [
      'say "hi"',
      'C:\\path\\',
      '{braces}',
      'two\nlines',
      'naïve 🚀 ünïcødé',
      'a --> b',
      '#quot;',
      '<script>x</script>',
    ];
    const graph: DomainGraph = {
      domain: 'hostile',
      nodes: strings.map((text, index) => ({
        id: `relay/${index}`,
        kind: 'relay',
        title: text,
        details: [],
      })),
      edges: [{ from: 'relay/0', to: 'relay/1', label: 'a --> b' }],
    };
    const svg = dotToSvg(renderDot(graph));
    assert.ok(svg.ok);
    assert.deepEqual(
      svgGroups(svg.svg).nodes.map((node) => node.lines.join('\n')),
      strings,
    );
    const [mermaid] = await parseMermaid([renderMermaid(graph)]);
    assert.deepEqual(
      (mermaid?.vertices ?? []).map((vertex) => mermaidShown(vertex.text).join('\n')),
      strings,
    );
    assert.deepEqual(mermaidShown(mermaid?.edges?.[0]?.text ?? ''), ['a --> b']);
  });
});
