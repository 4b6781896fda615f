// Every JAQ program of a codec compiles (SR2009), with jq's own message located in the program's lines —
// found when the codec is created, not when the first message arrives.
import type { GraphObject } from '../api/index.js';
import { jaqCompileProblem } from '../../dataplane/codecs/jaq/compile-check.js';
import { keyOf, label, type CompileContext } from './context.js';

export function checkJaqPrograms(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    if (object.kind !== 'Codec' || object.spec.jaq === undefined) continue;
    const { ingestion, emitting } = object.spec.jaq;
    const programs = { ingestion, ...(emitting === undefined ? {} : { emitting }) };
    for (const [which, program] of Object.entries(programs)) {
      const problem = jaqCompileProblem(program);
      if (problem === undefined) continue;
      const clause = which === 'ingestion' ? 'ON INGESTION' : 'ON EMITTING';
      ctx.report(
        keyOf(object),
        'SR2009',
        `spec.jaq.${which}`,
        `${label(object)}: the ${clause} program does not compile: ${problem}`,
      );
    }
  }
}
