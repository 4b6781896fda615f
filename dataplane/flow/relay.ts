// A relay: a stream of records of one schema (docs/language.md, "Relays"). FLUSH IMMEDIATE is synchronous
// fan-out — a published record is handed to every consumer (junctions, correlators, emitters, subscribers)
// before `publish` returns, in subscription order. Consumers share the record and must not change it. A
// consumer that throws loses that record for itself only: the loss is counted and logged (`consumer_failed`)
// and the other consumers still get it. Counters: records in (published) and out (handed to a consumer).
import type { GraphSchema } from '../graph/types.js';
import type { ComponentTelemetry } from '../core/telemetry.js';
import type { RecordValues } from '../core/values.js';

export type RecordListener = (record: Readonly<RecordValues>) => void;

interface Consumer {
  /** For logs: `junction syslog-merge`, `subscriber audit`. */
  label: string;
  listener: RecordListener;
}

export class Relay {
  /** Replaced, never changed in place, so a consumer may (un)subscribe while a record is fanned out. */
  #consumers: readonly Consumer[] = [];

  constructor(
    readonly name: string,
    readonly schema: GraphSchema,
    private readonly telemetry: ComponentTelemetry,
    /** The name people read in logs and errors (decision 0025); `name` stays the identity. */
    readonly shown = name,
  ) {}

  /** Adds a consumer; the returned function removes it (calling it twice is harmless). */
  subscribe(label: string, listener: RecordListener): () => void {
    const consumer: Consumer = { label, listener };
    this.#consumers = [...this.#consumers, consumer];
    return () => {
      this.#consumers = this.#consumers.filter((candidate) => candidate !== consumer);
    };
  }

  get consumerCount(): number {
    return this.#consumers.length;
  }

  /** Places a record on the relay; returns when every consumer has taken it. Never throws. */
  publish(record: Readonly<RecordValues>): void {
    this.telemetry.recordsIn();
    for (const consumer of this.#consumers) {
      try {
        consumer.listener(record);
        this.telemetry.recordsOut();
      } catch (error: unknown) {
        // The error's name only: its message could quote a value.
        const name = error instanceof Error ? error.name : typeof error;
        this.telemetry.drop('consumer_failed', `consumer ${consumer.label} failed (${name})`, {
          consumer: consumer.label,
        });
      }
    }
  }
}
