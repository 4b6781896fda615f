// Leader election on a coordination.k8s.io/v1 Lease, as client-go's leaderelection: a candidate takes
// the lease when it is absent, released (no holder) or expired — judged by the local clock from when this
// replica last saw the record change, never by comparing another machine's timestamps — and the leader
// renews it every 2 s. Every write carries the resourceVersion read, so of two racing candidates one gets
// 409 and loses. A leader that cannot renew (409, another holder, or no success within the renew
// deadline) stops leading at once; a graceful stop releases the lease so another replica takes over
// within one retry period. The decision is a pure function; the loop around it is thin I/O.
import type { Logger } from 'pino';
import { isStatus, type KubeApi } from '../../dataplane/kube-client/kube-api.js';
import type { ObjectMeta } from '../../dataplane/kube-client/object-meta.js';
import { sleep, type Clock, type TimerHandle } from '../../dataplane/core/clock.js';

export interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

export interface Lease {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec?: LeaseSpec;
}

/** The last record this replica saw and when (local monotonic clock) it last saw it change. */
export interface LeaseObservation {
  record: string;
  at: number;
}

export type LeaseDecision =
  | { action: 'create' }
  /** Take the lease from its holder (expired or released): a new term, transitions + 1. */
  | { action: 'acquire' }
  /** We hold it: renew. */
  | { action: 'renew' }
  /** Someone else holds it and it has not expired: wait. */
  | { action: 'wait'; holder: string; expiresInMs: number };

export interface DecideInput {
  lease: Lease | undefined;
  /** Updated from `lease` by observeLease() before deciding. */
  observed: LeaseObservation | undefined;
  identity: string;
  now: number;
  /** Our lease duration, used when the record names none. */
  leaseDurationMs: number;
}

/** Records when the lease record last changed, by the local clock (client-go's observedTime). */
export function observeLease(
  lease: Lease | undefined,
  previous: LeaseObservation | undefined,
  now: number,
): LeaseObservation | undefined {
  if (lease === undefined) return undefined;
  const record = JSON.stringify(lease.spec ?? {});
  return previous?.record === record ? previous : { record, at: now };
}

/** What a candidate or leader does next, from the lease it just read (pure). */
export function decideLease(input: DecideInput): LeaseDecision {
  if (input.lease === undefined) return { action: 'create' };
  const spec = input.lease.spec ?? {};
  const holder = spec.holderIdentity ?? '';
  if (holder === input.identity) return { action: 'renew' };
  if (holder === '') return { action: 'acquire' };
  const durationMs =
    spec.leaseDurationSeconds === undefined ? input.leaseDurationMs : spec.leaseDurationSeconds * 1000;
  const seenAt = input.observed?.at ?? input.now;
  const expiresInMs = seenAt + durationMs - input.now;
  if (expiresInMs > 0) return { action: 'wait', holder, expiresInMs };
  return { action: 'acquire' };
}

/** The spec to write for a decision (create, acquire or renew). */
export function leaseSpecFor(
  decision: 'create' | 'acquire' | 'renew',
  current: LeaseSpec | undefined,
  who: { identity: string; leaseDurationSeconds: number; wallTime: string },
): LeaseSpec {
  const renewing = decision === 'renew';
  return {
    holderIdentity: who.identity,
    leaseDurationSeconds: who.leaseDurationSeconds,
    acquireTime: renewing ? (current?.acquireTime ?? who.wallTime) : who.wallTime,
    renewTime: who.wallTime,
    leaseTransitions:
      decision === 'acquire' ? (current?.leaseTransitions ?? 0) + 1 : (current?.leaseTransitions ?? 0),
  };
}

