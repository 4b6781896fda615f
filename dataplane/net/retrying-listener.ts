// A listening socket that never crashes the node when it cannot bind (docs/syslog-wire.md, "Listeners",
// and docs/http-ingestion.md, "Listeners": a failed bind is that node's transient error, retried with the
// standard reconnect backoff; binding clears the error and resets the backoff). Shared by every
// stream-socket source.
//
//   Stopped ─start→ Starting ─listening→ Running
//                      │ error (EADDRINUSE, EACCES, …)
//                      ▼
//                   Retrying ─after backoff→ Starting        (backoff doubles up to the maximum)
//                      or, when the policy says not to retry (a node that must own its ports, while it
//                      starts: docs/node.md, "Starting and stopping"): Stopped with the error kept
//   any ─stop→ Stopped    (a running server stops accepting, idle connections close at once, busy ones
//                          get `graceMs` to finish their request before they are closed)
//
// Errors of a running server (a failed accept) are reported and the server keeps listening.
import type { Server } from 'node:net';
import type { Clock, TimerHandle } from '../core/clock.js';
import { errorCode } from '../core/error-code.js';
import { messageOf } from '../core/error-text.js';

export interface ListenAddress {
  /** An IP address; IPv6 without brackets. */
  host: string;
  /** 0 asks the system for a free port (tests). */
  port: number;
}

