// The syslog side of one domain's hot reload: one SyslogListenerSlot per SYSLOG LISTENER INGESTOR, on
// every node (not leader-owned: docs/syslog-wire.md, "Listeners"), swapped by SlotSwap's steps
// (slot-swap.ts). Quiescing applies ON QUIESCE: SUSPEND stops reading, BUFFER keeps, DROP discards.
//
// A changed ingestor keeps its socket — and its connections — unless its client or ON QUIESCE changed;
// then the old listener closes and a new one binds (connections see a close and reconnect).
import { displayOf } from '../graph/display-names.js';
import { tlsNames } from '../net/syslog-tls-material.js';
import { isDeepStrictEqual } from 'node:util';
import type { ListenerStatus } from '../net/retrying-listener.js';
import type { TransientError } from '../core/status.js';
import { SyslogListenerSlot, type SyslogSlotDeps, type SyslogSlotServes } from './syslog-listener-slot.js';
import { SlotSwap } from './slot-swap.js';

export class DomainSyslogListeners extends SlotSwap<SyslogListenerSlot, SyslogSlotServes> {
  constructor(deps: SyslogSlotDeps) {
    super({
      record: 'syslogIngestors',
      serves(graph, topology, name) {
        const spec = graph.syslogIngestors[name];
        const client = spec && graph.clients[spec.client];
        const entry = topology.ingestors.get(name);
        if (spec === undefined || client === undefined) return undefined;
        // The topology builds every ingestor of the graph or fails; a gap here is a defect.
        if (entry === undefined) throw new Error(`topology of ${deps.domain} has no ingestor ${name}`);
        const shown = {
          ingestor: displayOf(graph, 'syslogIngestors', name),
          tls: tlsNames(graph.names, spec.client),
        };
        return { spec, client, deliver: entry.ingest, shown };
      },
      make: (next) => new SyslogListenerSlot(next.shown.ingestor, next, deps),
      keeps: sameSocket,
      awaitStart: true,
    });
  }

  /** Every listener with its protocol and status (the node's start-up check). */
  listeners(): { name: string; protocol: string; status: ListenerStatus }[] {
    return this.entries().map(([name, slot]) => ({
      name,
      protocol: slot.client.protocol,
      status: slot.view.status,
    }));
  }

  /** Listeners that cannot run now (a port in use, TLS files that failed), with their error. */
  errors(): { name: string; error: TransientError }[] {
    return this.entries().flatMap(([, slot]) => {
      const error = slot.view.transientError;
      return error === null ? [] : [{ name: slot.shown.ingestor, error }];
    });
  }
}

/** Whether the running listener can serve the changed ingestor: same client and ON QUIESCE. */
function sameSocket(slot: SyslogListenerSlot, next: SyslogSlotServes): boolean {
  return (
    isDeepStrictEqual(slot.client, next.client) && isDeepStrictEqual(slot.spec.quiesce, next.spec.quiesce)
  );
}
