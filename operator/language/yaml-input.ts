// YAML manifests → graph objects, with a source location for every node so that every later diagnostic
// (schema, rule or whole-graph compiler) points at FILE:LINE:COL. Bad input becomes diagnostics, never a
// throw: a broken document is reported and skipped, the others still load.
import { type Document, type Node, type YAMLError } from 'yaml';
import { yamlLib } from './yaml-lib.js';
import { API_VERSION, isGraphKind, type GraphObject } from '../api/index.js';
import { isPlainObject } from '../api/validate.js';
import {
  SourceMap,
  type Diagnostic,
  type ObjectKey,
  type SourceLocation,
} from '../diagnostics/diagnostic.js';
import { checkExpressionText } from './check-expression-text.js';
import { checkDocument } from './check-object.js';
import { Declarations } from './declarations.js';
import { reservedNamesOf } from './reserved-names.js';
import { locationAt } from './text-positions.js';
import { MAX_YAML_ERRORS, readYamlDocuments } from './yaml-documents.js';
import { firstObjectKey } from './yaml-keys.js';
import { offsetInScalar } from './yaml-scalar-position.js';

export interface LoadedObjects {
  objects: GraphObject[];
  sourceMap: SourceMap;
  diagnostics: Diagnostic[];
}

/** Aliases are rare in manifests and the classic way to make a small file expand into a huge one. */
const MAX_ALIAS_COUNT = 16;
/** Our kinds nest a few levels; deeper input is walked no further for locations. */
const MAX_DEPTH = 32;
/**
 * Input nesting far deeper than any manifest is refused before parsing: the yaml parser overflows the
 * stack on it, and after that a later deep document can exhaust the process's memory.
 */
const MAX_NESTING = 200;

type Locations = Map<string, SourceLocation>;

/** One object's nodes by field path: where each starts, and the node holding each value. */
interface NodeIndex {
  locations: Locations;
  values: Map<string, Node>;
}

interface Loader {
  text: string;
  at: (offset: number) => SourceLocation;
  result: LoadedObjects;
  declared: Declarations<unknown>;
}

export interface YamlOptions {
  /**
   * Objects declared so far, by other inputs (the CLI loads several files as one domain); an object
   * declared again is SR1014. Each call adds what it loads.
   */
  declared?: Declarations<unknown>;
}

export function loadYamlObjects(text: string, file?: string, options: YamlOptions = {}): LoadedObjects {
  const lineCounter = new (yamlLib().LineCounter)();
  const loader: Loader = {
    text,
    at: (offset) => {
      const { line, col } = lineCounter.linePos(offset);
      return file === undefined ? { line, column: col } : { file, line, column: col };
    },
    result: { objects: [], sourceMap: new SourceMap(), diagnostics: [] },
    declared: options.declared ?? new Declarations(),
  };
  const deep = deepNesting(text);
  if (deep !== undefined) {
    const message = `nests deeper than ${MAX_NESTING} levels (streamroute resources nest a few)`;
    loader.result.diagnostics.push(yamlDiagnostic(message, locationAt(text, deep, file)));
    return loader.result;
  }
  const { documents, stopped } = readYamlDocuments(
    text,
    { schema: 'core', version: '1.2', uniqueKeys: true, prettyErrors: false },
    lineCounter,
  );
  for (const document of documents) loadDocument(loader, document);
  if (stopped !== undefined) {
    addSyntaxErrors(loader, stopped.errors);
    const message =
      stopped.why === 'errors'
        ? `more than ${MAX_YAML_ERRORS} errors: the rest of the file was not read`
        : 'nests too deeply for the YAML parser here (it ran out of stack): the rest of the file was not read';
    loader.result.diagnostics.push(yamlDiagnostic(message, loader.at(stopped.offset)));
  }
  return loader.result;
}

const BRACKETS: Readonly<Record<string, number>> = { '[': 1, '{': 1, ']': -1, '}': -1 };

/**
 * Offset where the input first nests beyond MAX_NESTING: flow brackets, plus the block levels that a
 * line's indentation and compact `- - -` markers open (two columns a level), plus each `key: ` of a line
 * (the parser opens a map for each, even in a chain `a: b: c:` it then refuses, and recurses per map).
 * Brackets and colons in strings count too; no manifest has hundreds on a line.
 */
