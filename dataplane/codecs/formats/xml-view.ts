// An XML document, as fast-xml-parser gives it in order (preserveOrder), as JSON view text or values
// (view-sink.ts). The mapping
// (docs/decisions/0010-xml-json-view.md):
//   {"<root>": element}, where an element with neither attributes nor child elements is its text (a
//   string, "" when empty), and any other element is an object of
//   - "@<name>": each attribute's value (a string), in document order;
//   - "#text": the element's text — all its text and CDATA pieces joined — when it is not empty (not only
//     white space, when the element also has child elements: that is indentation);
//   - "<child>": an ARRAY of every child element of that name, in document order — always an array, also
//     for a single child, so a program reads `.order.item[]` whatever the count.
// Names are kept as written, prefixes included (`soap:Body`, `@xmlns:soap`); all values are strings.
import { fail } from './format-failure.js';
import { MAX_DEPTH } from './format-limits.js';
import type { ViewSink } from './view-sink.js';
import { decodeReferences, normalizeAttribute } from './xml-text.js';

/** One node of fast-xml-parser's ordered output: `{name: children, ':@'?: attributes}` or a text node. */
export type OrderedNode = Record<string, unknown>;

/** Put before every element name by the parser's transformTagName, so no name can clash with ours. */
export const NAME_MARK = '\u0001';
const ATTRIBUTES = ':@';
const TEXT = '#text';
const CDATA = '#cdata';
const NOT_WHITE_SPACE = /[^ \t\r\n]/;
const SHOWN_STEPS = 8;

export class XmlView<V> {
  /** Where the walk is: each element's position among its parent's child elements (1-based). */
  private readonly path: number[] = [];

  constructor(private readonly sink: ViewSink<V>) {}

  /** The view of a document: its one root element, with nothing but white space around it. */
  document(nodes: readonly OrderedNode[]): V {
    let root: OrderedNode | undefined;
    for (const node of nodes) {
      if (isText(node, TEXT) && !NOT_WHITE_SPACE.test(node[TEXT] as string)) continue;
      if (isText(node, TEXT) || isText(node, CDATA)) fail('SR3010', 'XML: text outside the root element');
      if (root !== undefined) fail('SR3010', 'XML: more than one root element');
      root = node;
    }
    if (root === undefined) return fail('SR3010', 'XML: no root element');
    const [key, name] = elementName(root);
    const { sink } = this;
    return sink.endObject(sink.entry(sink.object(), name, this.element(root, key, 1)));
  }

  private element(node: OrderedNode, key: string, position: number): V {
    this.path.push(position);
    if (this.path.length > MAX_DEPTH)
      fail('SR3011', `XML: elements nested deeper than ${MAX_DEPTH} at ${this.where()}`, this.where());
    let text = '';
    const children = new Map<string, V[]>();
    let elements = 0;
    for (const child of node[key] as OrderedNode[]) {
      if (isText(child, TEXT)) text += this.text(child[TEXT] as string);
      else if (isText(child, CDATA)) text += cdataText(child);
      else this.child(child, children, (elements += 1));
    }
    const attributes = this.attributes(node[ATTRIBUTES] as Record<string, string> | undefined);
    this.path.pop();
    return this.elementView(attributes, text, children);
  }

  private child(child: OrderedNode, children: Map<string, V[]>, position: number): void {
    const [key, name] = elementName(child);
    const view = this.element(child, key, position);
    const views = children.get(name);
    if (views === undefined) children.set(name, [view]);
    else views.push(view);
  }

  /** The attributes as name, value, name, value…, in document order. */
  private attributes(attributes: Record<string, string> | undefined): string[] {
    const view: string[] = [];
    if (attributes === undefined) return view;
    for (const key of Object.keys(attributes)) {
      const raw = attributes[key] as string;
      if (raw.includes('<'))
        fail('SR3010', `XML: a '<' inside an attribute value in ${this.where()}`, this.where());
      const value = normalizeAttribute(raw);
      const text = value.includes('&') ? decodeReferences(value, () => this.where()) : value;
      view.push(key, text);
    }
    return view;
  }

  /** An element's view: its text alone, or an object of attributes, text and children. */
  private elementView(attributes: readonly string[], text: string, children: Map<string, V[]>): V {
    const { sink } = this;
    if (attributes.length === 0 && children.size === 0) return sink.string(text);
    const keep = children.size === 0 ? text !== '' : NOT_WHITE_SPACE.test(text);
    let view = sink.object();
    for (let i = 0; i < attributes.length; i += 2) {
      view = sink.entry(view, attributes[i] as string, sink.string(attributes[i + 1] as string));
    }
    if (keep) view = sink.entry(view, TEXT, sink.string(text));
    for (const [name, views] of children) {
      let array = sink.array();
      for (const item of views) array = sink.item(array, item);
      view = sink.entry(view, name, sink.endArray(array));
    }
    return sink.endObject(view);
  }

  private text(raw: string): string {
    if (raw.includes(']]>')) fail('SR3010', `XML: ']]>' in text content in ${this.where()}`, this.where());
    return raw.includes('&') ? decodeReferences(raw, () => this.where()) : raw;
  }

  /**
   * The element being read as a path of positions, never of names (a payload chose them): `/*[1]/*[3]` is
   * the third child element of the root, in XPath's own notation; the last few steps of a deep path.
   */
  private where(): string {
    const steps = this.path.slice(-SHOWN_STEPS).map((position) => `/*[${position}]`);
    return `element ${this.path.length > SHOWN_STEPS ? '…' : ''}${steps.join('')}`;
  }
}

function isText(node: OrderedNode, kind: typeof TEXT | typeof CDATA): boolean {
  return Object.hasOwn(node, kind);
}

/** A CDATA section's content, as it is (no references inside). */
function cdataText(node: OrderedNode): string {
  const [piece] = node[CDATA] as OrderedNode[];
  return (piece?.[TEXT] as string | undefined) ?? '';
}

/** The key of an element node in the parser's output, and the element's name as written. */
function elementName(node: OrderedNode): [string, string] {
  const key = Object.keys(node).find((candidate) => candidate !== ATTRIBUTES) ?? '';
  let start = 0;
  while (key[start] === NAME_MARK) start += 1;
  return [key, key.slice(start)];
}
