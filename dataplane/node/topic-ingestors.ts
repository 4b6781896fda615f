// The Kafka side of one domain's hot reload: one TopicConsumer per TOPIC INGESTOR, on every node, all in
// the ingestor's consumer group (docs/kafka.md), swapped by SlotSwap's steps (slot-swap.ts). Quiescing
// applies ON QUIESCE: SUSPEND pauses the partitions (the group keeps its members: no rebalance), DROP
// keeps fetching and drops.
//
// A changed ingestor keeps its consumer — its group membership and partitions — unless its client, topic,
// group, START FROM, MODE or ON QUIESCE changed; then the old consumer commits what is done and leaves the
// group, and a new one joins. A reload never waits for a group join (it can take a rebalance timeout):
// a new consumer is Starting until it has joined.
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { Clock } from '../core/clock.js';
import type { Telemetry } from '../core/telemetry.js';
import type { Instant } from '../core/values.js';
import { displayOf } from '../graph/display-names.js';
import { tlsNames } from '../net/syslog-tls-material.js';
import type { GraphTopicIngestor } from '../graph/types.js';
import type { RetryPolicy } from '../net/retrying-listener.js';
import type { TlsMaterialSource } from '../net/tls-contexts.js';
import { TopicConsumer, type TopicConsumerServes } from '../sources/kafka/topic-consumer.js';
import { SlotSwap } from './slot-swap.js';

export interface TopicIngestorsDeps {
  domain: string;
  tls: TlsMaterialSource | undefined;
  runtime: Telemetry;
  registry: Registry;
  logger: Logger;
  clock: Clock;
  now: () => Instant;
  retry?: RetryPolicy | undefined;
  /** Consumer group timing; tests shorten it. */
  group?: { sessionTimeoutMs: number; heartbeatIntervalMs: number } | undefined;
}

export class DomainTopicIngestors extends SlotSwap<TopicConsumer, TopicConsumerServes> {
  constructor(deps: TopicIngestorsDeps) {
    const { runtime, ...consumerDeps } = deps;
    super({
      record: 'topicIngestors',
      serves(graph, topology, name) {
        const spec = graph.topicIngestors[name];
        const client = spec && graph.kafkaClients[spec.client];
        const entry = topology.ingestors.get(name);
        if (spec === undefined || client === undefined) return undefined;
        // The topology builds every ingestor of the graph or fails; a gap here is a defect.
        if (entry === undefined) throw new Error(`topology of ${deps.domain} has no ingestor ${name}`);
        const ingestor = displayOf(graph, 'topicIngestors', name);
        const shown = { ingestor, client: tlsNames(graph.names, spec.client, 'kafkaClients') };
        const telemetry = runtime.component('topic-ingestor', ingestor);
        return { spec, client, deliver: entry.ingest, telemetry, shown };
      },
      make: (next) => new TopicConsumer(next, consumerDeps),
      keeps: (consumer, next) =>
        isDeepStrictEqual(consumer.client, next.client) && sameConsumer(consumer.spec, next.spec),
      awaitStart: false,
    });
  }
}

/** Everything of the spec but its codec and routes, which are the entry's (a retarget). */
function sameConsumer(a: GraphTopicIngestor, b: GraphTopicIngestor): boolean {
  const { codec: _ac, routes: _ar, ...left } = a;
  const { codec: _bc, routes: _br, ...right } = b;
  return isDeepStrictEqual(left, right);
}
