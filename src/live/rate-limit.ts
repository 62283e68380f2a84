/**
 * The one record of the service's `Retry-After`: the hub owns one, its fetcher and poller read it
 * before every request, and whoever meets a 429 notes it here.
 */
import type { PriceBoardError } from '../shared/errors';

/** Pause after a 429 that named no `Retry-After`. */
const DEFAULT_RATE_LIMIT_MS = 60_000;

export class RateLimit {
  /** No request before this time (epoch ms). */
  until = 0;
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Remembers a 429 (others are ignored) so that no request goes out before its `Retry-After`. */
  note(error: PriceBoardError): void {
    if (error.code !== 'rate_limited') return;
    this.until = Math.max(this.until, this.#now() + (error.retryAfterMs ?? DEFAULT_RATE_LIMIT_MS));
  }

  /** Whether a `Retry-After` is running. */
  get active(): boolean {
    return this.until > this.#now();
  }
}
