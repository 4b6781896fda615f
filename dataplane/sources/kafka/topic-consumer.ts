// One TOPIC INGESTOR on this node (docs/kafka.md): a consumer in the ingestor's group, reading its topic from
// the partitions the group assigns this node, handing each message's value to the ingestor's entry as one
// payload with `metadata.topic|partition|offset|key|timestamp`.
//
//   Starting ─joined the group→ Running ─quiesce (SUSPEND)→ Suspended ─resume→ Running
//      ▲  │ files fail, brokers unreachable, topic unknown, not authorized, the stream fails
//      │  ▼
//      └─ Retrying: the consumer is closed; a new one is made after the backoff (doubling up to its max,
//         reset once running)
//
// Offsets. MODE ACK: a message's offset is committed only after every record decoded from it is on its
// relays (or its error was handled by the ingestor's policy), in partition order (offset-ledger.ts), at
// most COMMIT_INTERVAL_MS after it is done and again when the consumer stops: a crash re-delivers what was
// not committed, nothing is lost. MODE NO ACK: the consumer commits what it fetched every
// COMMIT_INTERVAL_MS, before it is processed: a crash may lose what was fetched and not yet processed.
//
// Flow control: at most MAX_IN_FLIGHT_MESSAGES messages (or MAX_IN_FLIGHT_BYTES) may be handed on and not
// yet done; beyond, the stream pauses until half of them are. Pausing keeps the group membership
// (heartbeats go on), so neither this nor ON QUIESCE SUSPEND rebalances the group. ON QUIESCE DROP keeps
// reading and drops what arrives, counted as `quiesce_drop` (under ACK its offsets are committed: the
// policy handled them).
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { Consumer, type Message, type MessagesStream } from '@platformatic/kafka';
import type { Clock, TimerHandle } from '../../core/clock.js';
import type { IngestFn, IngestMetadata } from '../../core/ingest.js';
import type { RuntimeState, TransientError } from '../../core/status.js';
import type { ComponentTelemetry } from '../../core/telemetry.js';
import { Instant } from '../../core/values.js';
import type { GraphKafkaClient, GraphTopicIngestor } from '../../graph/types.js';
import type { TlsNames } from '../../net/syslog-tls-material.js';
import type { TlsMaterialSource } from '../../net/tls-contexts.js';
import { DEFAULT_LISTEN_RETRY, type RetryPolicy } from '../../net/retrying-listener.js';
import { kafkaConnection, type KafkaConnection } from '../../net/kafka-connection.js';
import { kafkaErrorInfo } from '../../net/kafka-errors.js';
import { OffsetLedger } from './offset-ledger.js';
import { reportLag } from './topic-metrics.js';
import { subscriptionAssigner } from './subscription-assigner.js';

export const COMMIT_INTERVAL_MS = 1_000;
export const LAG_INTERVAL_MS = 5_000;
export const MAX_IN_FLIGHT_MESSAGES = 10_000;
export const MAX_IN_FLIGHT_BYTES = 64 * 1024 * 1024;
/** Kafka's own consumer defaults: a member is dropped from the group after 30 s without a heartbeat. */
const DEFAULT_GROUP_TIMING = { sessionTimeoutMs: 30_000, heartbeatIntervalMs: 3_000 };
/** How long stop() waits for messages in flight before it commits what is done. */
export const STOP_GRACE_MS = 2_000;

export interface TopicConsumerDeps {
  domain: string;
  tls: TlsMaterialSource | undefined;
  logger: Logger;
  clock: Clock;
  now: () => Instant;
  /** Where the partitions' lag is reported (streamroute_topic_lag_messages); none in some tests. */
  registry?: Registry | undefined;
  retry?: RetryPolicy | undefined;
  /** Consumer group timing; tests shorten it. */
  group?: { sessionTimeoutMs: number; heartbeatIntervalMs: number } | undefined;
}

