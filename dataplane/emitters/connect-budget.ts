// One connection budget (docs/syslog-wire.md, "Emitters", Addresses: 30 s by default) that DNS, every address
// attempt and the TLS handshake spend together. The budget runs on the injected clock, so tests move time
// instead of waiting for it; `race` gives up on a step (a DNS server that never answers, a SYN nobody
// answers) when the budget or the step's share of it runs out.
import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import type { Clock } from '../core/clock.js';
import { errorCode } from '../core/error-code.js';
import { SenderError } from './sender.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses, in the order to try them. */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

/** The node's resolver, hosts file included, answers in the order the resolver gave them. */
export const systemResolver: Resolver = async (host) => {
  const answers = await lookup(host, { all: true, order: 'verbatim' });
  return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

export const DEFAULT_CONNECT_BUDGET_MS = 30_000;

export class ConnectBudget {
  readonly #clock: Clock;
  readonly #deadline: number;

  constructor(clock: Clock, budgetMs: number) {
    this.#clock = clock;
    this.#deadline = clock.now() + budgetMs;
  }

  /** Milliseconds left (never below 0). */
  remaining(): number {
    return Math.max(0, this.#deadline - this.#clock.now());
  }

  /** The share of what is left for one of `attemptsLeft` attempts. */
  share(attemptsLeft: number): number {
    return this.remaining() / Math.max(1, attemptsLeft);
  }

  /**
   * `work`, or a rejection with `timeout()` once `ms` (default: what is left) have passed first; `abandon`
   * runs then, to release what `work` holds.
   */
  race<T>(
    work: Promise<T>,
    timeout: () => SenderError,
    ms = this.remaining(),
    abandon?: () => void,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = this.#clock.setTimeout(() => {
        abandon?.();
        reject(timeout());
      }, ms);
      work.then(
        (value) => {
          this.#clock.clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          this.#clock.clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }
}

/**
 * The addresses to try for `host`: a literal IPv4 or IPv6 address as it is, a name through `resolve`
 * within the budget. No answer, an empty answer and a lookup that outlives the budget are failures.
 */
export async function resolveTarget(
  host: string,
  resolve: Resolver,
  budget: ConnectBudget,
  where: string,
): Promise<ResolvedAddress[]> {
  const family = isIP(host);
  if (family === 4 || family === 6) return [{ address: host, family }];
  const timeout = (): SenderError =>
    new SenderError(
      'ETIMEDOUT',
      `${where}: the DNS lookup of ${host} did not answer within the connection budget`,
    );
  let answers: ResolvedAddress[];
  try {
    answers = await budget.race(
      Promise.resolve().then(() => resolve(host)),
      timeout,
    );
  } catch (error: unknown) {
    if (error instanceof SenderError) throw error;
    const code = errorCode(error);
    throw new SenderError(
      code === 'UNKNOWN' ? 'ENOTFOUND' : code,
      `${where}: the DNS lookup of ${host} failed (${code})`,
    );
  }
  if (answers.length === 0) {
    throw new SenderError('ENOTFOUND', `${where}: the DNS lookup of ${host} returned no address`);
  }
  return answers;
}
