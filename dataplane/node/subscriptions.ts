// Subscribers of the admin API, per domain and relay name, kept across hot reloads. A reload that keeps a
// relay keeps its Relay object and so its consumers; one that changes it builds a new Relay, so the
// subscriber moves to the new object; one that removes it (or the whole domain) ends the subscriber with
// a reason it can show to its client.
import type { SubscribeResult, RelaySubscriber } from '../admin/backend.js';
import type { Relay } from '../flow/relay.js';
import type { Topology } from '../runtime/topology.js';

interface Subscription {
  readonly relayName: string;
  readonly subscriber: RelaySubscriber;
  relay: Relay;
  detach: () => void;
}

export class Subscriptions {
  readonly #byDomain = new Map<string, Set<Subscription>>();

  /** Attaches to `relayName` of the topology a domain runs (undefined: the domain runs nothing). */
  subscribe(
    domain: string,
    topology: Topology | undefined,
    relayName: string,
    subscriber: RelaySubscriber,
  ): SubscribeResult {
    if (topology === undefined)
      return { ok: false, reason: 'unknown_domain', message: `this node runs no graph of domain ${domain}` };
    const relay = topology.relays.get(relayName);
    if (relay === undefined)
      return { ok: false, reason: 'unknown_relay', message: `domain ${domain} has no relay ${relayName}` };
    const subscription: Subscription = { relayName, subscriber, relay, detach: attach(relay, subscriber) };
    let set = this.#byDomain.get(domain);
    if (set === undefined) {
      set = new Set();
      this.#byDomain.set(domain, set);
    }
    set.add(subscription);
    return {
      ok: true,
      shown: relay.shown,
      unsubscribe: () => {
        subscription.detach();
        set.delete(subscription);
      },
    };
  }

  /** After a reload of `topology.domain` to graph `version`: follow replaced relays, end removed ones. */
  reattach(topology: Topology, version: number): void {
    const set = this.#byDomain.get(topology.domain);
    if (set === undefined) return;
    for (const subscription of set) {
      const relay = topology.relays.get(subscription.relayName);
      if (relay === subscription.relay) continue;
      subscription.detach();
      if (relay === undefined) {
        set.delete(subscription);
        end(
          subscription.subscriber,
          `relay ${subscription.relay.shown} was removed from domain ${topology.domain} by graph version ${version}`,
        );
        continue;
      }
      subscription.relay = relay;
      subscription.detach = attach(relay, subscription.subscriber);
    }
  }

  /** Ends every subscriber of a domain (removed, or the node stops). */
  endDomain(domain: string, reason: string): void {
    const set = this.#byDomain.get(domain);
    if (set === undefined) return;
    this.#byDomain.delete(domain);
    for (const subscription of set) {
      subscription.detach();
      end(subscription.subscriber, reason);
    }
  }

  endAll(reason: string): void {
    for (const domain of [...this.#byDomain.keys()]) this.endDomain(domain, reason);
  }
}

function attach(relay: Relay, subscriber: RelaySubscriber): () => void {
  return relay.subscribe('subscriber', (record) => subscriber.record(record));
}

/** A subscriber that throws on `end` (it must not) cannot break the reload that ended it. */
function end(subscriber: RelaySubscriber, reason: string): void {
  try {
    subscriber.end(reason);
  } catch {
    // Nothing to undo: the subscription is already detached.
  }
}
