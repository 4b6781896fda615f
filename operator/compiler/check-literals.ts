// Durations and sizes the Kind's patterns let through but the runtime cannot use — zero, or too large
// (SR1003, SR1004). Statements already report these when parsed; resources applied as YAML do not.
import type { GraphObject } from '../api/index.js';
import { readDuration, readSize } from '../language/literals.js';
import { keyOf, label, type CompileContext } from './context.js';

type Literal = { path: string; text: string | undefined; size: boolean };

function literalsOf(object: GraphObject): Literal[] {
  const duration = (path: string, text: string | undefined): Literal => ({ path, text, size: false });
  const size = (path: string, text: string | undefined): Literal => ({ path, text, size: true });
  switch (object.kind) {
    case 'HttpIngestor':
      return [
        size('spec.quiesce.maxSize', object.spec.quiesce.maxSize),
        size('spec.maxBodySize', object.spec.maxBodySize),
      ];
    case 'SyslogIngestor':
      return [size('spec.quiesce.maxSize', object.spec.quiesce.maxSize)];
    case 'Correlator':
      return [duration('spec.maxTime', object.spec.maxTime)];
    case 'Emitter':
      return [
        duration('spec.retry.backoff', object.spec.retry.backoff),
        duration('spec.retry.max', object.spec.retry.max),
        duration('spec.batch.maxTime', object.spec.batch?.maxTime),
      ];
    default:
      return [];
  }
}

export function checkLiterals(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    for (const literal of literalsOf(object)) {
      if (literal.text === undefined) continue;
      const result = literal.size ? readSize(literal.text) : readDuration(literal.text);
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
