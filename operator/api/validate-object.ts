// Turns an untyped document (from YAML or JSON) into a typed graph object, or explains why it is not one.
import { API_VERSION } from './common.js';
import { isGraphKind, kindDefinition, type GraphObject } from './index.js';
import { NAME_PATTERN } from './common.js';
import { isPlainObject, validateValue, type SchemaProblem } from './validate.js';

const NAME = new RegExp(NAME_PATTERN);

export type ObjectCheck =
  | { ok: true; object: GraphObject; problems: SchemaProblem[] }
  | { ok: false; notOurs: boolean; problems: SchemaProblem[] };

/** Checks apiVersion, kind, metadata.name and the spec. `notOurs` is set for documents of other APIs. */
export function checkGraphObject(document: unknown): ObjectCheck {
  const foreign = foreignProblem(document);
  if (foreign !== undefined) return { ok: false, notOurs: true, problems: [foreign] };
  const { kind, metadata, spec } = document as Record<string, unknown>;
  const definition = kindDefinition(kind as string);
  if (definition === undefined) throw new Error(`kind table lost ${String(kind)}`);
  const problems: SchemaProblem[] = [];
  const name = isPlainObject(metadata) ? metadata['name'] : undefined;
  if (typeof name !== 'string' || !NAME.test(name) || name.length > 63) {
    problems.push({
      path: 'metadata.name',
      message: 'must be a lower-case name of letters, digits and -, starting with a letter (at most 63)',
      fromRule: false,
    });
  }
  problems.push(...validateValue(definition.spec, spec, 'spec'));
  if (problems.length > 0) return { ok: false, notOurs: false, problems };
  return { ok: true, object: document as GraphObject, problems };
}

function foreignProblem(document: unknown): SchemaProblem | undefined {
  if (!isPlainObject(document)) return { path: '', message: 'is not an object', fromRule: false };
  const { apiVersion, kind } = document;
  if (apiVersion !== API_VERSION) {
    return {
      path: 'apiVersion',
      message: `apiVersion ${JSON.stringify(apiVersion)} is not ${API_VERSION}`,
      fromRule: false,
    };
  }
  if (typeof kind !== 'string' || !isGraphKind(kind)) {
    return {
      path: 'kind',
      message: `kind ${JSON.stringify(kind)} is not a streamroute graph kind`,
      fromRule: false,
    };
  }
  return undefined;
}
