// When each transient error of the HTTP side began (DESCRIBE shows `since`): a listener that cannot bind
// (from its first failed attempt until it runs), and a route the listener does not serve (a vhost's
// certificate unavailable, a contested host and path: from the apply that first reported it until an apply
// no longer does). Times come from the injected wall clock.
import type { TransientError } from '../core/status.js';
import type { ListenerStatus } from '../net/retrying-listener.js';
import type { RoutingProblem } from '../sources/http/routing-table.js';
import type { ListenerName } from '../sources/http/telemetry.js';
import type { Instant } from '../core/values.js';

export class TransientErrors {
  readonly #now: () => Instant;
  readonly #listenerSince = new Map<ListenerName, string>();
  /** By target name (`<domain>/<ingestor>`). */
  #routes = new Map<string, TransientError>();

  constructor(now: () => Instant) {
    this.#now = now;
  }

  listenerChanged(listener: ListenerName, status: ListenerStatus): void {
    if (status.state === 'Retrying') {
      if (!this.#listenerSince.has(listener)) this.#listenerSince.set(listener, this.#stamp());
    } else if (status.state !== 'Starting') {
      // Starting between two failed attempts keeps the error's start.
      this.#listenerSince.delete(listener);
    }
  }

  /** The error of a listener's status, while it is Retrying. */
  ofListener(listener: ListenerName, status: ListenerStatus): TransientError | null {
    if (status.state !== 'Retrying' || status.error === undefined) return null;
    const since = this.#listenerSince.get(listener) ?? this.#stamp();
    return { code: status.error.code, message: status.error.message, since };
  }

  /** The problems of the routing tables now in use; one that persists keeps its `since`. */
  routesApplied(problems: readonly RoutingProblem[]): void {
    const next = new Map<string, TransientError>();
    for (const problem of problems) {
      if (next.has(problem.target)) continue; // the first problem of a target is the one shown
      const known = this.#routes.get(problem.target);
      const since = known?.code === problem.code ? known.since : this.#stamp();
      next.set(problem.target, { code: problem.code, message: problem.message, since });
    }
    this.#routes = next;
  }

  ofTarget(target: string): TransientError | null {
    return this.#routes.get(target) ?? null;
  }

  #stamp(): string {
    return this.#now().toRfc3339();
  }
}
