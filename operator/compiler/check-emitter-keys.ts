// The KEY of an emitter TO KAFKA: an expression over `input.` (the records of its relay) that is a STRING,
// possibly null — null sends the message without a key (docs/language.md, "Emitters"). Any other type is
// SR2005: nothing converts implicitly, `to_string(…)` does it explicitly. Scopes other than `input.` are
// SR2008, unknown fields SR2003, text that does not parse SR1015. The typed tree is kept for lowering;
// a SENSITIVE field the key reads is check-sensitivity's (ALLOW SENSITIVE).
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext } from './context.js';
import { describeType } from './expression-types.js';
import { schemaScope } from './expression-scopes.js';
import { typeField } from './type-field.js';

export const KEY_PATH = 'spec.to.key';

export function checkEmitterKeys(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    if (object.kind !== 'Emitter' || object.spec.to.key === undefined) continue;
    const relay = ctx.relaySchema(object.spec.from);
    if (relay === undefined) continue;
    const subject = `${label(object)}: KEY`;
    const input = schemaScope(`input (relay ${relay.shown.relay})`, relay.fields);
    const field = { path: KEY_PATH, text: object.spec.to.key, subject };
    const typed = typeField(ctx, keyOf(object), field, { input });
    if (typed === undefined || typed.problems.length > 0) continue;
    const { type } = typed.typing;
    if (type === 'STRING' || type === 'NULL') continue;
    ctx.report(
      keyOf(object),
      'SR2005',
      KEY_PATH,
      `${subject} is ${describeType(typed.typing)}; a message key is a STRING (or null for none): convert it with to_string(…)`,
    );
  }
}
