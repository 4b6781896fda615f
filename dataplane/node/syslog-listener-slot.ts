// One syslog listener ingestor on this node (docs/syslog-wire.md, "Listeners"): its client's TLS files, then
// the socket. Files that cannot be read or used are the ingestor's transient error (with the cause: setting,
// file, reason), tried again on the standard reconnect backoff like a bind failure; once they are good the
// listener starts and its own status (bind retries included) is the slot's. Quiesce, resume and
// retarget given before the listener exists apply when it starts.
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import type { TransientError } from '../core/status.js';
import type { GraphSyslogClient, GraphSyslogIngestor } from '../graph/types.js';
import type { Clock, TimerHandle } from '../core/clock.js';
import type { IngestFn } from '../core/ingest.js';
import type { ComponentTelemetry } from '../core/telemetry.js';
import type { Instant } from '../core/values.js';
import type { TlsMaterialSource } from '../net/tls-contexts.js';
import {
  DEFAULT_LISTEN_RETRY,
  formatAddress,
  type ListenerStatus,
  type RetryPolicy,
} from '../net/retrying-listener.js';
import {
  createSyslogListener,
  type SyslogListener,
  type SyslogListenerStats,
} from '../sources/syslog/syslog-listener.js';
import type { IngestConnections } from '../net/ingest-connections.js';
import { readSyslogTls, type SyslogTlsProblem, type TlsNames } from '../net/syslog-tls-material.js';

export interface SyslogSlotDeps {
  domain: string;
  tls: TlsMaterialSource | undefined;
  drops: (ingestor: string) => ComponentTelemetry;
  logger: Logger;
  registry: Registry;
  clock: Clock;
  now: () => Instant;
  retry: RetryPolicy | undefined;
  /** Binds listeners declared on a wildcard address (0.0.0.0, ::) to this IP instead (`--bind-host`). */
  bindHost?: string | undefined;
  /** The node's ingestion connection pool, per-peer share and stream timeouts. */
  connections?: IngestConnections | undefined;
}

/** The ingestor a slot serves: its spec, its client and its entry. */
export interface SyslogSlotServes {
  spec: GraphSyslogIngestor;
  client: GraphSyslogClient;
  deliver: IngestFn;
  /** The ingestor's and its client's names as people read them (decision 0025), and the resources'. */
  shown: { ingestor: string; tls: TlsNames };
}

/** What DESCRIBE INGESTOR shows of the listener. */
export interface SyslogSlotView {
  status: ListenerStatus;
  transientError: TransientError | null;
  suspended: boolean;
  quiesced: boolean;
  buffered: { items: number; bytes: number };
  stats: SyslogListenerStats | undefined;
}

export class SyslogListenerSlot {
  readonly #name: string;
  readonly #deps: SyslogSlotDeps;
  readonly #retry: RetryPolicy;
  readonly #log: Logger;
  #deliver: IngestFn;
  #listener: SyslogListener | undefined;
  #problem: SyslogTlsProblem | undefined;
  #failures = 0;
  #backoffMs: number;
  /** The wait before the pending retry. */
  #nextDelayMs = 0;
  #timer: TimerHandle | undefined;
  #quiesced = false;
  #stopped = false;
  #since: string | undefined;

  readonly spec: GraphSyslogIngestor;
  readonly client: GraphSyslogClient;
  readonly shown: SyslogSlotServes['shown'];

  /** `name` is the ingestor's display name: what it logs and counts under. */
  constructor(name: string, serves: SyslogSlotServes, deps: SyslogSlotDeps) {
    this.#name = name;
    this.spec = serves.spec;
    this.client = serves.client;
    this.shown = serves.shown;
    this.#deps = deps;
    this.#deliver = serves.deliver;
    this.#retry = deps.retry ?? DEFAULT_LISTEN_RETRY;
    this.#backoffMs = this.#retry.initialMs;
    this.#log = deps.logger.child({ component: 'syslog-ingestor', domain: deps.domain, name });
  }

