// One emitter in a topology (docs/language.md, "Emitters"): takes the records of its FROM relay and hands
// them to its sender — a syslog emitter or a Kafka producer (dataplane/emitters). A sender needs its
// client's files first (TLS files, a SASL password); while they cannot be read or used the emitter is
// Retrying with that cause (setting, file, reason), tries again on its RETRY POLICY backoff, and holds the
// records it takes in a bounded queue (the oldest beyond it dropped as `emitter_queue_full`, counted), then
// hands them over in order once the sender exists.
import type { Logger } from 'pino';
import type { TransientError } from '../core/status.js';
import type { EmitterStatus } from '../emitters/emitter-status.js';
import type { RecordEmitter } from '../emitters/record-emitter.js';
import type { GraphEmitter } from '../graph/types.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import type { Relay } from '../flow/relay.js';
import type { ComponentTelemetry } from '../core/telemetry.js';
import { DEFAULT_DROP_LOG_INTERVAL_MS, ThrottledDrops } from '../core/throttled-drops.js';
import { instantOf, type Instant, type RecordValues } from '../core/values.js';

/** Records held while the sender cannot be made (its TLS files failed). */
const MAX_HELD_RECORDS = 10_000;

export interface EmitterDeps {
  domain: string;
  logger: Logger;
  clock: Clock;
  now: () => Instant;
}

/** Why a sender cannot be made now; `cause` is logged as a structured field (never a file's content). */
export interface SenderProblem {
  code: string;
  message: string;
  cause: { setting: string; file: string; reason: string };
}

export interface EmitterParts {
  relay: Relay;
  /** Reads the client's files and makes the sender (not started), or says why it cannot. Never throws. */
  open(): { sender: RecordEmitter<unknown> } | { problem: SenderProblem };
  telemetry: ComponentTelemetry;
}

/** What DESCRIBE EMITTER shows. */
export interface EmitterView {
  state: EmitterStatus['state'];
  transientError: TransientError | null;
  backoffMs: number | null;
  status: EmitterStatus | undefined;
  held: number;
}

export class EmitterSlot {
  readonly #parts: EmitterParts;
  readonly #deps: EmitterDeps;
  readonly #log: Logger;
  #sender: RecordEmitter<unknown> | undefined;
  #detach: (() => void) | undefined;
  #held: Readonly<RecordValues>[] = [];
  #problem: SenderProblem | undefined;
  #problemSince: Instant | undefined;
  #backoffMs: number;
  #nextDelayMs: number | null = null;
  #timer: TimerHandle | undefined;
  #stopped = false;
  #stopping: Promise<void> | undefined;
  readonly #overflow: ThrottledDrops;

  constructor(
    readonly name: string,
    readonly spec: GraphEmitter,
    parts: EmitterParts,
    deps: EmitterDeps,
  ) {
    this.#parts = parts;
    this.#deps = deps;
    this.#backoffMs = spec.retry.backoffMs;
    this.#log = deps.logger.child({ component: 'emitter', domain: deps.domain, name });
    this.#overflow = new ThrottledDrops(
      parts.telemetry,
      'emitter_queue_full',
      `emitter ${name} held ${MAX_HELD_RECORDS} records while its sender could not be made; the oldest went`,
      { clock: deps.clock, intervalMs: DEFAULT_DROP_LOG_INTERVAL_MS },
    );
  }

  /** Starts taking records from the relay and opens the sender. */
  start(): void {
    if (this.#detach !== undefined || this.#stopped) return;
    this.#detach = this.#parts.relay.subscribe(`emitter ${this.name}`, this.#take);
    this.#open();
  }

  /** Stops taking records; the sender flushes what it can within `graceMs`, the rest is counted. */
  stop(graceMs?: number): Promise<void> {
    this.#stopping ??= this.#stop(graceMs);
    return this.#stopping;
  }

  async #stop(graceMs: number | undefined): Promise<void> {
    this.#stopped = true;
    this.#detach?.();
    this.#detach = undefined;
    if (this.#timer !== undefined) this.#deps.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#held.length > 0) {
      const count = this.#held.length;
      this.#held = [];
      this.#parts.telemetry.dropMany(
        'stopped',
        count,
        `emitter ${this.name} stopped before its sender could be made`,
      );
    }
    this.#overflow.flush();
    await this.#sender?.stop(graceMs);
  }

  get view(): EmitterView {
    const status = this.#sender?.status;
    if (status !== undefined) {
      return {
        state: status.state,
        transientError:
          status.error === null ? null : { ...status.error, since: this.#wallTime(status.since) },
        backoffMs: status.backoffMs,
        status,
        held: 0,
      };
    }
    const problem = this.#problem;
    return {
      state: this.#stopped ? 'Stopped' : problem === undefined ? 'Starting' : 'Retrying',
      transientError:
        problem === undefined
          ? null
          : {
              code: problem.code,
              message: problem.message,
              since: (this.#problemSince ?? this.#deps.now()).toRfc3339(),
            },
      backoffMs: this.#nextDelayMs,
      status: undefined,
      held: this.#held.length,
    };
  }

  readonly #take = (record: Readonly<RecordValues>): void => {
    if (this.#sender !== undefined) {
      this.#sender.take(record);
      return;
    }
    this.#held.push(record);
    if (this.#held.length > MAX_HELD_RECORDS) {
      this.#held.shift();
      this.#overflow.add(1);
    }
  };

  #open(): void {
    this.#timer = undefined;
    if (this.#stopped) return;
    const opened = this.#parts.open();
    if ('problem' in opened) {
      this.#fail(opened.problem);
      return;
    }
    this.#problem = undefined;
    this.#problemSince = undefined;
    this.#nextDelayMs = null;
    const { sender } = opened;
    sender.start();
    const held = this.#held;
    this.#held = [];
    this.#sender = sender;
    // The sender counts them as taken now.
    for (const record of held) sender.take(record);
  }

  #fail(problem: SenderProblem): void {
    this.#problem = problem;
    this.#problemSince ??= this.#deps.now();
    const wait = this.#backoffMs;
    this.#nextDelayMs = wait;
    this.#backoffMs = Math.min(this.#backoffMs * 2, this.spec.retry.maxMs);
    this.#timer = this.#deps.clock.setTimeout(() => this.#open(), wait);
    this.#log.warn(
      { event: 'emitter_files_failed', code: problem.code, cause: problem.cause, retryInMs: wait },
      "emitter cannot open its sender: its client's files failed; retrying",
    );
  }

  /** A time of the monotonic clock as wall time (the error's `since`). */
  #wallTime(at: number | null): string {
    const now = this.#deps.now();
    if (at === null) return now.toRfc3339();
    const ago = this.#deps.clock.now() - at;
    return instantOf(Number(now.epochNanos / 1_000_000n) - ago).toRfc3339();
  }
}
