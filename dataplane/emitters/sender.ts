// What the emitter needs of a transport, whatever it is (UDP socket, TCP or TLS connection): a sender is
// opened by resolving the target and trying its answers (stream-sender.ts, datagram-sender.ts), sends
// whole batches, and tells when it is lost. Failures are SenderErrors: a stable code (a Node or OpenSSL code such as
// ECONNREFUSED, ETIMEDOUT, ENOTFOUND, CERT_HAS_EXPIRED, ERR_TLS_CERT_ALTNAME_INVALID) and a message that
// names host:port and the cause — never payload bytes or key material.
import { errorCode } from '../core/error-code.js';
import { formatAddress } from '../net/retrying-listener.js';
import { messageOf } from '../core/error-text.js';

/** A transport failure: connection refused or reset, DNS failure, timeout, TLS verification, write error. */
export class SenderError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'SenderError';
  }
}

/** Code given when the peer closed the connection cleanly (no socket error). */
export const PEER_CLOSED = 'ECONNCLOSED';

export interface Sender<Unit = Uint8Array> {
  /** The address that answered (`address:port`, IPv6 in brackets), for logs and status. */
  readonly remote: string;
  /**
   * Sends the units of one batch: one write of the concatenation on a stream, one datagram per unit on
   * UDP. Resolves once the local socket accepted all of it; rejects with a SenderError otherwise.
   */
  send(units: readonly Unit[]): Promise<void>;
  /** Called once when the transport is lost on its own (peer closed or reset, socket error). */
  onLost(listener: (error: SenderError) => void): void;
  /** Closes the transport at once; nothing more is reported. */
  close(): void;
}

/**
 * What every sender does when its transport goes: the writes still waiting fail (their callbacks may
 * never come), the emitter hears of a loss it did not cause, once, and later sends fail with the
 * transport's first error.
 */
export class SenderLife {
  #closed = false;
  #error: SenderError | undefined;
  #lost: ((error: SenderError) => void) | undefined;
  readonly #waiting = new Set<(error: SenderError) => void>();

  get closed(): boolean {
    return this.#closed;
  }

  /** The transport's first error, if it had one. */
  get error(): SenderError | undefined {
    return this.#error;
  }

  /** Notes an error of the socket (the first one is kept). */
  noteError(error: SenderError): void {
    this.#error ??= error;
  }

  /** A send after the end: fails with the transport's error, or `otherwise`. */
  gone(otherwise: () => SenderError): Promise<never> {
    return Promise.reject(this.#error ?? otherwise());
  }

  onLost(listener: (error: SenderError) => void): void {
    this.#lost = listener;
  }

  /** One write: `start` writes and calls `done` (with the error, if it failed) when the socket answers. */
  write(start: (done: (error?: SenderError) => void) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.add(reject);
      start((error) => {
        this.#waiting.delete(reject);
        if (error === undefined) resolve();
        else reject(error);
      });
    });
  }

  /** The transport went on its own: waiting writes fail with `error` and the emitter is told. */
  lose(error: SenderError): void {
    if (this.#finish(error)) this.#lost?.(error);
  }

  /** The emitter closed it: waiting writes fail with `error`; false when it was closed already. */
  close(error: SenderError): boolean {
    return this.#finish(error);
  }

  #finish(error: SenderError): boolean {
    if (this.#closed) return false;
    this.#closed = true;
    for (const fail of this.#waiting) fail(error);
    this.#waiting.clear();
    return true;
  }
}

/** A SenderError for whatever a socket or resolver threw, with `where` (host:port) in the message. */
export function senderError(error: unknown, where: string): SenderError {
  if (error instanceof SenderError) return error;
  const code = errorCode(error);
  const cause = messageOf(error);
  return new SenderError(code, `${where}: ${cause}`);
}

/** `host:port`, IPv6 literals in brackets. */
export function hostPort(host: string, port: number): string {
  return formatAddress({ host, port });
}
