// Durations and sizes the Kind's patterns let through but the runtime cannot use — too large for
// milliseconds or bytes (SR1003, SR1004). Statements already report these when parsed; resources applied
// as YAML do not. A literal the pattern already refused (or the caller already reported) is not
// reported again.
import type { GraphKind, GraphObject } from '../api/index.js';
import { isPlainObject } from '../api/validate.js';
import { readDuration, readSize } from '../api/literals.js';
import { keyOf, label, type CompileContext } from './context.js';

interface Literal {
  path: string;
  size: boolean;
}

const duration = (path: string): Literal => ({ path, size: false });
const size = (path: string): Literal => ({ path, size: true });

/** Every duration and size of each kind, by its field path. */
const LITERALS: Partial<Record<GraphKind, readonly Literal[]>> = {
  HttpIngestor: [size('spec.quiesce.maxSize'), size('spec.maxBodySize')],
  SyslogIngestor: [size('spec.quiesce.maxSize')],
  TopicIngestor: [size('spec.quiesce.maxSize')],
  Correlator: [duration('spec.maxTime')],
  Emitter: [duration('spec.retry.backoff'), duration('spec.retry.max'), duration('spec.batch.maxTime')],
};

/** The value at a dotted path (literal paths have no list indices). */
function valueAt(document: unknown, path: string): unknown {
  let value = document;
  for (const key of path.split('.')) value = isPlainObject(value) ? value[key] : undefined;
  return value;
}

function literalsOf(document: unknown): Literal[] {
  const kind = isPlainObject(document) ? document.kind : undefined;
  return typeof kind === 'string' ? [...(LITERALS[kind as GraphKind] ?? [])] : [];
}

/** Whether `path` is a duration or size of the document's kind and holds text (right or wrong). */
export function isLiteralText(document: unknown, path: string): boolean {
  return literalsOf(document).some(
    (literal) => literal.path === path && typeof valueAt(document, path) === 'string',
  );
}

export function checkLiterals(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    for (const literal of literalsOf(object)) {
      const text = valueAt(object, literal.path);
      if (typeof text !== 'string' || ctx.hasDiagnosticAt(keyOf(object), literal.path)) continue;
      const result = literal.size ? readSize(text) : readDuration(text);
      if (result.ok) continue;
      ctx.report(
        keyOf(object),
        literal.size ? 'SR1004' : 'SR1003',
        literal.path,
        `${label(object)}: ${result.reason}`,
      );
    }
  }
}
