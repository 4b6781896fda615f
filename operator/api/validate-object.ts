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
  if (!isPlainObject(document)) {
    return {
      ok: false,
      notOurs: true,
      problems: [{ path: '', message: 'is not an object', fromRule: false }],
    };
  }
  const { apiVersion, kind, metadata, spec } = document;
  if (apiVersion !== API_VERSION || typeof kind !== 'string' || !isGraphKind(kind)) {
    const message =
      apiVersion !== API_VERSION
        ? `apiVersion ${JSON.stringify(apiVersion)} is not ${API_VERSION}`
        : `kind ${JSON.stringify(kind)} is not a streamroute graph kind`;
    return {
      ok: false,
      notOurs: true,
      problems: [{ path: apiVersion !== API_VERSION ? 'apiVersion' : 'kind', message, fromRule: false }],
    };
  }
  const problems: SchemaProblem[] = [];
  const name = isPlainObject(metadata) ? metadata.name : undefined;
  if (typeof name !== 'string' || !NAME.test(name) || name.length > 63) {
    problems.push({
      path: 'metadata.name',
      message: 'must be a lower-case name of letters, digits and -, starting with a letter (at most 63)',
      fromRule: false,
    });
  }
  const definition = kindDefinition(kind);
  if (definition === undefined) throw new Error(`kind table lost ${kind}`);
  problems.push(...validateValue(definition.spec, spec, 'spec'));
  if (problems.length > 0) return { ok: false, notOurs: false, problems };
  return { ok: true, object: document as unknown as GraphObject, problems };
}
