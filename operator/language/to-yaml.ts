// Graph objects → multi-document YAML for `kubectl apply -f -`. Keys follow the kind's schema so the
// output reads like the reference docs; multi-line JAQ programs become literal block scalars, and every
// document is re-read to prove the text says exactly what the object holds.
import { isDeepStrictEqual } from 'node:util';
import { kindDefinition, type GraphObject } from '../api/index.js';
import type { Schema } from '../api/openapi.js';
import { isPlainObject } from '../api/validate.js';
import { yamlLib } from './yaml-lib.js';

const TOP_ORDER = ['apiVersion', 'kind', 'metadata', 'spec'];
const METADATA_ORDER = ['name', 'namespace', 'labels', 'annotations'];
/** Written by the API server; a manifest that carries them fights the server on apply. */
const SERVER_METADATA = new Set([
  'generation',
  'resourceVersion',
  'uid',
  'creationTimestamp',
  'managedFields',
]);

export function objectsToYaml(objects: readonly GraphObject[]): string {
  return objects.map(objectToYaml).join('---\n');
}

/** One document; `status` and server-owned metadata are left out because `kubectl apply` must not set them. */
export function objectToYaml(object: GraphObject): string {
  const value = manifestOf(object);
  const text = render(value, false);
  // kubectl reads YAML 1.1 and we read YAML 1.2; the text must mean the same to both.
  if (readsBackAs(text, value)) return text;
  return render(value, true);
}

function manifestOf(object: GraphObject): Record<string, unknown> {
  const metadata = Object.fromEntries(
    Object.entries(object.metadata).filter(([key]) => !SERVER_METADATA.has(key)),
  );
  const spec = kindDefinition(object.kind)?.spec;
  return orderKeys(
    {
      apiVersion: object.apiVersion,
      kind: object.kind,
      metadata: orderKeys(metadata, METADATA_ORDER),
      spec: spec === undefined ? object.spec : orderBySchema(object.spec, spec),
    },
    TOP_ORDER,
  );
}

function orderBySchema(value: unknown, schema: Schema<unknown>): unknown {
  const { items, properties } = schema;
  if (Array.isArray(value)) {
    return items === undefined ? value : value.map((element) => orderBySchema(element, items));
  }
  if (!isPlainObject(value) || properties === undefined) return value;
  const ordered = orderKeys(value, Object.keys(properties));
  for (const [key, element] of Object.entries(ordered)) {
    const property = properties[key];
    if (property !== undefined) ordered[key] = orderBySchema(element, property);
  }
  return ordered;
}

/** Known keys in the given order, then any others in their original order. */
function orderKeys(value: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  const known = order.filter((key) => value[key] !== undefined);
  const rest = Object.keys(value).filter((key) => !order.includes(key) && value[key] !== undefined);
  return Object.fromEntries([...known, ...rest].map((key) => [key, value[key]]));
}

function render(value: unknown, quoteAll: boolean): string {
  // YAML 1.1 quoting covers what kubectl would misread (yes, on, 0777); strings YAML 1.2 would read
  // as something else (0o17, .inf) are quoted below.
  const { Document, Scalar, visit } = yamlLib();
  const document = new Document(value, { version: '1.1', aliasDuplicateObjects: false });
  visit(document, {
    Scalar(_key, node) {
      if (typeof node.value !== 'string') return;
      if (quoteAll) node.type = Scalar.QUOTE_DOUBLE;
      else if (node.value.includes('\n')) node.type = Scalar.BLOCK_LITERAL;
      else if (!plainReadsAsString(node.value)) node.type = Scalar.QUOTE_DOUBLE;
    },
  });
  return document.toString({ lineWidth: 0 });
}

function plainReadsAsString(text: string): boolean {
  const { isScalar, parseDocument } = yamlLib();
  const read = parseDocument(`${text}\n`, { schema: 'core' });
  return read.errors.length === 0 && isScalar(read.contents) && read.contents.value === text;
}

function readsBackAs(text: string, value: unknown): boolean {
  const { parseDocument } = yamlLib();
  return [parseDocument(text, { schema: 'core' }), parseDocument(text, { version: '1.1' })].every(
    (read) => read.errors.length === 0 && isDeepStrictEqual(read.toJS(), value),
  );
}
