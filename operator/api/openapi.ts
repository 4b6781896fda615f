// A small builder for structural OpenAPI v3 schemas. Each builder returns the schema the CRD carries
// and, through a phantom type, the TypeScript type of values it accepts: one source for both.

import type { DiagnosticCode } from '../diagnostics/codes.js';

export interface CelRule {
  rule: string;
  message: string;
  fieldPath?: string;
  reason?: 'FieldValueInvalid' | 'FieldValueRequired' | 'FieldValueForbidden' | 'FieldValueDuplicate';
}

export interface OpenApiSchema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'boolean';
  description?: string;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  items?: OpenApiSchema;
  enum?: string[];
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  anyOf?: OpenApiSchema[];
  'x-kubernetes-validations'?: CelRule[];
  'x-kubernetes-int-or-string'?: true;
  'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-preserve-unknown-fields'?: true;
}

/** A CEL rule with the same rule as a TypeScript predicate, so objects can be checked without a server. */
export interface Rule<T> extends CelRule {
  holds: (self: T) => boolean;
  /** Diagnostic code reported offline when the rule fails; SR1013 when absent. */
  code?: DiagnosticCode;
}

/** A schema together with the type of the values it describes (the type exists only at compile time). */
export interface Schema<T> {
  readonly openapi: OpenApiSchema;
  readonly optional: boolean;
  readonly rules: readonly Rule<never>[];
  readonly properties?: Readonly<Record<string, Schema<unknown>>>;
  readonly items?: Schema<unknown>;
  readonly __type?: T;
}

export type TypeOf<S> = S extends Schema<infer T> ? T : never;

type Options = Omit<OpenApiSchema, 'type' | 'properties' | 'required' | 'items' | 'enum'>;

function schema<T>(openapi: OpenApiSchema, parts: Pick<Schema<T>, 'properties' | 'items'> = {}): Schema<T> {
  return { openapi, optional: false, rules: [], ...parts };
}

export function str(description: string, options: Options = {}): Schema<string> {
  return schema({ type: 'string', description, ...options });
}

export function int(description: string, options: Options = {}): Schema<number> {
  return schema({ type: 'integer', description, ...options });
}

export function bool(description: string): Schema<boolean> {
  return schema({ type: 'boolean', description });
}

export function oneOf<const V extends readonly string[]>(
  values: V,
  description: string,
  options: Options = {},
): Schema<V[number]> {
  return schema({ type: 'string', description, enum: [...values], ...options });
}

export function list<T>(item: Schema<T>, description: string, options: Options = {}): Schema<T[]> {
  return schema({ type: 'array', description, items: item.openapi, ...options }, { items: item });
}

/** An integer or a string, such as a resource version (`3` or `LATEST`). */
export function intOrString(description: string, options: Options = {}): Schema<number | string> {
  return schema({ description, 'x-kubernetes-int-or-string': true, ...options });
}

/** Marks a property as optional: it may be absent, never null. */
export function optional<T>(inner: Schema<T>): Schema<T> & { readonly optional: true } {
  return { ...inner, optional: true };
}

type Props = Record<string, Schema<unknown>>;
type RequiredKeys<P extends Props> = { [K in keyof P]: P[K]['optional'] extends true ? never : K }[keyof P];
type OptionalKeys<P extends Props> = Exclude<keyof P, RequiredKeys<P>>;
type Flatten<T> = { [K in keyof T]: T[K] } & {};
export type ObjectOf<P extends Props> = Flatten<
  { [K in RequiredKeys<P>]: TypeOf<P[K]> } & { [K in OptionalKeys<P>]?: TypeOf<P[K]> }
>;

export function object<P extends Props>(
  properties: P,
  description: string,
  options: Options = {},
): Schema<ObjectOf<P>> {
  const required = Object.keys(properties).filter((key) => !properties[key]?.optional);
  const openapi: OpenApiSchema = {
    type: 'object',
    description,
    properties: Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, value.openapi])),
    ...options,
  };
  if (required.length > 0) openapi.required = required;
  return schema(openapi, { properties });
}

/** Adds CEL rules (`x-kubernetes-validations`), each with its TypeScript twin, to a schema. */
export function rules<T>(inner: Schema<T>, added: Rule<T>[]): Schema<T> {
  const celRules = added.map(({ holds: _holds, code: _code, ...celRule }) => celRule);
  const existing = inner.openapi['x-kubernetes-validations'] ?? [];
  return {
    ...inner,
    openapi: { ...inner.openapi, 'x-kubernetes-validations': [...existing, ...celRules] },
    rules: [...inner.rules, ...(added as Rule<never>[])],
  };
}
