// How a format reports a failed payload or value: walks throw a FormatFailure carrying the one message
// error for the payload, and the format's read or write returns it. Anything else thrown inside a library
// is turned into a message error by `guarded`, so a format never throws. Positions are given as a line and
// column (text formats), a byte offset (CBOR) or a key path of positions (values), never as payload content.
import { messageError, type MessageError, type MessageErrorCode } from '../../core/errors.js';

export class FormatFailure extends Error {
  constructor(readonly error: MessageError) {
    super(error.reason);
    this.name = 'FormatFailure';
  }
}

/** Fails the payload or value; `at` is the position the reason names, kept as the detail's `at` too. */
export function fail(code: MessageErrorCode, reason: string, at?: string): never {
  throw new FormatFailure(messageError(code, reason, at === undefined ? undefined : { at }));
}

/**
 * Runs one read or write of `format`. A FormatFailure becomes its error; a stack overflow (a library
 * recursing on deep input) is SR3011; any other exception is `fallback`, whose reason must not quote the
 * exception's message (a library's message may hold payload text).
 */
export function guarded<T>(
  format: string,
  run: () => T,
  fallback: MessageError,
): T | { error: MessageError } {
  try {
    return run();
  } catch (error: unknown) {
    if (error instanceof FormatFailure) return { error: error.error };
    // V8 reports a stack overflow only by this RangeError message; there is no code to test instead.
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      return { error: messageError('SR3011', `${format}: nesting too deep to process`) };
    }
    return { error: fallback };
  }
}

/** Steps of a key path a reason shows; a deeper path shows its last steps after `…`. */
const SHOWN_STEPS = 8;

/**
 * A step of a key path: an array index (0 and up) as it is, an object key as its position among its
 * object's keys (`keyStep`). A path holds numbers only, so no key a payload chose can reach a reason.
 */
export type PathStep = number;

/** The step of the key at 0-based `index` among its object's keys. */
export function keyStep(index: number): PathStep {
  return -1 - index;
}

/**
 * A key path of positions, for reasons: `{2}` is the second key of its object, `[3]` the element at index 3
 * of its array — `.{1}[3].{2}`; `.` for the top.
 */
export function keyPath(path: readonly PathStep[]): string {
  if (path.length === 0) return '.';
  const shown = path.length > SHOWN_STEPS ? path.slice(-SHOWN_STEPS) : path;
  let text = path.length > SHOWN_STEPS ? '…' : '';
  for (const step of shown) text += step >= 0 ? `${text === '' ? '.' : ''}[${step}]` : `.{${-step}}`;
  return text;
}

/** `line L, column C` (both 1-based) of a UTF-16 offset into `text`; computed only for a reason. */
export function lineColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    line += 1;
    lineStart = at + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}
