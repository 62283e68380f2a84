/** The day's record of one process (`record.ts` says what it keeps; see `redis-record.ts` for a cluster's). */
import { barOf, mergeBars, RECORD_BARS, RECORD_MS, RECORD_SYMBOLS } from './record';
import type { DayRecord, RecordedBar, RelayEvent } from './types';

/** The record of one process: a Map kept in the order of the symbols' last change. */
export class MemoryRecord implements DayRecord {
  readonly #symbols = new Map<string, RecordedBar[]>();

  async add(events: readonly RelayEvent[]): Promise<void> {
    for (const event of events) {
      const bar = barOf(event);
      if (bar) this.put(event.quote.symbol, bar);
    }
  }

  /** Merges `bar` into the symbol's bars, within the bounds. */
  put(symbol: string, bar: RecordedBar): void {
    const bars = this.#symbols.get(symbol) ?? [];
    // Usually the last bar or a new one after it; an older change (a snapshot) goes in its place.
    let i = bars.length;
    while (i > 0 && bars[i - 1]!.t > bar.t) i--;
    if (bars[i - 1]?.t === bar.t) bars[i - 1] = mergeBars(bars[i - 1]!, bar);
    else bars.splice(i, 0, bar);
    const from = bars[bars.length - 1]!.t - RECORD_MS;
    let drop = 0;
    while (drop < bars.length && (bars[drop]!.t < from || bars.length - drop > RECORD_BARS)) drop++;
    bars.splice(0, drop);
    this.#symbols.delete(symbol);
    this.#symbols.set(symbol, bars);
    if (this.#symbols.size > RECORD_SYMBOLS) this.#symbols.delete(this.#symbols.keys().next().value!);
  }

  async bars(symbol: string, from: number): Promise<RecordedBar[]> {
    return (this.#symbols.get(symbol) ?? []).filter((b) => b.t >= from);
  }

  /** Every bar held, per symbol (a Redis that came back empty is given them). */
  entries(): [string, RecordedBar[]][] {
    return [...this.#symbols];
  }

  /** Bars held, all symbols together. */
  get size(): number {
    let n = 0;
    for (const bars of this.#symbols.values()) n += bars.length;
    return n;
  }
}
