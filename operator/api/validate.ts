// Checks a value against a kind's schema offline, the way the API server would: types, required and
// unknown fields, enums, patterns, bounds, list keys, then the CEL rules through their TypeScript twins.
import type { DiagnosticCode } from '../diagnostics/codes.js';
import type { OpenApiSchema, Rule, Schema } from './openapi.js';

export interface SchemaProblem {
  /** Field path such as `spec.routes[1].set[0].value`. */
  path: string;
  message: string;
  /** True when a CEL rule failed (rather than the structural schema). */
  fromRule: boolean;
  /** The failed rule's diagnostic code, when it names one. */
  code?: DiagnosticCode;
}

export function validateValue(schema: Schema<unknown>, value: unknown, path: string): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  checkNode(schema, value, path, problems);
  return problems;
}

function checkNode(schema: Schema<unknown>, value: unknown, path: string, problems: SchemaProblem[]): void {
  const typeProblem = checkType(schema, value);
  if (typeProblem !== undefined) {
    problems.push({ path, message: typeProblem, fromRule: false });
    return;
  }
  for (const message of checkBounds(schema, value)) problems.push({ path, message, fromRule: false });
  if (Array.isArray(value)) checkList(schema, value, path, problems);
  else if (isPlainObject(value)) checkObject(schema, value, path, problems);
  checkRules(schema.rules, value, path, problems);
}

const TYPE_CHECKS: Record<string, [(value: unknown) => boolean, string]> = {
  object: [isPlainObject, 'must be an object'],
  array: [Array.isArray, 'must be a list'],
  string: [(value) => typeof value === 'string', 'must be a string'],
  integer: [Number.isInteger, 'must be an integer'],
  boolean: [(value) => typeof value === 'boolean', 'must be true or false'],
};

function checkType(schema: Schema<unknown>, value: unknown): string | undefined {
  const { openapi } = schema;
  if (openapi['x-kubernetes-int-or-string']) {
    return Number.isInteger(value) || typeof value === 'string'
      ? undefined
      : 'must be an integer or a string';
  }
  const check = openapi.type === undefined ? undefined : TYPE_CHECKS[openapi.type];
  return check === undefined || check[0](value) ? undefined : check[1];
}

function checkBounds(schema: Schema<unknown>, value: unknown): string[] {
  if (typeof value === 'string') return checkString(schema.openapi, value);
  if (typeof value === 'number') return checkNumber(schema.openapi, value);
  if (Array.isArray(value)) return checkLength(schema.openapi, value);
  return [];
}

function checkString(openapi: OpenApiSchema, value: string): string[] {
  const found: string[] = [];
  if (openapi.enum && !openapi.enum.includes(value)) {
    found.push(`unsupported value ${JSON.stringify(value)}: expected one of ${openapi.enum.join(', ')}`);
  }
  if (openapi.pattern && !new RegExp(openapi.pattern).test(value)) {
    found.push(`${JSON.stringify(truncate(value))} does not match ${openapi.pattern}`);
  }
  if (value.length < (openapi.minLength ?? 0)) found.push('must not be empty');
  if (value.length > (openapi.maxLength ?? Infinity))
    found.push(`is longer than ${openapi.maxLength} characters`);
  return found;
}

function checkNumber(openapi: OpenApiSchema, value: number): string[] {
  const found: string[] = [];
  if (value < (openapi.minimum ?? -Infinity)) found.push(`must be at least ${openapi.minimum}`);
  if (value > (openapi.maximum ?? Infinity)) found.push(`must be at most ${openapi.maximum}`);
  return found;
}

function checkLength(openapi: OpenApiSchema, value: unknown[]): string[] {
  const found: string[] = [];
  const min = openapi.minItems ?? 0;
  if (value.length < min) found.push(`needs at least ${min} item${min === 1 ? '' : 's'}`);
  if (value.length > (openapi.maxItems ?? Infinity)) found.push(`has more than ${openapi.maxItems} items`);
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
    if (!Object.hasOwn(value, key) || value[key] === undefined)
      problems.push({ path: join(path, key), message: 'is required', fromRule: false });
  }
  for (const [key, element] of Object.entries(value)) {
    // Own properties only: a user's key `constructor` or `toString` is an unknown field, not Object's.
    const property = Object.hasOwn(properties, key) ? properties[key] : undefined;
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
  const known = new Set(problems.map((problem) => problem.path));
  for (const rule of rules as readonly Rule<unknown>[]) {
    const target = path + (rule.fieldPath ?? '');
    // A field already reported is not reported again by a rule; a rule that cannot read a malformed
    // value (it throws) says nothing, so every other key still gets its own message.
    if (known.has(target) || holdsOrUnknown(rule, value)) continue;
    const problem: SchemaProblem = {
      path: target,
      message: rule.message,
      fromRule: true,
    };
    if (rule.code !== undefined) problem.code = rule.code;
    problems.push(problem);
  }
}

function holdsOrUnknown(rule: Rule<unknown>, value: unknown): boolean {
  try {
    return rule.holds(value);
  } catch {
    return true;
  }
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function pick(element: unknown, key: string): unknown {
  return isPlainObject(element) && Object.hasOwn(element, key) ? element[key] : undefined;
}

function truncate(text: string): string {
  return text.length > 64 ? `${text.slice(0, 61)}...` : text;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
