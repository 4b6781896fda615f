// Every reference of every kind names an object that exists (SR2001), and a client of the right TYPE
// (SR2078, check-client-names.ts). An object that refers to a missing,
// rejected or waiting object waits for it (SR2061, naming what it waits on); it is never lowered until then.
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext } from './context.js';
import type { ObjectKey } from '../diagnostics/diagnostic.js';
import { referencesOf, type Reference } from './object-references.js';
import { reportClientType } from './check-client-names.js';

export function checkReferences(ctx: CompileContext, objects: readonly GraphObject[]): void {
  for (const object of objects) {
    const seen = new Set<string>();
    for (const ref of referencesOf(object)) {
      const id = `${ref.kind}/${ref.name}`;
      if (seen.has(id)) continue;
      seen.add(id);
      checkReference(ctx, object, ref);
    }
  }
}

function checkReference(ctx: CompileContext, object: GraphObject, ref: Reference): void {
  const key = keyOf(object);
  const target: ObjectKey = ctx.keyFor(ref.kind, ref.name, object);
  const status = ctx.status(ref.kind, ref.name);
  if (status === 'accepted' || status === 'pending') return;
  if (status === 'missing') {
    if (reportClientType(ctx, object, ref)) return;
    ctx.report(
      key,
      'SR2001',
      ref.path,
      `${label(object)} refers to ${label(target)}, which does not exist in domain ${ctx.domain}; create it or fix the name`,
    );
    // The object waits (its verdict says on what); SR2001 alone tells the user, without a second line.
    ctx.waitOn(key, [target]);
    return;
  }
  if (status === 'rejected') {
    ctx.waitOn(key, [target]);
    ctx.report(
      key,
      'SR2061',
      ref.path,
      `${label(object)} waits for ${label(target)}, which is rejected; it is used once ${label(target)} is fixed`,
    );
    return;
  }
  const causes = ctx.waitingOn(target);
  ctx.waitOn(key, causes);
  ctx.report(
    key,
    'SR2061',
    ref.path,
    `${label(object)} waits for ${label(target)}, which waits for ${causes.map(label).join(', ')}`,
  );
}
