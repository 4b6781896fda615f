// The single-object checks, run again defensively (objects may come straight from the API server or a
// hand-written YAML): structure, the CEL-twin rules with their codes, and an object declared twice.
import type { GraphObject } from '../api/index.js';
import { checkDocument, objectKeyOf } from '../language/check-object.js';
import { label, type CompileContext } from './context.js';

export function checkObjects(ctx: CompileContext, inputs: readonly unknown[]): void {
  for (const input of inputs) {
    const check = checkDocument(input, () => undefined);
    const key = check.ok ? { kind: check.object.kind, name: check.object.metadata.name } : objectKeyOf(input);
    if (key !== undefined && ctx.isDeclared(key.kind as GraphObject['kind'], key.name)) {
      ctx.report(
        key,
        'SR1014',
        'metadata.name',
        `${label(key)} is declared more than once; declare each object once (or use CREATE OR REPLACE / ALTER)`,
      );
      ctx.setStatus(key, 'rejected');
      continue;
    }
    if (check.ok) {
      ctx.declare(key ?? { kind: check.object.kind, name: check.object.metadata.name }, check.object);
      continue;
    }
    if (key !== undefined) {
      ctx.declare(key, undefined);
      ctx.setStatus(key, 'rejected');
    }
    for (const diagnostic of check.diagnostics)
      ctx.add(key && !diagnostic.object ? { ...diagnostic, object: key } : diagnostic);
  }
}
