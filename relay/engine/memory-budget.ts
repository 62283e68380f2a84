/** The upstream budget counters of one process (see `redis-budget.ts` for a cluster's). */
import type { BudgetStore, Limits, Take } from './types';

export class MemoryBudget implements BudgetStore {
  /** Times of the requests of the last 60 s, oldest first (at most the per-minute limit). */
  #stamps: number[] = [];
  #day = '';
  #dayCount = 0;

  async take(now: number, day: string, limits: Limits): Promise<Take> {
    this.#prune(now, day);
    if (this.#stamps.length >= limits.perMinute) {
      const frees = this.#stamps[this.#stamps.length - limits.perMinute]! + 60_000;
      return { ok: false, retryAfterMs: Math.max(1, frees - now) };
    }
    if (limits.perDay !== null && this.#dayCount >= limits.perDay) return { ok: false, retryAfterMs: 60 * 60_000 };
    this.#stamps.push(now);
    this.#dayCount += 1;
    return { ok: true };
  }

  async spent(now: number, day: string): Promise<{ minute: number; day: number }> {
    this.#prune(now, day);
    return { minute: this.#stamps.length, day: this.#dayCount };
  }

  #prune(now: number, day: string): void {
    const first = this.#stamps.findIndex((t) => t > now - 60_000);
    this.#stamps = first < 0 ? [] : this.#stamps.slice(first);
    if (day !== this.#day) {
      this.#day = day;
      this.#dayCount = 0;
    }
  }
}
