// Checks a value against a kind's schema offline, the way the API server would: types, required and
// unknown fields, enums, patterns, bounds, list keys, then the CEL rules through their TypeScript twins.
import type { Rule, Schema } from './openapi.js';

export interface SchemaProblem {
  /** Field path such as `spec.routes[1].set[0].value`. */
  path: string;
  message: string;
  /** True when a CEL rule failed (rather than the structural schema). */
  fromRule: boolean;
}

export function validateValue(schema: Schema<unknown>, value: unknown, path: string): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  checkNode(schema, value, path, problems);
  return problems;
}

function checkNode(schema: Schema<unknown>, value: unknown, path: string, problems: SchemaProblem[]): void {
  const before = problems.length;
  const typeProblem = checkType(schema, value);
  if (typeProblem !== undefined) {
    problems.push({ path, message: typeProblem, fromRule: false });
    return;
  }
  for (const message of checkBounds(schema, value)) problems.push({ path, message, fromRule: false });
  if (Array.isArray(value)) checkList(schema, value, path, problems);
  else if (isPlainObject(value)) checkObject(schema, value, path, problems);
  // Like the API server, rules only run over values that passed the structural schema.
  if (problems.length === before) checkRules(schema.rules, value, path, problems);
}

function checkType(schema: Schema<unknown>, value: unknown): string | undefined {
  const { openapi } = schema;
  if (openapi['x-kubernetes-int-or-string']) {
    return Number.isInteger(value) || typeof value === 'string'
      ? undefined
      : 'must be an integer or a string';
  }
  switch (openapi.type) {
    case 'object':
      return isPlainObject(value) ? undefined : 'must be an object';
    case 'array':
      return Array.isArray(value) ? undefined : 'must be a list';
    case 'string':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'integer':
      return Number.isInteger(value) ? undefined : 'must be an integer';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    default:
      return undefined;
  }
}

function checkBounds(schema: Schema<unknown>, value: unknown): string[] {
  const { openapi } = schema;
  const found: string[] = [];
  if (typeof value === 'string') {
    if (openapi.enum && !openapi.enum.includes(value)) {
      found.push(`unsupported value ${JSON.stringify(value)}: expected one of ${openapi.enum.join(', ')}`);
    }
    if (openapi.pattern && !new RegExp(openapi.pattern).test(value)) {
      found.push(`${JSON.stringify(truncate(value))} does not match ${openapi.pattern}`);
    }
    if (openapi.minLength !== undefined && value.length < openapi.minLength) found.push(`must not be empty`);
    if (openapi.maxLength !== undefined && value.length > openapi.maxLength) {
      found.push(`is longer than ${openapi.maxLength} characters`);
    }
  }
  if (typeof value === 'number') {
    if (openapi.minimum !== undefined && value < openapi.minimum)
      found.push(`must be at least ${openapi.minimum}`);
    if (openapi.maximum !== undefined && value > openapi.maximum)
      found.push(`must be at most ${openapi.maximum}`);
  }
  if (Array.isArray(value)) {
    if (openapi.minItems !== undefined && value.length < openapi.minItems) {
      found.push(`needs at least ${openapi.minItems} item${openapi.minItems === 1 ? '' : 's'}`);
    }
    if (openapi.maxItems !== undefined && value.length > openapi.maxItems) {
      found.push(`has more than ${openapi.maxItems} items`);
    }
  }
  return found;
}

function checkList(schema: Schema<unknown>, value: unknown[], path: string, problems: SchemaProblem[]): void {
  const item = schema.items;
  if (item) value.forEach((element, index) => checkNode(item, element, `${path}[${index}]`, problems));
  const listType = schema.openapi['x-kubernetes-list-type'];
  if (listType !== 'map' && listType !== 'set') return;
  const keys = schema.openapi['x-kubernetes-list-map-keys'] ?? [];
  const seen = new Set<string>();
  value.forEach((element, index) => {
    const key =
      listType === 'set' ? JSON.stringify(element) : JSON.stringify(keys.map((k) => pick(element, k)));
    if (seen.has(key))
      problems.push({ path: `${path}[${index}]`, message: `duplicate entry ${key}`, fromRule: false });
    seen.add(key);
  });
}

function checkObject(
  schema: Schema<unknown>,
  value: Record<string, unknown>,
  path: string,
  problems: SchemaProblem[],
): void {
  const properties = schema.properties ?? {};
  for (const key of schema.openapi.required ?? []) {
    if (value[key] === undefined)
      problems.push({ path: join(path, key), message: 'is required', fromRule: false });
  }
  for (const [key, element] of Object.entries(value)) {
    const property = properties[key];
    if (property === undefined) {
      if (!schema.openapi['x-kubernetes-preserve-unknown-fields']) {
        problems.push({ path: join(path, key), message: 'is not a known field', fromRule: false });
      }
      continue;
    }
    if (element === null) {
      problems.push({
        path: join(path, key),
        message: 'must not be null (leave it out instead)',
        fromRule: false,
      });
      continue;
    }
    checkNode(property, element, join(path, key), problems);
  }
}

function checkRules(
  rules: readonly Rule<never>[],
  value: unknown,
  path: string,
  problems: SchemaProblem[],
): void {
  for (const rule of rules as readonly Rule<unknown>[]) {
    if (!rule.holds(value))
      problems.push({ path: path + (rule.fieldPath ?? ''), message: rule.message, fromRule: true });
  }
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function pick(element: unknown, key: string): unknown {
  return isPlainObject(element) ? element[key] : undefined;
}

function truncate(text: string): string {
  return text.length > 64 ? `${text.slice(0, 61)}...` : text;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
