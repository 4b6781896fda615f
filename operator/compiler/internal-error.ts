// Lowering reads what the checks guarantee for accepted objects: a typed WHERE, durations and sizes that
// read, a route's scopes, a resolved protobuf message. One of those missing is a bug in the compiler, not
// a problem of the input, so lowering throws rather than quietly running something the user did not
// write (a WHERE of TRUE, a 1 ms timeout, an error handler that only logs).
import type { GraphObject } from '../api/index.js';
import { label } from './context.js';

export class InternalCompilerError extends Error {
  override readonly name = 'InternalCompilerError';
}

/** `value`, which the checks guarantee for an accepted object; throws when it is missing. */
export function required<T>(value: T | undefined, object: GraphObject, what: string): T {
  if (value === undefined) {
    throw new InternalCompilerError(
      `internal compiler error: ${label(object)} is accepted, but ${what} is missing (please report this)`,
    );
  }
  return value;
}
