// The kind of a JSON value, named for a reason (`expected an object, got an array`): a reason names what
// it got, never the value itself, which may be payload data.
import type { JsonValue } from './json-value.js';

/** `null`, `a boolean`, `a number` (bigints too), `a string`, `an array` or `an object`. */
export function jsonKind(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'bigint':
    case 'number':
      return 'a number';
    case 'object':
      return 'an object';
    default:
      return `a ${typeof value}`;
  }
}
