// How a format reports a failed payload or value: walks throw a FormatFailure carrying the one message
// error for the payload, and the format's read or write returns it. Anything else thrown inside a library
// is turned into a message error by `guarded`, so a format never throws. Positions are given as a line and
// column (text formats), a byte offset (CBOR) or a key path (values), never as payload content.
import { messageError, quoteName, type MessageError, type MessageErrorCode } from '../../core/errors.js';

export class FormatFailure extends Error {
  constructor(readonly error: MessageError) {
    super(error.reason);
    this.name = 'FormatFailure';
  }
}

export function fail(code: MessageErrorCode, reason: string): never {
  throw new FormatFailure(messageError(code, reason));
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

/** A key path in jq syntax, for reasons: `.order.items[2]`, `.a["odd key"]`, `.` for the top. */
export function keyPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '.';
  const shown = path.length > SHOWN_STEPS ? path.slice(-SHOWN_STEPS) : path;
  let text = path.length > SHOWN_STEPS ? '…' : '';
  for (const step of shown) {
    if (typeof step === 'number') text += `[${step}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(step)) text += `.${step}`;
    else text += `${text === '' ? '.' : ''}[${quoteName(step)}]`;
  }
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
