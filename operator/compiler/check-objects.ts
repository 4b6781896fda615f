// The single-object checks, run again defensively (objects may come straight from the API server or a
// hand-written YAML): structure, the CEL-twin rules with their codes, an object declared twice, and an
// object of another domain (namespace), which is left out. Each object's display name is learnt here, and
// an identifier annotation that does not name its object is a warning (SR1019, decision 0025).
//
// An object that fails only rules or literals (a CEL-twin rule, a duration or size the pattern refuses)
// still has the shape of its kind, so it is declared with its spec: the other passes judge it too and
// every one of its errors is reported at once. It is rejected all the same. An object whose structure is
// broken is declared without a spec: rejected, and the objects that refer to it wait for it.
import { IDENTIFIER_ANNOTATION, identifierAnnotationProblem } from '../api/display-names.js';
import type { GraphObject } from '../api/index.js';
import { checkGraphObject, type ObjectCheck } from '../api/validate-object.js';
import { isPlainObject, type SchemaProblem } from '../api/validate.js';
import { checkDocument, objectKeyOf } from '../language/check-object.js';
import { isLiteralText } from './check-literals.js';
import { label, type CompileContext } from './context.js';
import type { ObjectKey } from '../diagnostics/diagnostic.js';

export function checkObjects(ctx: CompileContext, inputs: readonly unknown[]): void {
  for (const input of inputs) {
    const check = checkGraphObject(input);
    const key = objectKeyOf(input);
    if (key === undefined) {
      reportProblems(ctx, input, undefined);
      continue;
    }
    const ours = check.ok || !check.notOurs;
    if (ours && inOtherDomain(ctx, key, input)) continue;
    if (ctx.isDeclared(key.kind as GraphObject['kind'], key.name)) reportDuplicate(ctx, key);
    else {
      ctx.names.add(input as GraphObject);
      checkIdentifierAnnotation(ctx, key, input as GraphObject);
      declare(ctx, key, input, check);
    }
  }
}

function checkIdentifierAnnotation(ctx: CompileContext, key: ObjectKey, object: GraphObject): void {
  const problem = identifierAnnotationProblem(object);
  if (problem === undefined) return;
  // The YAML loader keys a mapping entry by its key as written, dots and all: the warning points at it.
  const path = `metadata.annotations.${IDENTIFIER_ANNOTATION}`;
  ctx.add({ code: 'SR1019', severity: 'warning', message: problem, object: key, path });
}

function declare(ctx: CompileContext, key: ObjectKey, input: unknown, check: ObjectCheck): void {
  if (check.ok) {
    ctx.declare(key, check.object);
    return;
  }
  const shaped = !check.notOurs && check.problems.every((problem) => isSoft(input, problem));
  ctx.declare(key, shaped ? (input as GraphObject) : undefined);
  ctx.setStatus(key, 'rejected');
  reportProblems(ctx, input, key);
}

function reportProblems(ctx: CompileContext, input: unknown, key: ObjectKey | undefined): void {
  const checked = checkDocument(input, () => undefined);
  for (const diagnostic of checked.ok ? [] : checked.diagnostics)
    ctx.add(key && !diagnostic.object ? { ...diagnostic, object: key } : diagnostic, true);
}

function reportDuplicate(ctx: CompileContext, key: ObjectKey): void {
  ctx.report(
    key,
    'SR1014',
    'metadata.name',
    `${label(key)} is declared more than once; declare each object once (or use CREATE OR REPLACE / ALTER)`,
  );
  ctx.setStatus(key, 'rejected');
}

/** A problem that leaves the object's shape intact: a failed rule, or a literal the pattern refuses. */
function isSoft(input: unknown, problem: SchemaProblem): boolean {
  return problem.fromRule || isLiteralText(input, problem.path);
}

/**
 * A domain is a namespace: an object placed in another namespace is not part of this compile. It is
 * left out with a warning (SR1017), so a file holding several namespaces can be checked one domain at
 * a time. An object without a namespace belongs to the domain it is compiled in.
 */
function inOtherDomain(ctx: CompileContext, key: ObjectKey, input: unknown): boolean {
  const metadata = isPlainObject(input) ? input.metadata : undefined;
  const namespace = isPlainObject(metadata) ? metadata.namespace : undefined;
  if (namespace === undefined || namespace === ctx.domain) return false;
  ctx.add({
    code: 'SR1017',
    severity: 'warning',
    message: `${label(key)} is in namespace ${JSON.stringify(namespace)}, not in domain ${ctx.domain}, so it is left out; compile that domain to check it`,
    object: key,
    path: 'metadata.namespace',
  });
  return true;
}
