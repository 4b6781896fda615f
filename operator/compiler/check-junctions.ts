// A junction merges relays into one stream, so they must carry the same fields with the same types
// (SR2063). Optionality and sensitivity may differ: in `input.` a field is nullable, or SENSITIVE, when
// it is so in any of the relays.
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext } from './context.js';
import { relayDifference } from './expression-scopes.js';

export function checkJunctions(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    if (object.kind !== 'Junction') continue;
    const relays = object.spec.from.map((relay) => ctx.relaySchema(relay));
    const [first, ...rest] = relays;
    if (first === undefined) continue;
    rest.forEach((other, index) => {
      const problem = other && relayDifference(first, other);
      if (problem === undefined) return;
      ctx.report(
        keyOf(object),
        'SR2063',
        `spec.from[${index + 1}]`,
        `${label(object)} merges relays ${first.shown.relay} and ${other?.shown.relay ?? ''}, which must carry the same fields with the same types: ${problem}`,
      );
    });
  }
}
