// Real parsers for the pictures `streamroute graph` prints: Graphviz's `dot` (to SVG, whose node and edge
// groups carry the text Graphviz will show) and mermaid's own flowchart parser (in a child process:
// mermaid-flowchart-child.ts). Each gives back the text a reader would see, so tests compare it with the
// strings that went in. Missing `dot` skips with a message outside CI and fails in CI.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

export interface ShownNode {
  id: string;
  lines: string[];
}
export interface ShownEdge {
  from: string;
  to: string;
  lines: string[];
}

export function dotAvailable(): boolean {
  return spawnSync('dot', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** Skips (outside CI) or fails (in CI) when Graphviz's dot is missing. */
export function requireDotOrSkip(context: Mocha.Context): void {
  if (dotAvailable()) return;
  const message = 'Graphviz dot is not installed (apt-get install graphviz): skipping the DOT checks';
  if (process.env['CI'] !== undefined)
    throw new Error(`${message} — in CI it must be there (.ci/run installs it)`);
  console.log(`      (skipped: ${message})`);
  context.skip();
}

/** `dot -Tsvg`: the SVG, or the tool's error. */
export function dotToSvg(dot: string): { ok: true; svg: string } | { ok: false; error: string } {
  const run = spawnSync('dot', ['-Tsvg'], { input: dot, encoding: 'utf8' });
  if (run.status !== 0) return { ok: false, error: run.stderr };
  return { ok: true, svg: run.stdout };
}

const xmlText = (text: string): string =>
  text.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/gu, (_, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[entity] ?? '';
  });

/**
 * The nodes and edges of a Graphviz SVG: titles (node ids, `a->b`) and the text lines of each. Graphviz
 * writes spaces as no-break spaces where SVG would collapse them; they are read back as spaces (compare
 * with `asDrawn`).
 */
export function svgGroups(svg: string): { nodes: ShownNode[]; edges: ShownEdge[] } {
  const nodes: ShownNode[] = [];
  const edges: ShownEdge[] = [];
  for (const [, kind = '', body = ''] of svg.matchAll(
    /<g id="[^"]*" class="(node|edge)">([\s\S]*?)<\/g>/gu,
  )) {
    const title = xmlText(/<title>([\s\S]*?)<\/title>/u.exec(body)?.[1] ?? '');
    const lines = [...body.matchAll(/<text[^>]*>([\s\S]*?)<\/text>/gu)].map(([, text = '']) =>
      asDrawn(xmlText(text)),
    );
    if (kind === 'node') nodes.push({ id: title, lines });
    else {
      const [from = '', to = ''] = title.split('->');
      edges.push({ from, to, lines });
    }
  }
  return { nodes, edges };
}

/** Text as an SVG from Graphviz carries it: no-break spaces as spaces. */
export function asDrawn(text: string): string {
  return text.replaceAll('\u00a0', ' ');
}

export interface MermaidResult {
  ok: boolean;
  error?: string;
  type?: string;
  vertices?: { id: string; text: string; type?: string }[];
  edges?: { start: string; end: string; text: string; stroke: string }[];
}

/** Each text through mermaid's parser (one child process for all of them). */
export function parseMermaid(texts: readonly string[]): Promise<MermaidResult[]> {
  const script = join(import.meta.dirname, 'mermaid-flowchart-child.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stdin.end(JSON.stringify(texts));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`the mermaid parser exited with ${code}`));
      else resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as MermaidResult[]);
    });
  });
}

/**
 * The text a Mermaid label shows: mermaid keeps entities as its own markers (`ﬂ°°35¶ß` for `#35;`,
 * `ﬂ°quot¶ß` for `#quot;`), which it turns into HTML entities when it draws; `<br>` breaks the line.
 */
export function mermaidShown(text: string): string[] {
  const html = text.replaceAll('ﬂ°°', '&#').replaceAll('ﬂ°', '&').replaceAll('¶ß', ';');
  return html.split(/<br\s*\/?>/u).map(xmlText);
}