function deepNesting(text: string): number | undefined {
  let brackets = 0;
  let offset = 0;
  for (const line of text.split('\n')) {
    const lead = /^[ -]*/.exec(line)?.[0].length ?? 0;
    const block = lead / 2;
    if (block > MAX_NESTING) return offset + lead;
    let keys = 0;
    for (let index = lead; index < line.length; index++) {
      const char = line.charAt(index);
      brackets = Math.max(0, brackets + (BRACKETS[char] ?? 0));
      if (char === ':' && isYamlSpace(line.charAt(index + 1))) keys++;
      if (brackets + block + keys > MAX_NESTING) return offset + index;
    }
    offset += line.length + 1;
  }
  return undefined;
}

/** A space, a tab or the end of the line: what makes a `:` a mapping indicator. */
function isYamlSpace(char: string): boolean {
  return char === '' || char === ' ' || char === '\t';
}

function loadDocument(loader: Loader, document: Document.Parsed): void {
  const { contents } = document;
  if (document.errors.length > 0) {
    addSyntaxErrors(loader, document.errors);
    return;
  }
  if (contents === null || isEmpty(contents)) return;
  const objectKey = firstObjectKey(document);
  if (objectKey !== undefined) {
    // toJS would stringify it, and print the key's text in a process warning: refuse it first.
    const message =
      'a mapping key must be a plain value (text, a number, true or false), not a list or mapping';
    loader.result.diagnostics.push(yamlDiagnostic(message, loader.at(objectKey)));
    return;
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error: unknown) {
    const reason = error instanceof Error ? error.message : 'cannot be read';
    loader.result.diagnostics.push(yamlDiagnostic(reason, loader.at(contents.range[0])));
    return;
  }
  if (isList(value) && yamlLib().isMap(contents)) {
    const items = contents.get('items', true);
    const nodes = yamlLib().isSeq(items) ? items.items : [];
    value.items.forEach((item, index) => addObject(loader, item, nodes[index] ?? contents));
    return;
  }
  addObject(loader, value, contents);
}

/** `kind: List` (what `kubectl get -o yaml` prints) or a typed list such as `RelayList`. */
function isList(value: unknown): value is { items: unknown[] } {
  if (!isPlainObject(value) || !Array.isArray(value.items) || typeof value.kind !== 'string') return false;
  return value.kind === 'List' || (value.apiVersion === API_VERSION && value.kind.endsWith('List'));
}

/**
 * Every streamroute object is handed on, also one with problems (reported here, at their place): the
 * compiler rejects it again, so the objects that refer to it wait for it instead of finding nothing.
 * Only a document that names no object of ours (not ours, no name) stops here.
 */
function addObject(loader: Loader, value: unknown, node: unknown): void {
  const nodes = indexNodes(loader.at, node);
  const locate = (path: string) => SourceMap.locateIn(nodes.locations, path);
  const check = checkDocument(value, locate);
  loader.result.diagnostics.push(
    ...(check.ok ? textProblems(loader, check.object, nodes) : check.diagnostics),
  );
  const object = check.ok ? check.object : namedObject(value);
  if (object === undefined) return;
  const key = { kind: object.kind, name: object.metadata.name };
  const declaredKey = { ...key, namespace: object.metadata.namespace };
  const duplicate = loader.declared.claim(declaredKey, object, locate('metadata.name'));
  if (duplicate !== undefined) {
    loader.result.diagnostics.push(duplicate);
    return;
  }
  for (const [path, location] of nodes.locations) loader.result.sourceMap.set(key, path, location);
  loader.result.objects.push(object);
}

/** A document of a graph kind of our API with a name, though it fails its checks; else undefined. */
function namedObject(value: unknown): GraphObject | undefined {
  if (!isPlainObject(value) || value.apiVersion !== API_VERSION) return undefined;
  if (typeof value.kind !== 'string' || !isGraphKind(value.kind)) return undefined;
  const { metadata } = value;
  if (!isPlainObject(metadata) || typeof metadata.name !== 'string') return undefined;
  const { namespace } = metadata;
  return namespace === undefined || typeof namespace === 'string' ? (value as GraphObject) : undefined;
}

