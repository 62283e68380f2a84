/**
 * The history budget's shares (DESIGN.md §7.1, history under a botnet): how much of it one visitor
 * address may spend on cache misses, and which spans are in demand, so that asks spread over every
 * span cannot spend the slots that the spans visitors keep asking for need.
 */

/** The share of the history budget (per minute, rounded up) that one visitor address may spend on cache misses. */
export const ADDRESS_SHARE = 0.25;
export const SHARE_WINDOW_MS = 60_000;
/**
 * The part of the history minute budget kept for spans in demand: a miss of any other span starts
 * no request once this leader's history requests of the last minute reach the rest, so asks spread
 * over every span (a botnet's) cannot spend the slots that the spans visitors keep asking for need.
 */
export const DEMAND_SHARE = 0.5;
/** A span is in demand when missed this many times as often as the average missed span (this minute and the last). */
export const DEMAND_FACTOR = 2;

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

  constructor(share: number, now: () => number) {
    this.#share = share;
    this.#now = now;
  }

  /** Counts one request of `address`, or returns the ms until it may start one again. */
  take(address: string): number {
    const now = this.#now();
    if (now - this.#windowStart >= SHARE_WINDOW_MS) {
      this.#counts.clear();
      this.#windowStart = now;
    }
    const count = this.#counts.get(address) ?? 0;
    if (count >= this.#share) return Math.max(1, this.#windowStart + SHARE_WINDOW_MS - now);
    this.#counts.set(address, count + 1);
    return 0;
  }

  giveBack(address: string): void {
    const count = this.#counts.get(address) ?? 0;
    if (count <= 1) this.#counts.delete(address);
    else this.#counts.set(address, count - 1);
  }
}

/**
 * How often each history key was asked for and missed (not fresh in the cache), this minute and
 * the last. Keys are (catalog symbol, span) pairs only, so both maps are bounded by the catalog.
 */
export class Demand {
  #current = new Map<string, number>();
  #previous = new Map<string, number>();
  #currentAsks = 0;
  #previousAsks = 0;
  #windowStart = 0;

  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
  }

  count(key: string): void {
    this.#roll();
    this.#current.set(key, (this.#current.get(key) ?? 0) + 1);
    this.#currentAsks += 1;
  }

  /** Whether `key` was missed at least `DEMAND_FACTOR` times as often as the average missed key. */
  inDemand(key: string): boolean {
    this.#roll();
    const asks = (this.#current.get(key) ?? 0) + (this.#previous.get(key) ?? 0);
    const mean = (this.#currentAsks + this.#previousAsks) / Math.max(1, this.#current.size, this.#previous.size);
    return asks >= DEMAND_FACTOR * mean;
  }

  #roll(): void {
    const now = this.#now();
    if (now - this.#windowStart < SHARE_WINDOW_MS) return;
    // A whole window passed without asks: the last one is empty too.
    const gap = now - this.#windowStart >= 2 * SHARE_WINDOW_MS;
    this.#previous = gap ? new Map() : this.#current;
    this.#previousAsks = gap ? 0 : this.#currentAsks;
    this.#current = new Map();
    this.#currentAsks = 0;
    this.#windowStart = now;
  }
}
