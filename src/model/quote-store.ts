/** The latest quote per symbol, merged by `updated_at` so that an older quote never wins. */
import type { Quote } from '../shared/types';

/**
 * How far ahead of our clock a quote's `updated_at` may be (clocks differ a little). A quote
 * dated further ahead (a service bug, or the year 2999) would win every comparison for ever and
 * freeze its row: it is applied as received now (`updated_at` replaced by the receipt time), so
 * later quotes still win and the row goes stale like any other.
 */
export const FUTURE_SKEW_MS = 5 * 60_000;

interface Held {
  quote: Quote;
  time: number;
}

/**
 * Quotes by symbol. Polls, stream snapshots and stream events overlap and may arrive out of
 * order; `apply` keeps a quote only when its `updated_at` is strictly newer than the one held.
 */
export class QuoteStore {
  readonly #held = new Map<string, Held>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * Merges `quotes`; returns the ones applied (one per symbol, the last applied, in first-seen
   * order). A quote with an unreadable `updated_at`, or not newer than the held one, is ignored:
   * equal times with other content are ignored too, since the one shown is as recent. A quote
   * dated more than {@link FUTURE_SKEW_MS} ahead is taken as received now.
   */
  apply(quotes: readonly Quote[]): Quote[] {
    const applied = new Map<string, Quote>();
    const now = this.#now();
    for (const given of quotes) {
      let quote = given;
      let time = Date.parse(quote.updated_at);
      if (Number.isNaN(time)) continue;
      if (time > now + FUTURE_SKEW_MS) {
        time = now;
        quote = { ...quote, updated_at: new Date(now).toISOString() };
      }
      const current = this.#held.get(quote.symbol);
      if (current && time <= current.time) continue;
      this.#held.set(quote.symbol, { quote, time });
      applied.set(quote.symbol, quote);
    }
    return [...applied.values()];
  }

  /** The quote held for `symbol`. */
  get(symbol: string): Quote | undefined {
    return this.#held.get(symbol)?.quote;
  }

  /** Whether a quote is held for `symbol`. */
  has(symbol: string): boolean {
    return this.#held.has(symbol);
  }

  /** Every quote held, in the order the symbols were first seen. */
  all(): Quote[] {
    return [...this.#held.values()].map((h) => h.quote);
  }

  /** Number of symbols held. */
  get size(): number {
    return this.#held.size;
  }

  /** Forgets everything. */
  clear(): void {
    this.#held.clear();
  }
}
