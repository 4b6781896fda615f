// A failure deep inside a message, carried up to the entry point, which turns it into one message error.
// Each level the failure passes through puts its field name in front, so the reason names the whole path
// (`items[2].price.units`) without the hot path keeping one. Reasons name fields and types, never values.
import { messageError, type MessageError, type MessageErrorCode } from '../../core/errors.js';

export class PathError extends Error {
  /** Field names, outermost first; an element of a repeated field is `name[n]` or a segment `[n]`. */
  readonly path: string[] = [];

  constructor(readonly reason: string) {
    super(reason);
    this.name = 'PathError';
  }

  /** The message error; the path (field names of the .proto, element indexes) leads the reason. */
  toMessageError(code: MessageErrorCode): MessageError {
    if (this.path.length === 0) return messageError(code, this.reason);
    const field = pathText(this.path);
    return messageError(code, `field ${field}: ${this.reason}`, { field });
  }
}

/** Puts `segment` in front of a PathError's path; any other error passes through unchanged. */
export function within(error: unknown, segment: string): unknown {
  if (error instanceof PathError) error.path.unshift(segment);
  return error;
}

/** The segment of an element of a repeated field. */
export function elementSegment(name: string, index: number): string {
  return `${name}[${index}]`;
}

/** `items`, `[2]`, `price` → `items[2].price`. */
function pathText(path: readonly string[]): string {
  return path.reduce(
    (text, segment) => (text === '' || segment.startsWith('[') ? text + segment : `${text}.${segment}`),
    '',
  );
}
