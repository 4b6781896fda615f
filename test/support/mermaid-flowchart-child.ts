// Parses Mermaid flowcharts with mermaid's own parser, in a process of its own (mermaid needs a DOM, so
// jsdom's window is made global here and nowhere near the tests): a JSON list of texts on stdin, a JSON
// list of results on stdout, each the vertices and edges mermaid read, or the parse error.
interface Jsdom {
  JSDOM: new (html: string) => { window: { document: unknown } };
}
interface FlowDb {
  getVertices(): Map<string, { id: string; text: string; type?: string }>;
  getEdges(): { start: string; end: string; text: string; stroke: string }[];
}
interface Mermaid {
  parse(text: string): Promise<unknown>;
  mermaidAPI: { getDiagramFromText(text: string): Promise<{ type: string; db: FlowDb }> };
}

// jsdom ships no types; its one export used here is described above.
const jsdom = 'jsdom';
const { JSDOM } = (await import(jsdom)) as Jsdom;
const dom = new JSDOM('<!doctype html><html><body></body></html>');
Object.assign(globalThis, { window: dom.window, document: dom.window.document });
const { default: mermaid } = (await import('mermaid')) as unknown as { default: Mermaid };

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const texts = JSON.parse(Buffer.concat(chunks).toString('utf8')) as string[];
const results: unknown[] = [];
for (const text of texts) {
  try {
    await mermaid.parse(text);
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
    results.push({
      ok: true,
      type: diagram.type,
      vertices: [...diagram.db.getVertices().values()].map(({ id, text, type }) => ({ id, text, type })),
      edges: diagram.db.getEdges().map(({ start, end, text, stroke }) => ({ start, end, text, stroke })),
    });
  } catch (error: unknown) {
    results.push({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
}
process.stdout.write(JSON.stringify(results));
