// The sender of an emitter TO KAFKA (docs/kafka.md, "Emitters"): a producer for the client's brokers that
// writes each batch of the emitter's queue as one produce call to the topic. Opening it asks the brokers for
// the topic's metadata, so that unreachable brokers, a topic that does not exist and missing rights show as
// the emitter's transient error before any record waits on them.
//
// MODE ACK: acks=all — a batch leaves the queue only once every in-sync replica has it; MODE NO_ACK: acks=0
// — it leaves once the socket took it (the broker does not answer; what a broker loses is not known).
// A record the broker refuses for itself (MESSAGE_TOO_LARGE …) is not a transport failure: the batch is
// sent again one record at a time and each record refused alone is handed to `refused` (the emitter's
// ON MESSAGE ERROR policy), so one bad record never blocks the queue.
import { Producer, ProduceAcks } from '@platformatic/kafka';
import type { Logger } from 'pino';
import type { RecordValues } from '../core/values.js';
import type { KafkaConnection } from '../net/kafka-connection.js';
import { kafkaErrorInfo, RECORD_ERROR_CODES } from '../net/kafka-errors.js';
import { keyPartition } from './kafka-partition.js';
import { SenderError, type Sender } from './sender.js';

/** One message of a batch: the encoded record, its key, and the record (for ON MESSAGE ERROR). */
export interface KafkaUnit {
  key: Buffer | undefined;
  value: Uint8Array;
  record: Readonly<RecordValues>;
}

export interface KafkaSenderOptions {
  connection: KafkaConnection;
  topic: string;
  mode: 'ACK' | 'NO_ACK';
  /** The client's name as people read it, for errors. */
  client: string;
  refused(unit: KafkaUnit, code: string): void;
}

export async function openKafkaSender(options: KafkaSenderOptions, log: Logger): Promise<Sender<KafkaUnit>> {
  const producer = new Producer({
    ...options.connection,
    acks: options.mode === 'ACK' ? ProduceAcks.ALL : ProduceAcks.NO_RESPONSE,
    autocreateTopics: false,
    retries: 0,
  });
  try {
    await producer.metadata({ topics: [options.topic], autocreateTopics: false });
  } catch (error: unknown) {
    await producer.close().catch(() => undefined);
    throw failure(options, error);
  }
  log.debug({ event: 'kafka_producer_ready', topic: options.topic }, 'kafka producer ready');
  return new KafkaSender(producer, options);
}

class KafkaSender implements Sender<KafkaUnit> {
  readonly remote: string;
  readonly #producer: Producer;
  readonly #o: KafkaSenderOptions;
  #closed = false;

  constructor(producer: Producer, options: KafkaSenderOptions) {
    this.#producer = producer;
    this.#o = options;
    this.remote = options.connection.bootstrapBrokers.map(({ host, port }) => `${host}:${port}`).join(',');
  }

  async send(units: readonly KafkaUnit[]): Promise<void> {
    try {
      await this.#produce(units);
    } catch (error: unknown) {
      const { code } = kafkaErrorInfo(error);
      if (!RECORD_ERROR_CODES.has(code)) throw failure(this.#o, error);
      // One record (or the batch as a whole) is too large: find which, and send the rest.
      for (const unit of units) await this.#sendAlone(unit);
    }
  }

  async #sendAlone(unit: KafkaUnit): Promise<void> {
    try {
      await this.#produce([unit]);
    } catch (error: unknown) {
      const { code } = kafkaErrorInfo(error);
      if (!RECORD_ERROR_CODES.has(code)) throw failure(this.#o, error);
      this.#o.refused(unit, code);
    }
  }

  async #produce(units: readonly KafkaUnit[]): Promise<void> {
    if (this.#closed)
      throw new SenderError('ECONNCLOSED', `kafka client ${this.#o.client}: the producer is closed`);
    await this.#producer.send({
      messages: units.map((unit) => ({
        topic: this.#o.topic,
        // The partition of a keyed message is computed here: the library's own hash is quadratic in the
        // key's length (kafka-partition.ts). Unkeyed messages keep the producer's round robin.
        ...(unit.key === undefined ? {} : { key: unit.key, partition: keyPartition(unit.key) }),
        value: Buffer.from(unit.value.buffer, unit.value.byteOffset, unit.value.byteLength),
      })),
    });
  }

  /** The producer keeps no connection state the emitter must watch: a failed send is the loss. */
  onLost(): void {}

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    void this.#producer.close().catch(() => undefined);
  }
}

function failure(options: KafkaSenderOptions, error: unknown): SenderError {
  const { code, reason } = kafkaErrorInfo(error);
  return new SenderError(
    code,
    `kafka client ${options.client}: cannot produce to topic ${options.topic}: ${reason}`,
  );
}