/** Kubernetes MicroTime: RFC 3339 with six fractional digits. */
export function microTime(date: Date): string {
  return date.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export const LEASE_DEFAULTS = {
  leaseDurationSeconds: 15,
  renewPeriodMs: 2_000,
  retryPeriodMs: 2_000,
  renewDeadlineMs: 10_000,
  /** One read-and-write round that has not answered by then counts as failed (a dead connection). */
  attemptTimeoutMs: 5_000,
} as const;

export interface LeaderElectorOptions {
  api: KubeApi;
  namespace: string;
  name: string;
  identity: string;
  clock: Clock;
  /** Wall-clock time for acquireTime/renewTime. */
  wallClock?: () => Date;
  logger?: Logger;
  timing?: Partial<typeof LEASE_DEFAULTS>;
  onStartedLeading: () => void;
  /** Called at once when leadership is lost (not renewed, or taken) and after a stop while leading. */
  onStoppedLeading: () => void;
}

type Attempt = 'held' | 'lost' | 'failed';

export class LeaderElector {
  readonly #options: LeaderElectorOptions;
  readonly #timing: typeof LEASE_DEFAULTS;
  readonly #abort = new AbortController();
  #observed: LeaseObservation | undefined;
  #lease: Lease | undefined;
  #leading = false;
  /** Steps down when no renewal succeeds within the renew deadline, even while a request hangs. */
  #deadline: TimerHandle | undefined;
  #loop: Promise<void> | undefined;

  constructor(options: LeaderElectorOptions) {
    this.#options = options;
    this.#timing = { ...LEASE_DEFAULTS, ...options.timing };
  }

  get isLeader(): boolean {
    return this.#leading;
  }

  get identity(): string {
    return this.#options.identity;
  }

  /** Starts campaigning; runs until stop(). */
  start(): void {
    this.#loop ??= this.#run();
  }

  /**
   * Stops campaigning. With `release` (the default) a leader hands the lease back so another replica
   * takes it at once; without, the lease simply expires (what a crash looks like to the others).
   */
  async stop(options: { release?: boolean } = {}): Promise<void> {
    this.#abort.abort();
    await this.#loop;
    this.#setLeading(false);
    if (options.release ?? true) await this.#release();
  }

  async #run(): Promise<void> {
    while (!this.#abort.signal.aborted) {
      const result = await this.#attemptWithin(this.#timing.attemptTimeoutMs);
      if (this.#abort.signal.aborted) return;
      this.#settle(result);
      const wait = this.#leading ? this.#timing.renewPeriodMs : this.#timing.retryPeriodMs;
      await sleep(this.#options.clock, wait, this.#abort.signal);
    }
  }

  #settle(result: Attempt): void {
    if (result === 'held') {
      this.#armDeadline();
      this.#setLeading(true);
    } else if (result === 'lost') {
      this.#setLeading(false);
    }
    // 'failed': the deadline timer steps down if no renewal succeeds in time
  }

  #armDeadline(): void {
    const clock = this.#options.clock;
    if (this.#deadline !== undefined) clock.clearTimeout(this.#deadline);
    this.#deadline = clock.setTimeout(() => {
      this.#deadline = undefined;
      if (!this.#leading) return;
      this.#options.logger?.warn({ lease: this.#options.name }, 'lease not renewed within the deadline');
      this.#setLeading(false);
    }, this.#timing.renewDeadlineMs);
  }

  #setLeading(leading: boolean): void {
    if (!leading && this.#deadline !== undefined) {
      this.#options.clock.clearTimeout(this.#deadline);
      this.#deadline = undefined;
    }
    if (leading === this.#leading) return;
    this.#leading = leading;
    const fields = { lease: this.#options.name, identity: this.#options.identity };
    if (leading) {
      this.#options.logger?.info(fields, 'became leader');
      this.#options.onStartedLeading();
    } else {
      this.#options.logger?.info(fields, 'stopped leading');
      this.#options.onStoppedLeading();
    }
  }

  /** One round, or 'failed' when it has not answered within `ms` (its late answer is ignored). */
  #attemptWithin(ms: number): Promise<Attempt> {
    let timer: TimerHandle | undefined;
    const late = new Promise<Attempt>((resolve) => {
      timer = this.#options.clock.setTimeout(() => resolve('failed'), ms);
    });
    return Promise.race([this.#attempt(), late]).finally(() => {
      if (timer !== undefined) this.#options.clock.clearTimeout(timer);
    });
  }

  /** One read-decide-write round: 'held' (we hold the lease now), 'lost' (someone else does), 'failed'. */
  async #attempt(): Promise<Attempt> {
    try {
      const lease = await this.#read();
      const now = this.#options.clock.now();
      this.#observed = observeLease(lease, this.#observed, now);
      const decision = decideLease({
        lease,
        observed: this.#observed,
        identity: this.#options.identity,
        now,
        leaseDurationMs: this.#timing.leaseDurationSeconds * 1000,
      });
      if (decision.action === 'wait') return 'lost';
      await this.#write(decision.action, lease);
      return 'held';
    } catch (error: unknown) {
      if (isStatus(error, 409)) return 'lost';
      this.#options.logger?.warn({ lease: this.#options.name, error: String(error) }, 'lease request failed');
      return 'failed';
    }
  }

  async #read(): Promise<Lease | undefined> {
    try {
      return (this.#lease = await this.#options.api.request<Lease>({ path: this.#path(this.#options.name) }));
    } catch (error: unknown) {
      if (isStatus(error, 404)) return (this.#lease = undefined);
      throw error;
    }
  }

  async #write(action: 'create' | 'acquire' | 'renew', lease: Lease | undefined): Promise<void> {
    const spec = leaseSpecFor(action, lease?.spec, {
      identity: this.#options.identity,
      leaseDurationSeconds: this.#timing.leaseDurationSeconds,
      wallTime: microTime(this.#wallTime()),
    });
    const metadata = {
      ...(lease?.metadata ?? {}),
      name: this.#options.name,
      namespace: this.#options.namespace,
    };
    const body: Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata, spec };
    const written = await this.#options.api.request<Lease>(
      action === 'create'
        ? { method: 'POST', path: this.#path(), body }
        : { method: 'PUT', path: this.#path(this.#options.name), body },
    );
    this.#lease = written;
    this.#observed = observeLease(written, this.#observed, this.#options.clock.now());
  }

  /** Hands the lease back: no holder, so the next candidate to look takes it. */
  async #release(): Promise<void> {
    const lease = this.#lease;
    if (lease?.spec?.holderIdentity !== this.#options.identity) return;
    const now = microTime(this.#wallTime());
    const spec: LeaseSpec = {
      ...lease.spec,
      holderIdentity: '',
      leaseDurationSeconds: 1,
      renewTime: now,
      acquireTime: now,
    };
    try {
      await this.#options.api.request({
        method: 'PUT',
        path: this.#path(this.#options.name),
        body: { ...lease, spec },
      });
      this.#options.logger?.info({ lease: this.#options.name }, 'released the lease');
    } catch (error: unknown) {
      this.#options.logger?.warn({ lease: this.#options.name, error: String(error) }, 'lease release failed');
    }
  }

  #wallTime(): Date {
    return this.#options.wallClock?.() ?? new Date();
  }

  #path(name?: string): string {
    const base = `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(this.#options.namespace)}/leases`;
    return name === undefined ? base : `${base}/${encodeURIComponent(name)}`;
  }
}
