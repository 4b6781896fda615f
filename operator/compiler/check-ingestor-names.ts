// Ingestor names are unique across HTTP, syslog and topic ingestors, since DESCRIBE INGESTOR and DROP
// INGESTOR name any of them (SR2060). The older ingestor keeps the name.
import type { GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext } from './context.js';
import { oldestFirst } from './precedence.js';
import { INGESTOR_KINDS } from '../language/ast.js';

export function checkIngestorNames(ctx: CompileContext, objects: readonly GraphObject[]): void {
  const holders = new Map<string, GraphObject>();
  const ingestors = objects.filter((object) => (INGESTOR_KINDS as readonly string[]).includes(object.kind));
  for (const ingestor of oldestFirst(ctx, ingestors)) {
    const holder = holders.get(ingestor.metadata.name);
    if (holder === undefined) {
      holders.set(ingestor.metadata.name, ingestor);
      continue;
    }
    ctx.report(
      keyOf(ingestor),
      'SR2060',
      'metadata.name',
      `${label(ingestor)} has the name of ${label(holder)}; an ingestor name is unique across HTTP, syslog and topic ingestors, so rename one of them`,
    );
  }
}
