// Verdicts: an object with errors of its own is rejected; one that refers, directly or through others,
// to a rejected or missing object waits for it; everything else is accepted and lowered.
import type { GraphKind } from '../api/index.js';
import type { CompileContext } from './context.js';
import { objectKeyString } from '../diagnostics/diagnostic.js';
import type { Verdict } from './index.js';

/** Decides the objects of one layer, so the next layer's passes can read them. */
export function decideLayer(ctx: CompileContext, kinds: readonly GraphKind[]): void {
  for (const key of ctx.keys()) {
    if (!(kinds as readonly string[]).includes(key.kind)) continue;
    if (ctx.hasOwnErrors(key)) ctx.setStatus(key, 'rejected');
    else if (ctx.waitingOn(key).length > 0) ctx.setStatus(key, 'waiting');
    else ctx.setStatus(key, 'accepted');
  }
}

export function collectVerdicts(ctx: CompileContext): Map<string, Verdict> {
  const verdicts = new Map<string, Verdict>();
  for (const key of ctx.keys()) {
    const status = ctx.status(key.kind, key.name);
    const id = objectKeyString(key);
    if (status === 'accepted') verdicts.set(id, { status });
    else if (status === 'waiting') verdicts.set(id, { status, on: ctx.waitingOn(key) });
    else verdicts.set(id, { status: 'rejected', diagnostics: ctx.diagnosticsOf(key) });
  }
  return verdicts;
}
