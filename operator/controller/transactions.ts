// Objects applied by one CLI transaction (BEGIN … COMMIT) activate together: while fewer of its members
// are observed than its size, none of them is compiled at its new generation; after 30 s the observed
// ones are reported `TransactionIncomplete` with the missing members, and the domain compiles without
// them (docs/decisions/0015-kubernetes-objects.md). A member already published at its current
// generation is not held, so a restarted operator does not hold transactions that completed long ago.
// Time comes from the caller's injected clock.
import {
  ANNOTATION_TRANSACTION,
  ANNOTATION_TRANSACTION_MEMBERS,
  ANNOTATION_TRANSACTION_SIZE,
} from '../../dataplane/kube/contract.js';
import { generationOf, objectId } from './cluster-objects.js';
import type { ClusterObject } from './domain-snapshot.js';
import type { GraphInputs } from './graph-inputs.js';

export const TRANSACTION_TIMEOUT_MS = 30_000;

export interface HeldTransaction {
  id: string;
  /** `Kind/name` of the observed members that are held. */
  members: string[];
  /** `Kind/name` of the members named by the annotation and not observed. */
  missing: string[];
  /** True once the transaction has waited TRANSACTION_TIMEOUT_MS. */
  timedOut: boolean;
}

export interface TransactionGate {
  /** `Kind/name` → the transaction holding it. */
  held: Map<string, HeldTransaction>;
  /** Come back after this many ms (the earliest timeout of a transaction still waiting). */
  requeueAfterMs?: number;
}

interface Seen {
  firstSeenAt: number;
  completed: boolean;
}

function transactionOf(object: ClusterObject): { id: string; size: number; members: string[] } | undefined {
  const annotations = object.metadata.annotations ?? {};
  const id = annotations[ANNOTATION_TRANSACTION];
  if (id === undefined || id === '') return undefined;
  const size = Number(annotations[ANNOTATION_TRANSACTION_SIZE] ?? '0');
  const members = (annotations[ANNOTATION_TRANSACTION_MEMBERS] ?? '')
    .split(',')
    .map((member) => member.trim())
    .filter((member) => member !== '');
  return { id, size: Number.isSafeInteger(size) ? size : 0, members };
}

interface Group {
  size: number;
  named: string[];
  observed: ClusterObject[];
}

function groupByTransaction(objects: readonly ClusterObject[]): Map<string, Group> {
  const groups = new Map<string, Group>();
  for (const object of objects) {
    const transaction = transactionOf(object);
    if (transaction === undefined) continue;
    const group = groups.get(transaction.id) ?? {
      size: transaction.size,
      named: transaction.members,
      observed: [],
    };
    group.observed.push(object);
    groups.set(transaction.id, group);
  }
  return groups;
}

/** Remembers, per domain, when each transaction was first seen and which ones completed. */
export class TransactionTracker {
  readonly #seen = new Map<string, Map<string, Seen>>();

  /**
   * Which objects of the domain are held, given what the published graph was compiled from; `now` is
   * the injected clock's time in ms.
   */
  gate(
    domain: string,
    objects: readonly ClusterObject[],
    published: GraphInputs,
    now: number,
  ): TransactionGate {
    const groups = groupByTransaction(objects);
    const seen = this.#seenOf(domain, groups.keys());
    const gate: TransactionGate = { held: new Map() };
    for (const [id, group] of groups) {
      const record = seen.get(id) ?? { firstSeenAt: now, completed: false };
      seen.set(id, record);
      if (group.observed.length >= group.size) record.completed = true;
      if (record.completed) continue;
      const pending = group.observed.filter(
        (object) => published.get(objectId(object))?.generation !== generationOf(object),
      );
      if (pending.length === 0) continue;
      const waited = now - record.firstSeenAt;
      const timedOut = waited >= TRANSACTION_TIMEOUT_MS;
      const observedIds = new Set(group.observed.map(objectId));
      const held: HeldTransaction = {
        id,
        members: group.observed.map(objectId),
        missing: group.named.filter((member) => !observedIds.has(member)),
        timedOut,
      };
      for (const object of group.observed) gate.held.set(objectId(object), held);
      if (!timedOut) {
        const left = TRANSACTION_TIMEOUT_MS - waited;
        gate.requeueAfterMs = Math.min(gate.requeueAfterMs ?? left, left);
      }
    }
    return gate;
  }

  /** Forgets a domain that is gone. */
  forget(domain: string): void {
    this.#seen.delete(domain);
  }

  /** Forgets transactions no object of the domain names any more (bounded memory). */
  #seenOf(domain: string, current: Iterable<string>): Map<string, Seen> {
    const seen = this.#seen.get(domain) ?? new Map<string, Seen>();
    const keep = new Set(current);
    for (const id of [...seen.keys()]) if (!keep.has(id)) seen.delete(id);
    if (seen.size === 0 && keep.size === 0) this.#seen.delete(domain);
    else this.#seen.set(domain, seen);
    return seen;
  }
}