/**
 * What the kind's schema cannot see: a name reserved for the SYSLOG wire schema (SR1002), and expression
 * text that is not exactly one expression (SR1015, at the place inside the text when it can be found).
 */
function textProblems(loader: Loader, object: GraphObject, nodes: NodeIndex): Diagnostic[] {
  const key: ObjectKey = { kind: object.kind, name: object.metadata.name };
  const problem = (code: Diagnostic['code'], message: string, path: string, at?: SourceLocation) => {
    const diagnostic: Diagnostic = { code, severity: 'error', message, object: key, path };
    const location = at ?? SourceMap.locateIn(nodes.locations, path);
    if (location !== undefined) diagnostic.location = location;
    return diagnostic;
  };
  return [
    ...reservedNamesOf(object).map(({ path, message }) => problem('SR1002', message, path)),
    ...checkExpressionText(object).map(({ path, diagnostic }) => {
      const message = `the expression does not parse: ${diagnostic.message}`;
      return problem('SR1015', message, path, insideValue(loader, nodes.values.get(path), diagnostic));
    }),
  ];
}

/** Where a diagnostic about a value's text (line and column relative to the text) is in the file. */
function insideValue(
  loader: Loader,
  node: Node | undefined,
  diagnostic: Diagnostic,
): SourceLocation | undefined {
  if (node === undefined) return undefined;
  const inner = diagnostic.location ?? { line: 1, column: 1 };
  const offset = yamlLib().isScalar(node) ? offsetInScalar(loader.text, node, inner) : undefined;
  return loader.at(offset ?? rangeStart(node));
}

/**
 * Every node path of one object: where it starts, and the node holding its value. A mapping entry is
 * located at its key: the line reads `key: value`, and an unknown or missing field has no value to
 * point at.
 */
function indexNodes(at: (offset: number) => SourceLocation, root: unknown): NodeIndex {
  const index: NodeIndex = { locations: new Map(), values: new Map() };
  if (isNode(root)) index.locations.set('', at(rangeStart(root)));
  const walk = (node: unknown, path: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    for (const [childPath, child, located] of children(node, path)) {
      index.locations.set(childPath, at(rangeStart(located)));
      if (isNode(child)) index.values.set(childPath, child);
      walk(child, childPath, depth + 1);
    }
  };
  walk(root, '', 0);
  return index;
}

/** The direct children of a map or sequence: their path, node, and the node that locates them. */
function children(node: unknown, path: string): [string, unknown, Node][] {
  if (yamlLib().isSeq(node)) {
    return node.items.flatMap((item, index) => (isNode(item) ? [[`${path}[${index}]`, item, item]] : []));
  }
  if (!yamlLib().isMap(node)) return [];
  return node.items.flatMap((pair): [string, unknown, Node][] => {
    if (!yamlLib().isScalar(pair.key)) return [];
    const key = String(pair.key.value);
    return [[path === '' ? key : `${path}.${key}`, pair.value, pair.key]];
  });
}

function syntaxError(loader: Loader, error: YAMLError): Diagnostic {
  return yamlDiagnostic(error.message, loader.at(error.pos[0]));
}

/** One by one: a spread of many thousands of diagnostics into one push overflows the stack. */
function addSyntaxErrors(loader: Loader, errors: readonly YAMLError[]): void {
  for (const error of errors) loader.result.diagnostics.push(syntaxError(loader, error));
}

function yamlDiagnostic(message: string, location: SourceLocation): Diagnostic {
  return { code: 'SR1010', severity: 'error', message: `not valid YAML: ${message}`, location };
}

/** `---` alone, or only comments, parses as a null scalar with no text. */
function isEmpty(node: Node): boolean {
  return yamlLib().isScalar(node) && node.value === null && node.source === '';
}

function isNode(value: unknown): value is Node {
  return (
    yamlLib().isMap(value) || yamlLib().isSeq(value) || yamlLib().isScalar(value) || yamlLib().isAlias(value)
  );
}

function rangeStart(node: Node): number {
  return node.range?.[0] ?? 0;
}