/** The ingestor a consumer serves. */
export interface TopicConsumerServes {
  spec: GraphTopicIngestor;
  client: GraphKafkaClient;
  deliver: IngestFn;
  telemetry: ComponentTelemetry;
  /** The ingestor's and its client's names as people read them (decision 0025), and the resources'. */
  shown: { ingestor: string; client: TlsNames };
}

export interface TopicConsumerStats {
  messages: number;
  /** Messages fetched for a partition a rebalance then gave to another member, left to it. */
  givenAway: number;
  commits: number;
  commitFailures: number;
  rebalances: number;
}

/** What DESCRIBE INGESTOR shows of the consumer. */
export interface TopicConsumerView {
  state: RuntimeState;
  transientError: TransientError | null;
  backoffMs: number | null;
  /** Partitions of the topic the group assigned this node. */
  partitions: number[];
  /** Messages not yet consumed by the group, by partition (log end − committed), as last measured. */
  lag: Record<string, number>;
  inFlight: number;
  stats: TopicConsumerStats;
}

export class TopicConsumer {
  readonly spec: GraphTopicIngestor;
  readonly client: GraphKafkaClient;
  readonly shown: TopicConsumerServes['shown'];
  readonly #deps: TopicConsumerDeps;
  readonly #telemetry: ComponentTelemetry;
  readonly #retry: RetryPolicy;
  readonly #log: Logger;
  readonly #ledger = new OffsetLedger<Message>();
  readonly #keyText = new TextDecoder('utf-8', { fatal: true });
  #deliver: IngestFn;
  #consumer: Consumer | undefined;
  #stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  #state: RuntimeState = 'Starting';
  #error: TransientError | null = null;
  #backoffMs: number;
  #nextDelayMs: number | null = null;
  #retryTimer: TimerHandle | undefined;
  #commitTimer: TimerHandle | undefined;
  #lagTimer: TimerHandle | undefined;
  #quiesced = false;
  #stopped = false;
  /** Bumped whenever the consumer is replaced: events of an older one are ignored. */
  #generation = 0;
  #inFlight = 0;
  #inFlightBytes = 0;
  #throttled = false;
  #partitions: number[] = [];
  #lag: Record<string, number> = {};
  readonly #stats: TopicConsumerStats = {
    messages: 0,
    givenAway: 0,
    commits: 0,
    commitFailures: 0,
    rebalances: 0,
  };
  #idle: (() => void) | undefined;
  #unreport: (() => void) | undefined;

  constructor(serves: TopicConsumerServes, deps: TopicConsumerDeps) {
    this.spec = serves.spec;
    this.client = serves.client;
    this.shown = serves.shown;
    this.#deliver = serves.deliver;
    this.#telemetry = serves.telemetry;
    this.#deps = deps;
    this.#retry = deps.retry ?? DEFAULT_LISTEN_RETRY;
    this.#backoffMs = this.#retry.initialMs;
    this.#log = deps.logger.child({
      component: 'topic-ingestor',
      domain: deps.domain,
      name: serves.shown.ingestor,
    });
  }

  get view(): TopicConsumerView {
    const suspended = this.#quiesced && this.spec.quiesce.action === 'SUSPEND' && this.#state === 'Running';
    return {
      state: suspended ? 'Suspended' : this.#state,
      transientError: this.#error,
      backoffMs: this.#state === 'Retrying' ? this.#nextDelayMs : null,
      partitions: [...this.#partitions],
      lag: { ...this.#lag },
      inFlight: this.#inFlight,
      stats: { ...this.#stats },
    };
  }

  /** Resolves after the first attempt: Running, or Retrying with the error. Never rejects. */
  async start(): Promise<void> {
    if (this.#stopped || this.#consumer !== undefined) return;
    this.#reportLag();
    const generation = ++this.#generation;
    const read = kafkaConnection(this.shown.client, this.client, this.#deps.domain, this.#deps.tls);
    if ('problem' in read) {
      const { code, message, cause } = read.problem;
      this.#retryLater({ code, message }, { cause });
      return;
    }
    const { spec } = this;
    const group = this.#deps.group ?? DEFAULT_GROUP_TIMING;
    const consumer = this.#newConsumer(read.connection, generation);
    try {
      const stream = await consumer.consume({
        topics: [spec.topic],
        mode: 'committed',
        fallbackMode: spec.startFrom === 'EARLIEST' ? 'earliest' : 'latest',
        autocommit: spec.mode === 'NO_ACK' ? COMMIT_INTERVAL_MS : false,
        sessionTimeout: group.sessionTimeoutMs,
        heartbeatInterval: group.heartbeatIntervalMs,
      });
      if (generation !== this.#generation) {
        await stream.close().catch(() => undefined);
        return;
      }
      this.#attach(stream, generation);
    } catch (error: unknown) {
      if (generation === this.#generation) this.#lost(error);
      return;
    }
    this.#running();
  }

  #attach(stream: MessagesStream<Buffer, Buffer, Buffer, Buffer>, generation: number): void {
    this.#stream = stream;
    stream.on('data', (message: Message) => this.#take(message));
    stream.on('error', (error: unknown) => {
      if (generation === this.#generation) this.#lost(error);
    });
    if (this.#quiesced && this.spec.quiesce.action === 'SUSPEND') stream.pause();
  }

  #newConsumer(connection: KafkaConnection, generation: number): Consumer {
    const group = this.#deps.group ?? DEFAULT_GROUP_TIMING;
    const consumer = new Consumer({
      ...connection,
      groupId: this.spec.group,
      sessionTimeout: group.sessionTimeoutMs,
      heartbeatInterval: group.heartbeatIntervalMs,
      rebalanceTimeout: Math.max(group.sessionTimeoutMs, 10_000),
      partitionAssigner: subscriptionAssigner,
      retries: 0,
    });
    this.#consumer = consumer;
    consumer.on('consumer:group:join', ({ assignments }) => {
      if (generation === this.#generation) this.#assigned(assignments ?? []);
    });
    return consumer;
  }

  #reportLag(): void {
    const { registry, domain } = this.#deps;
    if (registry === undefined || this.#unreport !== undefined) return;
    this.#unreport = reportLag(registry, { domain, name: this.shown.ingestor, lag: () => this.#lag });
  }

  quiesce(): void {
    this.#quiesced = true;
    if (this.spec.quiesce.action === 'SUSPEND') this.#stream?.pause();
  }

  resume(): Promise<void> {
    this.#quiesced = false;
    if (!this.#throttled) this.#stream?.resume();
    return Promise.resolve();
  }

  retarget(deliver: IngestFn): void {
    this.#deliver = deliver;
  }

  /** Leaves the group: waits up to `graceMs` for messages in flight, commits what is done, closes. */
  async stop(graceMs = STOP_GRACE_MS): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#unreport?.();
    this.#stream?.pause();
    if (this.#inFlight > 0 && graceMs > 0) await this.#drained(graceMs);
    await this.#commitReady();
    this.#generation++;
    this.#clearTimers();
    await this.#close();
    this.#state = 'Stopped';
    this.#log.info({ event: 'topic_consumer_stopped', inFlight: this.#inFlight }, 'topic consumer stopped');
  }

  // ── messages ──────────────────────────────────────────────────────────────────────────────────────

  #take(message: Message): void {
    const { topic, partition, offset } = message;
    // Fetched before a rebalance gave its partition away: its new owner reads it from the last commit.
    if (this.#stats.rebalances > 0 && !this.#partitions.includes(partition)) {
      this.#stats.givenAway++;
      return;
    }
    this.#stats.messages++;
    if (this.#quiesced && this.spec.quiesce.action === 'DROP') {
      this.#telemetry.drop(
        'quiesce_drop',
        `topic ingestor ${this.shown.ingestor} is quiesced (ON QUIESCE DROP)`,
      );
      if (this.spec.mode === 'ACK') this.#ledger.take(topic, partition, offset, message)();
      return;
    }
    const payload = message.value ?? EMPTY;
    const done = this.spec.mode === 'ACK' ? this.#ledger.take(topic, partition, offset, message) : undefined;
    this.#inFlight++;
    this.#inFlightBytes += payload.byteLength;
    const finish = (): void => {
      this.#inFlight--;
      this.#inFlightBytes -= payload.byteLength;
      done?.();
      this.#eased();
    };
    const result = this.#deliver(payload, this.#metadata(message));
    if (result instanceof Promise) void result.then(finish, finish);
    else finish();
    if (this.#inFlight >= MAX_IN_FLIGHT_MESSAGES || this.#inFlightBytes >= MAX_IN_FLIGHT_BYTES) {
      this.#throttled = true;
      this.#stream?.pause();
    }
  }

  #metadata(message: Message): IngestMetadata {
    let key: string | null = null;
    if (message.key !== undefined && message.key !== null && message.key.byteLength > 0) {
      try {
        key = this.#keyText.decode(message.key);
      } catch {
        key = null;
      }
    } else if (message.key !== undefined && message.key !== null) key = '';
    return {
      topic: message.topic,
      partition: message.partition,
      offset: message.offset,
      key,
      timestamp: new Instant(BigInt(message.timestamp) * 1_000_000n),
    };
  }

  /** A message is done: resume a throttled stream at half the limits, wake a stopping consumer. */
  #eased(): void {
    if (this.#inFlight === 0) this.#idle?.();
    if (!this.#throttled) return;
    if (this.#inFlight > MAX_IN_FLIGHT_MESSAGES / 2 || this.#inFlightBytes > MAX_IN_FLIGHT_BYTES / 2) return;
    this.#throttled = false;
    const suspended = this.#quiesced && this.spec.quiesce.action === 'SUSPEND';
    if (!suspended && !this.#stopped) this.#stream?.resume();
  }

  #drained(graceMs: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.#deps.clock.setTimeout(resolve, graceMs);
      this.#idle = () => {
        this.#deps.clock.clearTimeout(timer);
        resolve();
      };
    });
  }

  // ── offsets and lag ───────────────────────────────────────────────────────────────────────────────

  async #commitReady(): Promise<void> {
    const ready = this.#ledger.ready();
    await Promise.all(
      ready.map(async (message) => {
        try {
          await message.commit();
          this.#stats.commits++;
        } catch (error: unknown) {
          // During a rebalance a commit fails (REBALANCE_IN_PROGRESS, ILLEGAL_GENERATION …). A partition
          // still ours is committed again at the next tick — else, with no newer message, the group's
          // offset would stay behind for good; one given away is read again by its next owner.
          this.#stats.commitFailures++;
          const { topic, partition, offset } = message;
          this.#ledger.retry(topic, partition, offset, message);
          const { code } = kafkaErrorInfo(error);
          this.#log.warn(
            { event: 'topic_commit_failed', code, partition },
            'committing an offset failed; tried again while the partition is ours, else its next owner reads from the last commit',
          );
        }
      }),
    );
  }

  #assigned(assignments: readonly { topic: string; partitions: number[] }[]): void {
    this.#stats.rebalances++;
    const mine = assignments.find((assignment) => assignment.topic === this.spec.topic);
    const partitions = [...(mine?.partitions ?? [])].sort((a, b) => a - b);
    const lost = this.#partitions.filter((partition) => !partitions.includes(partition));
    this.#ledger.forget(this.spec.topic, lost);
    this.#partitions = partitions;
    this.#lag = Object.fromEntries(
      Object.entries(this.#lag).filter(([partition]) => partitions.includes(Number(partition))),
    );
    this.#log.info({ event: 'topic_partitions_assigned', partitions }, 'the group assigned partitions');
  }

  /**
   * Log end offset − the group's committed offset, for each partition assigned here that the group has
   * committed on (the library's getLag reads only offsets its own stream committed, not message.commit()'s).
   */
  async #measureLag(consumer: Consumer): Promise<Record<string, number>> {
    const topic = this.spec.topic;
    const partitions = this.#partitions;
    if (partitions.length === 0) return {};
    const [ends, committed] = await Promise.all([
      consumer.listOffsets({ topics: [topic] }),
      consumer.listCommittedOffsets({ topics: [{ topic, partitions }] }),
    ]);
    const lag: Record<string, number> = {};
    for (const partition of partitions) {
      const end = ends.get(topic)?.[partition];
      const done = committed.get(topic)?.[partition];
      if (end !== undefined && done !== undefined && done >= 0n) lag[String(partition)] = Number(end - done);
    }
    return lag;
  }

  // ── life ──────────────────────────────────────────────────────────────────────────────────────────

  #running(): void {
    const recovered = this.#error !== null;
    this.#state = 'Running';
    this.#error = null;
    this.#nextDelayMs = null;
    this.#backoffMs = this.#retry.initialMs;
    this.#clearTimers();
    const generation = this.#generation;
    const tick = (): void => {
      if (generation !== this.#generation) return;
      void this.#commitReady().finally(() => {
        if (generation === this.#generation)
          this.#commitTimer = this.#deps.clock.setTimeout(tick, COMMIT_INTERVAL_MS);
      });
    };
    if (this.spec.mode === 'ACK') this.#commitTimer = this.#deps.clock.setTimeout(tick, COMMIT_INTERVAL_MS);
    const measure = (): void => {
      const consumer = this.#consumer;
      if (generation !== this.#generation || consumer === undefined) return;
      void this.#measureLag(consumer)
        .then(
          (lag) => {
            if (generation === this.#generation) this.#lag = lag;
          },
          // Measured again at the next interval; a consumer that lost its brokers says so itself.
          () => undefined,
        )
        .finally(() => {
          if (generation === this.#generation)
            this.#lagTimer = this.#deps.clock.setTimeout(measure, LAG_INTERVAL_MS);
        });
    };
    this.#lagTimer = this.#deps.clock.setTimeout(measure, 0);
    this.#log.info(
      { event: recovered ? 'topic_consumer_recovered' : 'topic_consumer_running', group: this.spec.group },
      'topic consumer joined its group',
    );
  }

  #lost(error: unknown): void {
    const { code, reason } = kafkaErrorInfo(error);
    const message = `topic ingestor ${this.shown.ingestor} cannot consume topic ${this.spec.topic} of kafka client ${this.shown.client.client}: ${reason}`;
    this.#retryLater({ code, message });
  }

  #retryLater(error: { code: string; message: string }, extra: object = {}): void {
    if (this.#stopped) return;
    this.#generation++;
    this.#clearTimers();
    void this.#close();
    this.#ledger.clear();
    this.#partitions = [];
    this.#lag = {};
    const since = this.#error?.since ?? this.#deps.now().toRfc3339();
    this.#error = { ...error, since };
    this.#state = 'Retrying';
    const wait = this.#backoffMs;
    this.#nextDelayMs = wait;
    this.#backoffMs = Math.min(this.#backoffMs * 2, this.#retry.maxMs);
    this.#telemetry.transportError(error.code, error.message);
    this.#log.warn(
      { event: 'topic_consumer_retrying', code: error.code, retryInMs: wait, ...extra },
      error.message,
    );
    this.#retryTimer = this.#deps.clock.setTimeout(() => {
      this.#retryTimer = undefined;
      void this.start();
    }, wait);
  }

  async #close(): Promise<void> {
    const consumer = this.#consumer;
    const stream = this.#stream;
    this.#consumer = undefined;
    this.#stream = undefined;
    try {
      await stream?.close();
    } catch {
      // Closing a failed stream can fail again; the consumer's close below is what frees its sockets.
    }
    // close(true, callback): the overload without a callback is typed as not returning its promise.
    if (consumer !== undefined) await new Promise<void>((resolve) => consumer.close(true, () => resolve()));
  }

  #clearTimers(): void {
    for (const timer of [this.#retryTimer, this.#commitTimer, this.#lagTimer]) {
      if (timer !== undefined) this.#deps.clock.clearTimeout(timer);
    }
    this.#retryTimer = undefined;
    this.#commitTimer = undefined;
    this.#lagTimer = undefined;
  }
}

const EMPTY = new Uint8Array(0);
