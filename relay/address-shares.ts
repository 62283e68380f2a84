/**
 * One policy of the history budget (DESIGN.md §7.1, history under a botnet): one visitor address
 * may start only its share of the history requests of a minute, so one address asking every span
 * cannot spend what the others need.
 */

/** The share of the history budget (per minute, rounded up) that one visitor address may spend on cache misses. */
export const ADDRESS_SHARE = 0.25;
const WINDOW_MS = 60_000;

/**
 * Upstream history requests started per visitor address in the current minute. Only addresses
 * that started one are held, and a request the budget refused is given back, so the map never
 * holds more addresses than the budget allows requests in a minute (plus those in flight).
 */
export class AddressShares {
  readonly #counts = new Map<string, number>();
  #windowStart = 0;

  readonly #share: number;
  readonly #now: () => number;

  /** `historyPerMinute`: the history requests the budget allows in a minute (Infinity: no budget). */
  constructor(historyPerMinute: number, now: () => number) {
    this.#share = Math.max(1, Math.ceil(historyPerMinute * ADDRESS_SHARE));
    this.#now = now;
  }

  /** Counts one request of `address`, or returns the ms until it may start one again. */
  take(address: string): number {
    const now = this.#now();
    if (now - this.#windowStart >= WINDOW_MS) {
      this.#counts.clear();
      this.#windowStart = now;
    }
    const count = this.#counts.get(address) ?? 0;
    if (count >= this.#share) return Math.max(1, this.#windowStart + WINDOW_MS - now);
    this.#counts.set(address, count + 1);
    return 0;
  }

  giveBack(address: string): void {
    const count = this.#counts.get(address) ?? 0;
    if (count <= 1) this.#counts.delete(address);
    else this.#counts.set(address, count - 1);
  }
}
