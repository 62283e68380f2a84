/**
 * What the relay takes of the quotes upstream sends, by whatever path (the stream, a poll, a
 * stream's snapshot), before the engine numbers them (DESIGN.md §7.1): only ids it serves, nothing
 * holding the key, and dates that cannot block what comes later.
 *
 * A date far ahead (any year, any offset) is not the quote's time. Dated at its arrival, as the
 * engines would, it still blocked a genuine quote arriving later but dated a little earlier (a
 * delayed feed, a second's latency). So it is dated as the quote held for its symbol (a
 * correction of it: anything at or after that time wins); with nothing held, at its arrival, and
 * later genuine quotes dated before that are given that time until their own dates pass it.
 */
import { holdsKey } from './holds-key';
import { admitQuote, type Quote } from './from-src';

/** Per symbol: the time shown (as offered to the engine), and the newest genuine time among them. */
interface Dated {
  shown: number;
  genuine: number;
}

export interface Intake {
  kept: Quote[];
  /** Quotes of ids outside the catalog. */
  unknown: number;
  /** Quotes that held the key. */
  keyed: number;
}

export class QuoteIntake {
  readonly #dated = new Map<string, Dated>();
  readonly #apiKey: string;

  constructor(apiKey: string) {
    this.#apiKey = apiKey;
  }

  /** Forgets the dates offered (a new lead: the engine's state may be another's). */
  reset(): void {
    this.#dated.clear();
  }

  take(quotes: readonly Quote[], known: ReadonlySet<string>, receivedAt: number): Intake {
    const kept: Quote[] = [];
    let unknown = 0;
    let keyed = 0;
    for (const quote of quotes) {
      if (!known.has(quote.symbol)) unknown++;
      // Any field: a title or a unit is shown to visitors as much as a price.
      else if (holdsKey(JSON.stringify(quote), this.#apiKey)) keyed++;
      else kept.push(this.#date(quote, receivedAt));
    }
    return { kept, unknown, keyed };
  }

  /** `quote` with a date that cannot block a later genuine one (unreadable dates pass: the engine drops them). */
  #date(quote: Quote, receivedAt: number): Quote {
    const admitted = admitQuote(quote, receivedAt);
    if (!admitted) return quote;
    const held = this.#dated.get(quote.symbol);
    if (admitted.quote !== quote) {
      // Far ahead: admitQuote gave it a new date.
      if (held) return { ...quote, updated_at: new Date(held.shown).toISOString() };
      this.#dated.set(quote.symbol, { shown: receivedAt, genuine: -Infinity });
      return admitted.quote;
    }
    const time = admitted.time;
    if (!held || time >= held.shown) {
      this.#dated.set(quote.symbol, { shown: time, genuine: time });
      return quote;
    }
    // Older than a far-ahead quote's stand-in date, newer than any genuine one: it replaces it.
    if (time >= held.genuine) {
      held.genuine = time;
      return { ...quote, updated_at: new Date(held.shown).toISOString() };
    }
    return quote; // out of order: the engine keeps the newer one
  }
}
