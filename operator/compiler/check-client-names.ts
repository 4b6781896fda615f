// CREATE CLIENT names one client of whichever TYPE, so client names are one namespace across syslog and
// Kafka clients: two clients of one name are SR2079 (the older keeps the name), and a reference to a
// client of the other type is SR2078 rather than "does not exist" — a topic ingestor FROM a syslog client,
// a syslog listener FROM a Kafka client, an emitter TO KAFKA a syslog client or TO SYSLOG a Kafka client.
import type { GraphKind, GraphObject } from '../api/index.js';
import { keyOf, label, type CompileContext } from './context.js';
import type { Reference } from './object-references.js';
import { oldestFirst } from './precedence.js';

const CLIENT_TYPE: Partial<Record<GraphKind, { type: string; other: 'SyslogClient' | 'KafkaClient' }>> = {
  SyslogClient: { type: 'SYSLOG', other: 'KafkaClient' },
  KafkaClient: { type: 'KAFKA', other: 'SyslogClient' },
};

/** What the referring object does with the client and what that needs, for the message. */
function use(object: GraphObject, wanted: string): { does: string; needs: string } {
  switch (object.kind) {
    case 'TopicIngestor':
      return { does: 'consumes through', needs: `a topic ingestor needs a client of TYPE ${wanted}` };
    case 'SyslogIngestor':
      return { does: 'listens on', needs: `a syslog listener needs a client of TYPE ${wanted}` };
    case 'Emitter':
      return {
        does: `sends TO ${object.spec.to.type}`,
        needs: `TO ${object.spec.to.type} needs a client of TYPE ${wanted}`,
      };
    default:
      return { does: 'uses', needs: `it needs a client of TYPE ${wanted}` };
  }
}

/**
 * SR2078 when `ref` names a client that does not exist as its kind but does as the other client kind;
 * false (nothing reported) otherwise.
 */
export function reportClientType(ctx: CompileContext, object: GraphObject, ref: Reference): boolean {
  const wanted = CLIENT_TYPE[ref.kind];
  if (wanted === undefined || !ctx.isDeclared(wanted.other, ref.name)) return false;
  const found = CLIENT_TYPE[wanted.other]?.type ?? '';
  const client = ctx.show(wanted.other, ref.name, object);
  const { does, needs } = use(object, wanted.type);
  const other = object.kind === 'Emitter' ? `; write TO ${found} ${client}, or name another client` : '';
  ctx.report(
    keyOf(object),
    'SR2078',
    ref.path,
    `${label(object)} ${does} client ${client}, which is of TYPE ${found}: ${needs}${other}`,
  );
  return true;
}

export function checkClientNames(ctx: CompileContext, objects: readonly GraphObject[]): void {
  const holders = new Map<string, GraphObject>();
  const clients = objects.filter((object) => CLIENT_TYPE[object.kind] !== undefined);
  for (const client of oldestFirst(ctx, clients)) {
    const holder = holders.get(client.metadata.name);
    if (holder === undefined) {
      holders.set(client.metadata.name, client);
      continue;
    }
    ctx.report(
      keyOf(client),
      'SR2079',
      'metadata.name',
      `${label(client)} has the name of ${label(holder)}; CLIENT names one client of either TYPE (DROP CLIENT, SHOW CREATE CLIENT), so rename one of them or DROP CLIENT the other first`,
    );
  }
}
