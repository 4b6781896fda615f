// The emitter TO KAFKA (docs/kafka.md, "Emitters"): a RecordEmitter (record-emitter.ts) whose transport is a
// Kafka producer (kafka-sender.ts). Each record is one message of the topic; its KEY expression, evaluated
// on the record when its batch is written, is the message key (UTF-8; NULL sends no key, so the producer
// spreads such messages over the partitions). A batch is one produce call, kept and sent again whole across
// reconnects (at-least-once); BATCH MAX SIZE / MAX TIME shape it as for syslog emitters.
import { messageError, RecordError } from '../core/errors.js';
import type { Instant, RecordValues, Value } from '../core/values.js';
import { compileExpression, type Evaluate } from '../expr/expressions.js';
import type { GraphKafkaClient } from '../graph/types.js';
import type { KafkaConnection } from '../net/kafka-connection.js';
import type { Batch, QueuedRecord } from './emitter-queue.js';
import { openKafkaSender, type KafkaUnit } from './kafka-sender.js';
import { RecordEmitter, type RecordEmitterOptions, type TransportHooks } from './record-emitter.js';

export interface KafkaEmitterOptions extends Omit<RecordEmitterOptions<KafkaUnit>, 'transport'> {
  client: GraphKafkaClient;
  /** The client's name as people read it, for errors. */
  clientName: string;
  connection: KafkaConnection;
  /** The clock `now()` reads in the KEY expression. */
  now: () => Instant;
}

export class KafkaEmitter extends RecordEmitter<KafkaUnit> {
  constructor(options: KafkaEmitterOptions) {
    const target = options.spec.kafka;
    if (target === undefined) throw new Error(`emitter ${options.name} has no Kafka target`);
    const key = target.key === undefined ? undefined : compileExpression(target.key, { now: options.now });
    super({
      ...options,
      transport: (hooks) => ({
        where: `${options.connection.bootstrapBrokers.map(({ host, port }) => `${host}:${port}`).join(',')} topic ${target.topic}`,
        units: { writePerUnit: true, bytesOf: (unit) => unit.value.byteLength },
        check: () => undefined,
        bytesOf: (message) => message.byteLength,
        unitsOf: (batch) => Promise.resolve(unitsOf(batch, key, hooks)),
        open: (log) =>
          openKafkaSender(
            {
              connection: options.connection,
              topic: target.topic,
              mode: options.spec.mode,
              client: options.clientName,
              refused: (unit, code) => {
                // The record leaves the batch being written (the front one): it is a message error, not sent.
                const batch = hooks.queue.front();
                if (batch !== undefined) leave(batch, hooks, (entry) => entry.record !== unit.record);
                hooks.messageError(
                  unit.record,
                  messageError('SR3033', `the Kafka broker refused the record (${code})`),
                );
              },
            },
            log,
          ),
      }),
    });
  }
}

/** The batch's records as messages; a record whose key cannot be computed leaves the batch as an error. */
function unitsOf(batch: Batch, key: Evaluate | undefined, hooks: TransportHooks): KafkaUnit[] {
  const units: KafkaUnit[] = [];
  let failed = false;
  for (const entry of batch.live()) {
    try {
      units.push({
        key: keyBytes(key?.({ input: entry.record })),
        value: entry.message,
        record: entry.record,
      });
    } catch (error: unknown) {
      if (!(error instanceof RecordError)) throw error;
      failed = true;
      hooks.messageError(entry.record, error.toMessageError());
    }
  }
  if (failed) {
    const kept = new Set<Readonly<RecordValues>>(units.map((unit) => unit.record));
    leave(batch, hooks, (entry) => kept.has(entry.record));
  }
  return units;
}

/** Keeps the batch's records that `keep` accepts; the queue's counts lose the others. */
function leave(batch: Batch, hooks: TransportHooks, keep: (entry: QueuedRecord) => boolean): void {
  const before = { records: batch.size, bytes: batch.bytes };
  batch.retain(keep);
  hooks.queue.shrunk(before.records - batch.size, before.bytes - batch.bytes);
}

function keyBytes(value: Value | undefined): Buffer | undefined {
  if (value === undefined || value === null) return undefined;
  // The compiler types KEY as STRING (SR2005); anything else is a defect of the graph.
  if (typeof value !== 'string') throw new TypeError('a KEY expression gave a value that is not text');
  return Buffer.from(value, 'utf8');
}
