// Client-side rate limit, as client-go's: `qps` tokens a second, up to `burst` saved. Every API request
// takes one token and waits its turn, so a thousand nodes (1 QPS, burst 5) cannot flood the API server.
import type { Clock } from '../core/clock.js';

export interface RateLimit {
  qps: number;
  burst: number;
}

export class TokenBucket {
  readonly #limit: RateLimit;
  readonly #clock: Clock;
  #tokens: number;
  #at: number;
  /** Callers waiting for a token, first come first served. */
  #tail: Promise<void> = Promise.resolve();

  constructor(limit: RateLimit, clock: Clock) {
    if (!(limit.qps > 0) || !(limit.burst >= 1)) throw new RangeError('rate limit: qps > 0 and burst ≥ 1');
    this.#limit = limit;
    this.#clock = clock;
    this.#tokens = limit.burst;
    this.#at = clock.now();
  }

  /** Resolves when the caller may send one request. */
  take(): Promise<void> {
    const turn = this.#tail.then(() => this.#wait());
    this.#tail = turn;
    return turn;
  }

  async #wait(): Promise<void> {
    this.#refill();
    if (this.#tokens < 1) {
      // Less a hair: 1 - 0.999 is 0.0010000000000000009 in floating point, which must not round up to 2 ms.
      const waitMs = Math.max(1, Math.ceil(((1 - this.#tokens) / this.#limit.qps) * 1000 - 1e-6));
      await new Promise<void>((resolve) => this.#clock.setTimeout(resolve, waitMs));
      this.#refill();
    }
    this.#tokens -= 1;
  }

  #refill(): void {
    const now = this.#clock.now();
    this.#tokens = Math.min(this.#limit.burst, this.#tokens + ((now - this.#at) / 1000) * this.#limit.qps);
    this.#at = now;
  }
}
