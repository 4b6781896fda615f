// Every JAQ program of a codec compiles (SR2009), with jq's own message located in the program's lines —
// found when the codec is created, not when the first message arrives. A program jq cannot compile within
// the check's limits (memory, time, nesting: the compile check runs jq in a thread of its own) is SR2065,
// the same on the CLI, the node and the operator. jq is loaded for it only when a domain has JAQ programs:
// `prepareJaqCheck` before compiling (compileDomain is synchronous).
import type { GraphObject } from '../api/index.js';
import { checkJaqProgram, loadJaqCheck } from '../../dataplane/codecs/jaq/compile-check.js';
import { keyOf, label, type CompileContext } from './context.js';

export function checkJaqPrograms(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    if (object.kind !== 'Codec' || object.spec.jaq === undefined) continue;
    const { ingestion, emitting } = object.spec.jaq;
    const programs = { ingestion, ...(emitting === undefined ? {} : { emitting }) };
    for (const [which, program] of Object.entries(programs)) {
      const check = checkJaqProgram(program);
      if (check.outcome === 'compiles') continue;
      const clause = which === 'ingestion' ? 'ON INGESTION' : 'ON EMITTING';
      const [code, what] =
        check.outcome === 'error'
          ? (['SR2009', `does not compile: ${check.problem}`] as const)
          : (['SR2065', `cannot be checked: ${check.detail}`] as const);
      ctx.report(keyOf(object), code, `spec.jaq.${which}`, `${label(object)}: the ${clause} program ${what}`);
    }
  }
}

/** Loads the jq check when any of the objects (as given, unchecked) carries JAQ programs. */
export async function prepareJaqCheck(objects: readonly unknown[]): Promise<void> {
  if (objects.some(hasJaqPrograms)) await loadJaqCheck();
}

/** Any object with `spec.jaq`, whatever its kind: a superset of what checkJaqPrograms runs jq on. */
function hasJaqPrograms(object: unknown): boolean {
  if (typeof object !== 'object' || object === null) return false;
  const { spec } = object as { spec?: unknown };
  return typeof spec === 'object' && spec !== null && (spec as { jaq?: unknown }).jaq !== undefined;
}
