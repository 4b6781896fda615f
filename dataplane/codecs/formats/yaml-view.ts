// A parsed YAML document as JSON view text or values (view-sink.ts), built while walking the document's
// nodes (not through the library's toJS, so that keys, aliases and limits follow our rules and positions
// stay at hand):
// - aliases are expanded, resolved to the anchor that precedes them in the text; what aliases add is
//   budgeted per payload (YAML_MAX_ALIAS_NODES, YAML_MAX_ALIAS_TEXT: the view text they add, counted
//   alike when values are built), so a "billion laughs" stops early;
// - a map key must be a scalar and becomes text (`1` → "1", `~` → "null"); two keys with the same text
//   are a duplicate; a collection as a key has no JSON view;
// - `.inf`/`.nan` become "Infinity"/"NaN" strings, !!binary standard base64 text.
import type { Alias, Document, Node, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import type { MessageErrorCode } from '../../core/errors.js';
import { fail } from './format-failure.js';
import { yamlLibrary } from './format-libraries.js';
import { MAX_DEPTH, YAML_MAX_ALIAS_NODES, YAML_MAX_ALIAS_TEXT } from './format-limits.js';
import { TEXT_SINK, type ViewSink } from './view-sink.js';

/** What alias expansion has added so far to the JSON view of one payload (all its documents). */
export interface AliasBudget {
  nodes: number;
  text: number;
}

/** `line L, column C` of an offset into the payload's text. */
export type Position = (offset: number) => string;

export class YamlView<V> {
  private readonly anchors = new Map<string, Node>();
  private readonly targets = new WeakMap<Alias, Node>();
  private readonly open = new Set<Node>();
  private expanding = 0;
  /** The outermost alias being expanded: where a budget failure is reported. */
  private expandedAlias: Alias | undefined;

  constructor(
    private readonly label: string,
    private readonly position: Position,
    private readonly budget: AliasBudget,
    private readonly sink: ViewSink<V>,
  ) {}

  document(doc: Document.Parsed): V {
    return doc.contents === null ? this.sink.null : this.node(doc.contents, 0);
  }

  private node(node: Node, depth: number): V {
    if (this.expanding > 0 && ++this.budget.nodes > YAML_MAX_ALIAS_NODES) {
      this.stop('SR3011', `aliases expand to more than ${YAML_MAX_ALIAS_NODES} nodes`, this.expandedAlias);
    }
    if (yamlLibrary().isAlias(node)) return this.alias(node, depth);
    this.remember(node);
    if (yamlLibrary().isScalar(node)) return this.scalar(node);
    if (!yamlLibrary().isMap(node) && !yamlLibrary().isSeq(node))
      this.stop('SR3010', 'a node with no JSON view', node);
    if (depth >= MAX_DEPTH) this.stop('SR3011', `nesting deeper than ${MAX_DEPTH}`, node);
    this.open.add(node);
    const view = yamlLibrary().isMap(node) ? this.map(node, depth + 1) : this.seq(node, depth + 1);
    this.open.delete(node);
    return view;
  }

  private map(map: YAMLMap, depth: number): V {
    const seen = new Set<string>();
    let object = this.sink.object();
    for (const pair of map.items) {
      const key = this.key(pair.key);
      if (seen.has(key)) this.stop('SR3010', 'a duplicate key (the second one is here)', pair.key ?? map);
      seen.add(key);
      const value =
        pair.value === null || pair.value === undefined
          ? this.sink.null
          : this.node(pair.value as Node, depth);
      if (this.expanding > 0) this.charge(JSON.stringify(key).length);
      object = this.sink.entry(object, key, value);
    }
    return this.sink.endObject(object);
  }

  private seq(seq: YAMLSeq, depth: number): V {
    let array = this.sink.array();
    for (const item of seq.items) {
      array = this.sink.item(array, item === null ? this.sink.null : this.node(item as Node, depth));
    }
    return this.sink.endArray(array);
  }

  /** A map key as text: a scalar's value (strings as they are, others as their JSON text). */
  private key(key: unknown): string {
    if (key === null || key === undefined) return 'null';
    const node = yamlLibrary().isAlias(key) ? this.target(key) : (key as Node);
    if (!yamlLibrary().isScalar(node))
      this.stop('SR3010', 'a collection as a map key (the JSON view has text keys only)', key);
    if (!yamlLibrary().isAlias(key)) this.remember(node);
    if (typeof node.value === 'string') return node.value;
    const text = this.scalarIn(TEXT_SINK, node);
    return text.startsWith('"') ? (JSON.parse(text) as string) : text;
  }

  /** A scalar's view; what it adds to the view text is charged when an alias is being expanded. */
  private scalar(node: Scalar): V {
    const view = this.scalarIn(this.sink, node);
    if (this.expanding > 0) this.charge(this.sink.textLength(view) ?? this.scalarIn(TEXT_SINK, node).length);
    return view;
  }

  private scalarIn<T>(sink: ViewSink<T>, node: Scalar): T {
    const view = scalarView(sink, node.value);
    // Not `??`: a null scalar's value is null.
    return view === undefined ? this.stop('SR3010', 'a scalar with no JSON view', node) : view;
  }

  private alias(alias: Alias, depth: number): V {
    const target = this.target(alias);
    if (this.expanding === 0) this.expandedAlias = alias;
    this.expanding += 1;
    try {
      return this.node(target, depth);
    } finally {
      this.expanding -= 1;
    }
  }

  /** The node an alias stands for: the last node anchored with its name before it in the text. */
  private target(alias: Alias): Node {
    const target = this.targets.get(alias) ?? this.anchors.get(alias.source);
    if (target === undefined)
      return this.stop('SR3010', 'an alias to an anchor not defined before it', alias);
    if (this.open.has(target))
      this.stop('SR3010', 'an alias inside the node it refers to (recursion)', alias);
    // Resolved once, where the alias stands; when its anchor is expanded again later, anchors redefined in
    // between must not change what it means.
    if (this.expanding === 0) this.targets.set(alias, target);
    return target;
  }

  private remember(node: Node): void {
    if (this.expanding === 0 && node.anchor !== undefined) this.anchors.set(node.anchor, node);
  }

  /** Counts `length` characters of view text that alias expansion adds against the payload's budget. */
  private charge(length: number): void {
    this.budget.text += length;
    if (this.budget.text > YAML_MAX_ALIAS_TEXT) {
      this.stop(
        'SR3011',
        `aliases expand to more than ${YAML_MAX_ALIAS_TEXT} characters`,
        this.expandedAlias,
      );
    }
  }

  private stop(code: MessageErrorCode, problem: string, node: unknown): never {
    const range = (node as { range?: readonly number[] } | undefined)?.range;
    const at = this.position(range?.[0] ?? 0);
    return fail(code, `${this.label}: ${problem} at ${at}`, at);
  }
}

/** A scalar's value in the view; undefined for a value the JSON view has no form for. */
function scalarView<T>(sink: ViewSink<T>, value: unknown): T | undefined {
  switch (typeof value) {
    case 'string':
      return sink.string(value);
    case 'bigint':
      return sink.integer(value);
    case 'number':
      return sink.float(value);
    case 'boolean':
      return sink.boolean(value);
    default:
      if (value === null) return sink.null;
      return value instanceof Uint8Array ? sink.bytes(value) : undefined;
  }
}
