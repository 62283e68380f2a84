/**
 * The upstream budget: at most `share` of the plan's per-minute and per-day requests, counted in a
 * BudgetStore (shared by a cluster). Quotes come before history: history and symbols may not use
 * the slots kept for the stream and the quote poll.
 */
import type { BudgetStore, Limits, Take } from './engine/types';

export type Priority = 'quotes' | 'other';

/** The share of the day's budget the quote poll may use (the rest: history, the catalog, stream retries). */
export const POLL_DAY_SHARE = 0.75;

/** Iran has kept +03:30 all year since 2022: the plan's day is the Tehran calendar day. */
const TEHRAN_OFFSET_MS = 3.5 * 60 * 60 * 1000;

export function tehranDay(now: number): string {
  return new Date(now + TEHRAN_OFFSET_MS).toISOString().slice(0, 10);
}

export class Budget {
  /** What the relay may spend: the plan's budgets times the share, rounded down. */
  readonly perMinute: number;
  readonly perDay: number | null;
  /** Slots per minute kept for quotes. */
  readonly reserve: number;

  readonly #store: BudgetStore;
  readonly #now: () => number;

  constructor(store: BudgetStore, plan: Limits, share: number, now: () => number = Date.now) {
    this.#store = store;
    this.#now = now;
    this.perMinute = Math.max(1, Math.floor(plan.perMinute * share));
    this.perDay = plan.perDay === null ? null : Math.max(1, Math.floor(plan.perDay * share));
    this.reserve = Math.min(this.perMinute - 1, Math.max(1, Math.floor(this.perMinute / 4)));
    store.setLimits?.({ perMinute: this.perMinute, perDay: this.perDay });
  }

  take(priority: Priority): Promise<Take> {
    const now = this.#now();
    const limits: Limits =
      priority === 'quotes'
        ? { perMinute: this.perMinute, perDay: this.perDay }
        : {
            perMinute: Math.max(1, this.perMinute - this.reserve),
            perDay: this.perDay === null ? null : Math.max(1, this.perDay - this.#dayReserve(this.perDay)),
          };
    return this.#store.take(now, tehranDay(now), limits);
  }

  /**
   * The day's slots kept for quotes: an hour of the minute's reserve, but never more than the
   * poll's part of the day is without it (a day share of 160 kept 360, so history and the catalog
   * were refused from the first request on).
   */
  #dayReserve(perDay: number): number {
    return Math.min(this.reserve * 60, Math.floor(perDay * (1 - POLL_DAY_SHARE)));
  }

  spent(): Promise<{ minute: number; day: number }> {
    const now = this.#now();
    return this.#store.spent(now, tehranDay(now));
  }

  /**
   * The quote poll's interval that stays within the budget: the minute share (with one slot of
   * slack) and the day share, so that polling all day lasts the day. Polls may use
   * {@link POLL_DAY_SHARE} of the day; the rest is kept for history, the catalog and retries of the stream.
   */
  pollIntervalMs(): number {
    const byMinute = Math.ceil(60_000 / Math.max(1, this.perMinute - 1));
    const byDay =
      this.perDay === null ? 0 : Math.ceil(86_400_000 / Math.max(1, Math.floor(this.perDay * POLL_DAY_SHARE)));
    return Math.max(2_000, byMinute, byDay);
  }

  /**
   * The least time between two upstream stream opens (reconnects, retries, a stream for more
   * symbols): the minute share, and the part of the day share the poll leaves, so a stream that
   * keeps ending cannot spend the day before it ends.
   */
  reopenGapMs(): number {
    const byMinute = Math.ceil(60_000 / this.perMinute);
    const byDay =
      this.perDay === null ? 0 : Math.ceil(86_400_000 / Math.max(1, Math.floor(this.perDay * (1 - POLL_DAY_SHARE))));
    return Math.max(byMinute, byDay);
  }
}