export function formatAddress(address: ListenAddress): string {
  return address.host.includes(':') ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`;
}

/** Doubling from `initialMs` up to `maxMs`. */
export interface RetryPolicy {
  initialMs: number;
  maxMs: number;
  /**
   * Asked at each failed bind: false stops the listener with the error (Stopped, `error` set) instead of
   * retrying. Absent: always retry.
   */
  retries?: () => boolean;
}

export const DEFAULT_LISTEN_RETRY: RetryPolicy = { initialMs: 1_000, maxMs: 30_000 };

export type ListenerState = 'Stopped' | 'Starting' | 'Running' | 'Retrying';

export interface ListenerStatus {
  state: ListenerState;
  /** The configured address, `host:port`. */
  address: string;
  /** The bound port while Running (the system's choice when the configured port is 0). */
  port?: number;
  /** Why the last attempt failed: while Retrying, or Stopped after a bind the policy did not retry. */
  error?: { code: string; message: string };
  /** Wait before the next attempt, while Retrying. */
  backoffMs?: number;
  /** Failed attempts since the last success. */
  failures: number;
}

/** What a listener reports; the owner's telemetry logs and counts it. */
export interface ListenerHooks {
  listening(address: string): void;
  /** `retryInMs` undefined: the policy does not retry; the listener stopped (its owner reports it). */
  listenFailed(address: string, code: string, retryInMs: number | undefined): void;
  serverError(code: string): void;
  stopped(): void;
  /** Every state change (for DESCRIBE). */
  statusChanged?(status: ListenerStatus): void;
}

/** What an HTTP(S) server adds to `net.Server`. */
type ClosableServer = Server & { closeIdleConnections?: () => void; closeAllConnections?: () => void };

export interface RetryingListenerOptions {
  clock: Clock;
  retry?: RetryPolicy;
  hooks: ListenerHooks;
}

export class RetryingListener {
  readonly #server: ClosableServer;
  readonly #address: ListenAddress;
  readonly #label: string;
  readonly #clock: Clock;
  readonly #retry: RetryPolicy;
  readonly #hooks: ListenerHooks;
  #state: ListenerState = 'Stopped';
  #error: { code: string; message: string } | undefined;
  #backoffMs: number;
  #nextDelayMs: number | undefined;
  #failures = 0;
  #timer: TimerHandle | undefined;
  #waiters: ((status: ListenerStatus) => void)[] = [];

  constructor(server: ClosableServer, address: ListenAddress, options: RetryingListenerOptions) {
    this.#server = server;
    this.#address = address;
    this.#label = formatAddress(address);
    this.#clock = options.clock;
    this.#retry = options.retry ?? DEFAULT_LISTEN_RETRY;
    this.#backoffMs = this.#retry.initialMs;
    this.#hooks = options.hooks;
    server.on('listening', () => this.#onListening());
    server.on('error', (error: unknown) => this.#onError(error));
  }

  get status(): ListenerStatus {
    const status: ListenerStatus = { state: this.#state, address: this.#label, failures: this.#failures };
    const bound = this.#server.address();
    if (this.#state === 'Running' && bound !== null && typeof bound === 'object') status.port = bound.port;
    const failed = this.#state === 'Retrying' || this.#state === 'Stopped';
    if (failed && this.#error !== undefined) status.error = this.#error;
    if (this.#state === 'Retrying' && this.#nextDelayMs !== undefined) status.backoffMs = this.#nextDelayMs;
    return status;
  }

  /**
   * Resolves with the status after the first attempt: Running, or Retrying with the error (Stopped with it
   * when the policy does not retry).
   */
  start(): Promise<ListenerStatus> {
    if (this.#state === 'Running' || this.#state === 'Retrying') return Promise.resolve(this.status);
    const settled = new Promise<ListenerStatus>((resolve) => this.#waiters.push(resolve));
    if (this.#state === 'Stopped') {
      this.#error = undefined;
      this.#backoffMs = this.#retry.initialMs;
      this.#failures = 0;
      this.#attempt();
    }
    return settled;
  }

  /** Stops listening; connections still busy after `graceMs` are closed. */
  async stop(graceMs = 5_000): Promise<void> {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#state === 'Stopped') return;
    this.#error = undefined;
    this.#set('Stopped');
    if (this.#server.listening) await this.#close(graceMs);
    this.#hooks.stopped();
  }

  #attempt(): void {
    this.#timer = undefined;
    this.#set('Starting');
    try {
      this.#server.listen({ host: this.#address.host, port: this.#address.port });
    } catch (error: unknown) {
      // Synchronous refusals (ERR_SERVER_ALREADY_LISTEN after a quick stop and start) retry like the rest.
      this.#onError(error);
    }
  }

  #onListening(): void {
    if (this.#state !== 'Starting') {
      // stop() came while the bind was in flight.
      this.#server.close();
      return;
    }
    this.#error = undefined;
    this.#nextDelayMs = undefined;
    this.#failures = 0;
    this.#backoffMs = this.#retry.initialMs;
    this.#set('Running');
    this.#hooks.listening(this.#label);
  }

  #onError(error: unknown): void {
    const code = errorCode(error);
    if (this.#state === 'Running') {
      this.#hooks.serverError(code);
      return;
    }
    if (this.#state !== 'Starting') return;
    this.#failures++;
    this.#error = { code, message: messageOf(error) };
    if (this.#retry.retries?.() === false) {
      this.#nextDelayMs = undefined;
      this.#set('Stopped');
      this.#hooks.listenFailed(this.#label, code, undefined);
      return;
    }
    this.#nextDelayMs = this.#backoffMs;
    this.#backoffMs = Math.min(this.#backoffMs * 2, this.#retry.maxMs);
    this.#timer = this.#clock.setTimeout(() => this.#attempt(), this.#nextDelayMs);
    this.#set('Retrying');
    this.#hooks.listenFailed(this.#label, code, this.#nextDelayMs);
  }

  #close(graceMs: number): Promise<void> {
    return new Promise((resolve) => {
      const force =
        graceMs > 0 ? this.#clock.setTimeout(() => this.#server.closeAllConnections?.(), graceMs) : undefined;
      this.#server.close(() => {
        if (force !== undefined) this.#clock.clearTimeout(force);
        resolve();
      });
      this.#server.closeIdleConnections?.();
      if (graceMs <= 0) this.#server.closeAllConnections?.();
    });
  }

  #set(state: ListenerState): void {
    this.#state = state;
    const status = this.status;
    this.#hooks.statusChanged?.(status);
    if (state === 'Starting') return;
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve(status);
  }
}
