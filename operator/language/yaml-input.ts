// YAML manifests → graph objects, with a source location for every node so that every later diagnostic
// (schema, rule or whole-graph compiler) points at FILE:LINE:COL. Bad input becomes diagnostics, never a
// throw: a broken document is reported and skipped, the others still load.
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  parseAllDocuments,
  type Document,
  type Node,
  type YAMLError,
} from 'yaml';
import { API_VERSION, type GraphObject } from '../api/index.js';
import { parentPath, SourceMap, type Diagnostic, type SourceLocation } from '../compiler/diagnostic.js';
import { checkDocument, duplicateDiagnostic } from './check-object.js';

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

interface Loader {
  at: (offset: number) => SourceLocation;
  result: LoadedObjects;
  /** Where each object (kind/namespace/name) was first declared, to report duplicates. */
  seen: Map<string, SourceLocation | undefined>;
}

export function loadYamlObjects(text: string, file?: string): LoadedObjects {
  const lineCounter = new LineCounter();
  const loader: Loader = {
    at: (offset) => {
      const { line, col } = lineCounter.linePos(offset);
      return file === undefined ? { line, column: col } : { file, line, column: col };
    },
    result: { objects: [], sourceMap: new SourceMap(), diagnostics: [] },
    seen: new Map(),
  };
  const deep = deepNesting(text);
  if (deep !== undefined) {
    const message = `nests deeper than ${MAX_NESTING} levels (streamroute resources nest a few)`;
    loader.result.diagnostics.push(yamlDiagnostic(message, positionOf(text, deep, file)));
    return loader.result;
  }
  const documents = parseAllDocuments(text, {
    lineCounter,
    schema: 'core',
    version: '1.2',
    uniqueKeys: true,
    prettyErrors: false,
  });
  for (const document of documents) loadDocument(loader, document);
  return loader.result;
}

const BRACKETS: Readonly<Record<string, number>> = { '[': 1, '{': 1, ']': -1, '}': -1 };

/**
 * Offset where the input first nests beyond MAX_NESTING: flow brackets, plus the block levels that a
 * line's indentation and compact `- - -` markers open (two columns a level). Brackets in strings count
 * too; no manifest has hundreds open.
 */
function deepNesting(text: string): number | undefined {
  let brackets = 0;
  let offset = 0;
  for (const line of text.split('\n')) {
    const lead = /^[ -]*/.exec(line)?.[0].length ?? 0;
    const block = lead / 2;
    if (block > MAX_NESTING) return offset + lead;
    for (let index = lead; index < line.length; index++) {
      brackets = Math.max(0, brackets + (BRACKETS[line.charAt(index)] ?? 0));
      if (brackets + block > MAX_NESTING) return offset + index;
    }
    offset += line.length + 1;
  }
  return undefined;
}

function loadDocument(loader: Loader, document: Document.Parsed): void {
  const { contents } = document;
  if (document.errors.length > 0) {
    loader.result.diagnostics.push(...document.errors.map((error) => syntaxError(loader, error)));
    return;
  }
  if (contents === null || isEmpty(contents)) return;
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error: unknown) {
    const reason = error instanceof Error ? error.message : 'cannot be read';
    loader.result.diagnostics.push(yamlDiagnostic(reason, loader.at(contents.range[0])));
    return;
  }
  if (isList(value) && isMap(contents)) {
    const items = contents.get('items', true);
    const nodes = isSeq(items) ? items.items : [];
    value.items.forEach((item, index) => addObject(loader, item, nodes[index] ?? contents));
    return;
  }
  addObject(loader, value, contents);
}

/** `kind: List` (what `kubectl get -o yaml` prints) or a typed list such as `RelayList`. */
function isList(value: unknown): value is { items: unknown[] } {
  if (!isRecord(value) || !Array.isArray(value.items) || typeof value.kind !== 'string') return false;
  return value.kind === 'List' || (value.apiVersion === API_VERSION && value.kind.endsWith('List'));
}

function addObject(loader: Loader, value: unknown, node: unknown): void {
  const locations = nodeLocations(loader.at, node);
  const locate = (path: string) => locateIn(locations, path);
  const check = checkDocument(value, locate);
  if (!check.ok) {
    loader.result.diagnostics.push(...check.diagnostics);
    return;
  }
  const { object } = check;
  const key = { kind: object.kind, name: object.metadata.name };
  const id = `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
  if (loader.seen.has(id)) {
    loader.result.diagnostics.push(duplicateDiagnostic(key, locate('metadata.name'), loader.seen.get(id)));
    return;
  }
  loader.seen.set(id, locate('metadata.name'));
  for (const [path, location] of locations) loader.result.sourceMap.set(key, path, location);
  loader.result.objects.push(object);
}

/**
 * Every node path of one object and where it starts. A mapping entry is located at its key: the line
 * reads `key: value`, and an unknown or missing field has no value to point at.
 */
function nodeLocations(at: (offset: number) => SourceLocation, root: unknown): Locations {
  const locations: Locations = new Map();
  if (isNode(root)) locations.set('', at(rangeStart(root)));
  const walk = (node: unknown, path: string, depth: number): void => {
    if (depth > MAX_DEPTH) return;
    for (const [childPath, child, located] of children(node, path)) {
      locations.set(childPath, at(rangeStart(located)));
      walk(child, childPath, depth + 1);
    }
  };
  walk(root, '', 0);
  return locations;
}

/** The direct children of a map or sequence: their path, node, and the node that locates them. */
function children(node: unknown, path: string): [string, unknown, Node][] {
  if (isSeq(node)) {
    return node.items.flatMap((item, index) => (isNode(item) ? [[`${path}[${index}]`, item, item]] : []));
  }
  if (!isMap(node)) return [];
  return node.items.flatMap((pair): [string, unknown, Node][] => {
    if (!isScalar(pair.key)) return [];
    const key = String(pair.key.value);
    return [[path === '' ? key : `${path}.${key}`, pair.value, pair.key]];
  });
}

function locateIn(locations: Locations, path: string): SourceLocation | undefined {
  for (let prefix = path; ; prefix = parentPath(prefix)) {
    const found = locations.get(prefix);
    if (found !== undefined || prefix === '') return found;
  }
}

function syntaxError(loader: Loader, error: YAMLError): Diagnostic {
  return yamlDiagnostic(error.message, loader.at(error.pos[0]));
}

function yamlDiagnostic(message: string, location: SourceLocation): Diagnostic {
  return { code: 'SR1010', severity: 'error', message: `not valid YAML: ${message}`, location };
}

/** Line and column of an offset, for input rejected before the parser (and its LineCounter) ran. */
function positionOf(text: string, offset: number, file: string | undefined): SourceLocation {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return file === undefined ? { line, column } : { file, line, column };
}

/** `---` alone, or only comments, parses as a null scalar with no text. */
function isEmpty(node: Node): boolean {
  return isScalar(node) && node.value === null && node.source === '';
}

function isNode(value: unknown): value is Node {
  return isMap(value) || isSeq(value) || isScalar(value) || isAlias(value);
}

function rangeStart(node: Node): number {
  return node.range?.[0] ?? 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
