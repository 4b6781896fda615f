// Walks values.schema.json beside values.yaml for the chart's schema tests: which objects are not
// closed, which keys one names and the other does not, and where values.yaml has closed objects.
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  definitions?: Record<string, JsonSchema>;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  not?: JsonSchema;
  [keyword: string]: unknown;
}

/** A closed object of values.yaml: where it is, the keys values.yaml gives it and those the schema allows. */
export interface ClosedObject {
  path: string[];
  valueKeys: string[];
  schemaKeys: string[];
}

/** Definitions named `k8s.*` are Kubernetes types: values.yaml sets only some of their fields. */
const KUBERNETES_TYPE = '#/definitions/k8s.';

function resolve(root: JsonSchema, schema: JsonSchema): JsonSchema {
  let at = schema;
  while (at.$ref !== undefined) {
    const name = at.$ref.replace('#/definitions/', '');
    const target = root.definitions?.[name];
    if (target === undefined) throw new Error(`unresolved $ref ${at.$ref}`);
    at = target;
  }
  return at;
}

/** A key kept in the schema only to refuse it with a message (`not: {}`): a removed value. */
function isRemoved(schema: JsonSchema): boolean {
  return schema.not !== undefined && Object.keys(schema.not).length === 0;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function children(schema: JsonSchema): [string, JsonSchema][] {
  const found: [string, JsonSchema][] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {}))
    found.push([`properties/${name}`, child]);
  for (const [name, child] of Object.entries(schema.definitions ?? {}))
    found.push([`definitions/${name}`, child]);
  if (schema.items !== undefined) found.push(['items', schema.items]);
  if (isObject(schema.additionalProperties))
    found.push(['additionalProperties', schema.additionalProperties]);
  for (const keyword of ['oneOf', 'anyOf', 'allOf'] as const)
    (schema[keyword] ?? []).forEach((child, i) => found.push([`${keyword}/${i}`, child]));
  if (schema.not !== undefined) found.push(['not', schema.not]);
  return found;
}

/** Every schema node (JSON pointer) describing an object that would accept an unknown key. */
export function closedObjectViolations(root: JsonSchema): string[] {
  const violations: string[] = [];
  const visit = (schema: JsonSchema, pointer: string): void => {
    const types = [schema.type ?? []].flat();
    if (schema.properties !== undefined && schema.additionalProperties !== false)
      violations.push(`${pointer}: has properties but not additionalProperties: false`);
    if (types.includes('object') && schema.properties === undefined && !isObject(schema.additionalProperties))
      violations.push(`${pointer}: an object with neither properties nor a schema for its values`);
    for (const [name, child] of children(schema)) visit(child, `${pointer}/${name}`);
  };
  visit(root, '#');
  return violations;
}

/** Keys in values.yaml the schema lacks, and keys of the chart's own objects values.yaml lacks. */
export function keyMismatches(root: JsonSchema, values: Record<string, unknown>): string[] {
  const mismatches: string[] = [];
  const visit = (node: JsonSchema, value: unknown, path: string, kubernetesType: boolean): void => {
    const schema = resolve(root, node);
    const typed = kubernetesType || (node.$ref?.startsWith(KUBERNETES_TYPE) ?? false);
    if (!isObject(value) || schema.properties === undefined) return;
    const properties = schema.properties;
    for (const [key, child] of Object.entries(value)) {
      const property = properties[key];
      if (property === undefined || isRemoved(property))
        mismatches.push(`${path}.${key}: in values.yaml, not in the schema`);
      else visit(property, child, `${path}.${key}`, typed);
    }
    if (typed) return;
    for (const [key, property] of Object.entries(properties))
      if (!isRemoved(property) && !(key in value))
        mismatches.push(`${path}.${key}: in the schema, not in values.yaml`);
  };
  visit(root, values, '', false);
  return mismatches;
}

/** Every object of values.yaml the schema closes (the root included), with its keys. */
export function closedObjects(root: JsonSchema, values: Record<string, unknown>): ClosedObject[] {
  const found: ClosedObject[] = [];
  const visit = (node: JsonSchema, value: unknown, path: string[]): void => {
    const schema = resolve(root, node);
    if (!isObject(value) || schema.properties === undefined) return;
    const schemaKeys = Object.keys(schema.properties).filter((key) => !isRemoved(schema.properties![key]!));
    found.push({ path, valueKeys: Object.keys(value), schemaKeys });
    for (const [key, child] of Object.entries(value)) {
      const property = schema.properties[key];
      if (property !== undefined) visit(property, child, [...path, key]);
    }
  };
  visit(root, values, []);
  return found;
}

/**
 * The dotted path of every value of values.yaml a user sets as a whole: the chart's own objects are
 * walked into, while a Kubernetes type, a map or a list is one value (`operator.resources`).
 */
export function valuePaths(root: JsonSchema, values: Record<string, unknown>): string[] {
  const paths: string[] = [];
  const visit = (node: JsonSchema, value: unknown, path: string): void => {
    const schema = resolve(root, node);
    const chartObject =
      isObject(value) &&
      schema.properties !== undefined &&
      !(node.$ref?.startsWith(KUBERNETES_TYPE) ?? false);
    if (!chartObject) {
      paths.push(path);
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      const property = schema.properties?.[key];
      if (property !== undefined) visit(property, child, path === '' ? key : `${path}.${key}`);
    }
  };
  visit(root, values, '');
  return paths;
}
