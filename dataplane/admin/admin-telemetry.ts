// Log events of the admin server. Lines carry the listener address, route names, codes and error names;
// never a request path or query as sent (attacker-controlled text), a header value, an error message
// (it could quote a value) or a record.
import type { Logger } from 'pino';
import { errorName } from '../core/error-text.js';

export class AdminTelemetry {
  readonly #log: Logger;

  constructor(logger: Logger) {
    this.#log = logger.child({ component: 'admin' });
  }

  listening(address: string, port: number | undefined): void {
    this.#log.info({ event: 'admin_listening', address, port }, 'admin API listening');
  }

  /** `retryInMs` undefined: not retried; the node stops and its one line on stderr says why. */
  listenFailed(address: string, code: string, retryInMs: number | undefined): void {
    if (retryInMs === undefined)
      this.#log.debug({ event: 'admin_listen_failed', address, code }, 'admin API cannot listen');
    else
      this.#log.warn(
        { event: 'admin_listen_failed', address, code, retryInMs },
        'admin API cannot listen; retrying',
      );
  }

  serverError(code: string): void {
    this.#log.warn({ event: 'admin_server_error', code }, 'admin listener socket error');
  }

  stopped(): void {
    this.#log.info({ event: 'admin_stopped' }, 'admin API stopped');
  }

  /** A built-in route threw (a defect): the client got 500 or a cut stream. */
  routeFailed(route: string, error: unknown): void {
    this.#log.error({ event: 'admin_route_failed', route, error: errorName(error) }, 'admin route failed');
  }

  /** The control hook threw or rejected: the client got 500 or a cut stream. */
  controlFailed(error: unknown): void {
    this.#log.error({ event: 'admin_control_failed', error: errorName(error) }, 'admin control hook failed');
  }
}