  /** Resolves after the first attempt: Running, or Retrying with the error. Never rejects. */
  async start(): Promise<void> {
    if (this.#stopped || this.#listener !== undefined) return;
    const read = readSyslogTls(this.shown.tls, this.client, this.#deps.domain, this.#deps.tls);
    if ('problem' in read) {
      this.#fail(read.problem);
      return;
    }
    this.#problem = undefined;
    this.#failures = 0;
    this.#backoffMs = this.#retry.initialMs;
    const listener = createSyslogListener({
      domain: this.#deps.domain,
      ingestor: this.#name,
      protocol: this.client.protocol,
      address: this.#address(),
      maxMessageSize: this.client.maxMessageSize,
      ...(read.files?.cert && read.files.key
        ? {
            tls: {
              cert: read.files.cert,
              key: read.files.key,
              ...(read.files.ca ? { ca: read.files.ca } : {}),
            },
          }
        : {}),
      quiesce: this.spec.quiesce,
      deliver: this.#deliver,
      drops: this.#deps.drops(this.#name),
      logger: this.#deps.logger,
      clock: this.#deps.clock,
      registry: this.#deps.registry,
      connections: this.#deps.connections,
      ...(this.#deps.retry === undefined ? {} : { retry: this.#deps.retry }),
      statusChanged: (status) => this.#statusChanged(status),
    });
    this.#listener = listener;
    if (this.#quiesced) listener.quiesce();
    await listener.start();
  }

  get view(): SyslogSlotView {
    const listener = this.#listener;
    const status = listener?.status ?? this.#ownStatus();
    return {
      status,
      transientError: this.#transientError(status),
      suspended: listener?.suspended ?? false,
      quiesced: this.#quiesced,
      buffered: listener?.buffered ?? { items: 0, bytes: 0 },
      stats: listener?.stats,
    };
  }

  quiesce(): void {
    this.#quiesced = true;
    this.#listener?.quiesce();
  }

  async resume(): Promise<void> {
    this.#quiesced = false;
    await this.#listener?.resume();
  }

  retarget(deliver: IngestFn): void {
    this.#deliver = deliver;
    this.#listener?.retarget(deliver);
  }

  async stop(graceMs?: number): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) this.#deps.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#listener?.stop(graceMs);
  }

  #fail(problem: SyslogTlsProblem): void {
    this.#problem = problem;
    this.#failures++;
    this.#since ??= this.#deps.now().toRfc3339();
    const wait = this.#backoffMs;
    this.#nextDelayMs = wait;
    this.#backoffMs = Math.min(this.#backoffMs * 2, this.#retry.maxMs);
    this.#timer = this.#deps.clock.setTimeout(() => {
      this.#timer = undefined;
      void this.start();
    }, wait);
    this.#log.warn(
      { event: 'listener_tls_failed', code: problem.code, cause: problem.cause, retryInMs: wait },
      'syslog listener cannot start: its TLS files failed; retrying',
    );
  }

  #statusChanged(status: ListenerStatus): void {
    if (status.state === 'Retrying') this.#since ??= this.#deps.now().toRfc3339();
    else if (status.state === 'Running' || status.state === 'Stopped') this.#since = undefined;
  }

  #ownStatus(): ListenerStatus {
    const address = formatAddress(this.#address());
    if (this.#problem === undefined || this.#stopped) return { state: 'Stopped', address, failures: 0 };
    return {
      state: 'Retrying',
      address,
      error: { code: this.#problem.code, message: this.#problem.message },
      backoffMs: this.#nextDelayMs,
      failures: this.#failures,
    };
  }

  /** The client's address, with a wildcard host replaced by the node's bind host when it has one. */
  #address(): { host: string; port: number } {
    const { host, port } = this.client;
    const wildcard = host === '0.0.0.0' || host === '::';
    return { host: wildcard && this.#deps.bindHost !== undefined ? this.#deps.bindHost : host, port };
  }

  #transientError(status: ListenerStatus): TransientError | null {
    if (status.state !== 'Retrying' || status.error === undefined) return null;
    return {
      code: status.error.code,
      message: status.error.message,
      since: this.#since ?? this.#deps.now().toRfc3339(),
    };
  }
}
