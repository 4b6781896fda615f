// When two objects claim the same thing (a name, an address, a host and path, a place in a cycle), the
// older one keeps it: older by metadata.creationTimestamp when both have one, else by input position.
import type { GraphObject } from '../api/index.js';
import { keyOf, type CompileContext } from './context.js';

function createdAt(object: GraphObject): string | undefined {
  const stamp = (object.metadata as { creationTimestamp?: unknown }).creationTimestamp;
  return typeof stamp === 'string' ? stamp : undefined;
}

export function oldestFirst<T extends GraphObject>(ctx: CompileContext, objects: readonly T[]): T[] {
  return [...objects].sort((a, b) => {
    const [stampA, stampB] = [createdAt(a), createdAt(b)];
    if (stampA !== undefined && stampB !== undefined && stampA !== stampB) return stampA < stampB ? -1 : 1;
    return ctx.order(keyOf(a)) - ctx.order(keyOf(b));
  });
}
