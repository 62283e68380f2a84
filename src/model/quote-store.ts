/** The latest quote per symbol, merged by `updated_at` so that an older quote never wins. */
import type { Quote } from '../shared/types';

/**
 * How far ahead of our clock a quote's `updated_at` may be (clocks differ a little). A quote
 * dated further ahead (a service bug, or the year 2999) would win every comparison for ever and
 * freeze its row: it is applied as received now (`updated_at` replaced by the receipt time), so
 * later quotes still win and the row goes stale like any other.
 */
export const FUTURE_SKEW_MS = 5 * 60_000;

/** RFC 3339 date-time as the service writes it (`Date.parse` alone also reads "Thu, 1 Jan" and "2026"). */
const ISO_DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:\d\d)$/i;

/**
 * A quote as it may be held, and its instant: undefined when `updated_at` is not an RFC 3339
 * date-time (dropped, never passed on); dated now when it is more than {@link FUTURE_SKEW_MS} ahead.
 */
export function admitQuote(quote: Quote, now: number): { quote: Quote; time: number } | undefined {
  const time = ISO_DATE_TIME.test(quote.updated_at) ? Date.parse(quote.updated_at) : Number.NaN;
  if (Number.isNaN(time)) return undefined;
  if (time <= now + FUTURE_SKEW_MS) return { quote, time };
  return { quote: { ...quote, updated_at: new Date(now).toISOString() }, time: now };
}

/** Same content, field by field (a quote is flat: strings only). */
function sameQuote(a: Quote, b: Quote): boolean {
  const keys = Object.keys(a) as (keyof Quote)[];
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

interface Held {
  quote: Quote;
  time: number;
}

/**
 * Quotes by symbol. Polls, stream snapshots and stream events overlap and may arrive out of
 * order; `apply` keeps a quote when its `updated_at` is newer than the one held, or equal with
 * other content: the service's correction of that quote (DESIGN.md §7.1, §12).
 */
export class QuoteStore {
  readonly #held = new Map<string, Held>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * Merges `quotes`; returns the ones applied (one per symbol, the last applied, in first-seen
   * order). A quote older than the held one, or the same, is ignored; one with an unreadable
   * `updated_at` is dropped; see {@link admitQuote} for dates from the future.
   */
  apply(quotes: readonly Quote[]): Quote[] {
    const applied = new Map<string, Quote>();
    const now = this.#now();
    for (const given of quotes) {
      const admitted = admitQuote(given, now);
      if (!admitted) continue;
      const current = this.#held.get(admitted.quote.symbol);
      if (
        current &&
        (admitted.time < current.time || (admitted.time === current.time && sameQuote(admitted.quote, current.quote)))
      )
        continue;
      this.#held.set(admitted.quote.symbol, admitted);
      applied.set(admitted.quote.symbol, admitted.quote);
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
}
