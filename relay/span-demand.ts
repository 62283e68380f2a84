/**
 * One policy of the history budget (DESIGN.md §7.1, history under a botnet): part of it is kept
 * for the spans visitors keep asking for. A miss of any other span starts no request once this
 * leader's history requests of the last minute reach the rest, so asks spread over every span (a
 * botnet's) cannot spend the slots that the spans in demand need.
 */

/** The part of the history minute budget kept for spans in demand. */
export const DEMAND_SHARE = 0.5;
/** A span is in demand when missed this many times as often as the average missed span (this minute and the last). */
export const DEMAND_FACTOR = 2;
const WINDOW_MS = 60_000;

export class SpanDemand {
  /** When this process's history requests of the last minute started (those the budget refused left out). */
  readonly #starts: number[] = [];
  /** Misses per history key (catalog symbol, span): bounded by the catalog. */
  #current = new Map<string, number>();
  #previous = new Map<string, number>();
  #currentAsks = 0;
  #previousAsks = 0;
  #windowStart = 0;

  readonly #historyPerMinute: number;
  readonly #now: () => number;

  /** `historyPerMinute`: the history requests the budget allows in a minute (Infinity: no budget). */
  constructor(historyPerMinute: number, now: () => number) {
    this.#historyPerMinute = historyPerMinute;
    this.#now = now;
  }

  /** A history key asked for and missed (not fresh in the cache). */
  missed(key: string): void {
    this.#roll();
    this.#current.set(key, (this.#current.get(key) ?? 0) + 1);
    this.#currentAsks += 1;
  }

  /**
   * Counts a history request for `key` as started, and returns when it started (to {@link refund}
   * it), or undefined when it may not start: the open part is spent and the span is not in demand.
   */
  start(key: string): number | undefined {
    const now = this.#now();
    while (this.#starts.length > 0 && this.#starts[0]! <= now - WINDOW_MS) this.#starts.shift();
    if (Number.isFinite(this.#historyPerMinute)) {
      const history = this.#historyPerMinute;
      const open = this.#starts.length < history - Math.floor(history * DEMAND_SHARE);
      if (!open && !this.#inDemand(key)) return undefined;
    }
    this.#starts.push(now);
    return now;
  }

  /** A request refused before it was sent (the budget, a pause): it spent nothing. */
  refund(started: number): void {
    const i = this.#starts.indexOf(started);
    if (i >= 0) this.#starts.splice(i, 1);
  }

  /** Whether `key` was missed at least `DEMAND_FACTOR` times as often as the average missed key. */
  #inDemand(key: string): boolean {
    this.#roll();
    const asks = (this.#current.get(key) ?? 0) + (this.#previous.get(key) ?? 0);
    const mean = (this.#currentAsks + this.#previousAsks) / Math.max(1, this.#current.size, this.#previous.size);
    return asks >= DEMAND_FACTOR * mean;
  }

  #roll(): void {
    const now = this.#now();
    if (now - this.#windowStart < WINDOW_MS) return;
    // A whole window passed without asks: the last one is empty too.
    const gap = now - this.#windowStart >= 2 * WINDOW_MS;
    this.#previous = gap ? new Map() : this.#current;
    this.#previousAsks = gap ? 0 : this.#currentAsks;
    this.#current = new Map();
    this.#currentAsks = 0;
    this.#windowStart = now;
  }
}
