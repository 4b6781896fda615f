// A value as an XML document, by the XML view's mapping read backwards (xml-view.ts): the value is an
// object with one key, the root element; an element is a scalar (its text; null is an empty element) or
// an object of "@attribute" scalars, an optional "#text" and child elements. A child's value may be an
// array (one element per item, in order) or a single value (one element). Numbers and booleans are
// written as their JSON text; a null attribute or "#text" is left out. The tree is handed to
// fast-xml-parser's XMLBuilder in its ordered form, every string already escaped here.
import type { JsonObject, JsonValue } from '../json-value.js';
import { fail, keyPath, keyStep, type PathStep } from './format-failure.js';
import { xmlLibrary } from './format-libraries.js';
import { MAX_DEPTH } from './format-limits.js';
import type { OrderedNode } from './xml-view.js';
import { escapeAttribute, escapeText, isXmlName, notXmlCharOffset } from './xml-text.js';

const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

let builder: InstanceType<typeof import('fast-xml-parser').XMLBuilder> | undefined;

/** The builder, made on the first XML payload written. */
function xmlBuilder(): InstanceType<typeof import('fast-xml-parser').XMLBuilder> {
  builder ??= new (xmlLibrary().XMLBuilder)({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    textNodeName: '#text',
    processEntities: false, // escaped by xml-text.ts, which also keeps CR, tabs and line feeds
    suppressEmptyNode: true,
    suppressBooleanAttributes: false,
    format: false,
    maxNestedTags: MAX_DEPTH + 1,
  });
  return builder;
}

type Path = PathStep[];

export function xmlDocument(value: JsonValue): string {
  const keys = isObject(value) ? Object.keys(value) : [];
  const name = keys[0];
  if (!isObject(value) || name === undefined || keys.length !== 1) {
    return cannot('a value that is not an object with exactly one key (the root element)', []);
  }
  const root = value[name] as JsonValue;
  if (Array.isArray(root)) cannot('an array as the root element (a document has one root)', [keyStep(0)]);
  return DECLARATION + xmlBuilder().build([element(name, root, [keyStep(0)])]);
}

function element(name: string, value: JsonValue, path: Path): OrderedNode {
  if (!isXmlName(name)) cannot('an element whose name is not an XML name', path);
  if (isObject(value)) return objectElement(name, value, path);
  const text = value === null ? '' : scalarText(value, path);
  return { [name]: text === '' ? [] : [{ '#text': escapeText(text) }] };
}

/** An element from an object: "@name" attributes, "#text", and the other keys as child elements. */
function objectElement(name: string, value: JsonObject, path: Path): OrderedNode {
  const attributes: Record<string, string> = {};
  const content: OrderedNode[] = [];
  let text = '';
  for (const [index, key] of Object.keys(value).entries()) {
    const item = value[key] as JsonValue;
    path.push(keyStep(index));
    if (key.startsWith('@')) attribute(key, item, attributes, path);
    else if (key === '#text') text = item === null ? '' : scalarText(item, path);
    else content.push(...children(key, item, path));
    path.pop();
  }
  if (text !== '') content.unshift({ '#text': escapeText(text) });
  const node: OrderedNode = { [name]: content };
  if (Object.keys(attributes).length > 0) node[':@'] = attributes;
  return node;
}

function children(name: string, value: JsonValue, path: Path): OrderedNode[] {
  if (!Array.isArray(value)) return [element(name, value, path)];
  return value.map((item, index) => {
    path.push(index);
    if (Array.isArray(item)) cannot('an array inside an array (an element is a scalar or an object)', path);
    const node = element(name, item, path);
    path.pop();
    return node;
  });
}

function attribute(key: string, value: JsonValue, attributes: Record<string, string>, path: Path): void {
  if (!isXmlName(key.slice(1))) cannot('an attribute whose name is not an XML name', path);
  if (value !== null) attributes[key] = escapeAttribute(scalarText(value, path));
}

/** A scalar as XML text; an array or object where text belongs cannot be written. */
function scalarText(value: JsonValue, path: Path): string {
  if (typeof value === 'string') {
    if (notXmlCharOffset(value) !== -1) cannot('a string with a character XML does not allow', path);
    return value;
  }
  if (value === null || typeof value === 'object')
    return cannot('an array or object where text belongs', path);
  return typeof value === 'number' ? JSON.stringify(value) : String(value);
}

function isObject(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function cannot(problem: string, path: Path): never {
  const at = keyPath(path);
  return fail('SR3008', `XML: cannot write ${problem} at ${at}`, at);
}
