/** The quotes of one process and its resume buffer (see `redis-state.ts` for a cluster's). */
import { QuoteStore, type Quote } from '../from-src';
import type { QuoteState, RelayEvent } from './types';

export class MemoryQuoteState implements QuoteState {
  readonly #store = new QuoteStore();
  readonly #ring: RelayEvent[] = [];
  #seq = 0;

  readonly #bufferSize: number;

  constructor(bufferSize = 1_000) {
    this.#bufferSize = bufferSize;
  }

  async apply(quotes: readonly Quote[], receivedAt: number): Promise<RelayEvent[]> {
    const events = this.#store.apply(quotes).map((quote) => ({ id: ++this.#seq, quote, receivedAt }));
    this.#ring.push(...events);
    if (this.#ring.length > this.#bufferSize) this.#ring.splice(0, this.#ring.length - this.#bufferSize);
    return events;
  }

  async snapshot(symbols: readonly string[]): Promise<{ id: number; quotes: Quote[] }> {
    const quotes = symbols.map((s) => this.#store.get(s)).filter((q): q is Quote => q !== undefined);
    return { id: this.#seq, quotes };
  }

  async since(lastId: number, symbols: ReadonlySet<string>): Promise<RelayEvent[] | undefined> {
    const oldest = this.#ring[0]?.id ?? this.#seq + 1;
    if (!Number.isSafeInteger(lastId) || lastId > this.#seq || lastId < oldest - 1) return undefined;
    return this.#ring.filter((e) => e.id > lastId && symbols.has(e.quote.symbol));
  }
}
