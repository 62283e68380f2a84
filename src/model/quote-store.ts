/** The latest quote per symbol, merged by `updated_at` so that an older quote never wins. */
import type { Quote } from '../shared/types';

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

  /**
   * Merges `quotes`; returns the ones applied (one per symbol, the last applied, in first-seen
   * order). A quote with an unreadable `updated_at`, or not newer than the held one, is ignored:
   * equal times with other content are ignored too, since the one shown is as recent.
   */
  apply(quotes: readonly Quote[]): Quote[] {
    const applied = new Map<string, Quote>();
    for (const quote of quotes) {
      const time = Date.parse(quote.updated_at);
      if (Number.isNaN(time)) continue;
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
