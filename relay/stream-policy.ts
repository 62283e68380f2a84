/**
 * How the relay judges its upstream stream connections (DESIGN.md §7.1): what counts as a failure,
 * and how often a stream may be opened.
 *
 * - A connection that ends within {@link SHORT_LIVED_MS} of opening is a failure, whatever it
 *   delivered first (a stream that ends after each snapshot, with `retry: 0`, made 24 opens in 2 s
 *   and spent the minute, since each snapshot reset the reader's own count).
 * - A connection with no readable event (a quote or quotes event that parses) for most of the
 *   stale window is replaced (before its data turns stale, so a quiet market's fresh snapshot
 *   comes in time): bytes and heartbeats prove the connection, not the data (an upstream trickling one
 *   byte a second inside an unfinished event, or sending heartbeats only, missed every change).
 *   One that never delivered an event is a failure too.
 * - Every open after the first waits for the budget's reopen gap (the minute share, and the part
 *   of the day share the poll leaves), so a stream that keeps ending cannot spend the day.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Budget } from './budget';
import type { FetchLike, PriceBoardError } from './from-src';

/** A connection that ends sooner than this after opening counts as a failure. */
export const SHORT_LIVED_MS = 60_000;
/** Failed connections in a row after which the relay polls and tries the stream again with backoff. */
export const GIVE_UP_AFTER = 3;

export interface StreamPolicyOptions {
  budget: Budget;
  now: () => number;
  /** No readable event for this long: the connection is replaced. */
  readableMs: () => number;
  /** A connection proved itself (a minute open): the relay's own retry backoff starts over. */
  onStable: () => void;
}

/** One stream's watch: told when a connection opens and reads, it says when the stream has read nothing for too long. */
export class StreamWatch {
  #openedAt = 0;
  #readAt = 0;
  #timer: NodeJS.Timeout | undefined;

  readonly #policy: StreamPolicy;
  readonly #onUnreadable: (delivered: boolean) => void;

  constructor(policy: StreamPolicy, onUnreadable: (delivered: boolean) => void) {
    this.#policy = policy;
    this.#onUnreadable = onUnreadable;
  }

  /** A connection opened (2xx event stream). */
  opened(): void {
    this.#openedAt = this.#policy.now();
    this.#arm();
  }

  /** A readable event came. */
  read(): void {
    this.#readAt = this.#policy.now();
    // A minute of a working connection ends a streak of failures.
    if (this.#readAt - this.#openedAt >= SHORT_LIVED_MS) this.#policy.stable();
    this.#arm();
  }

  /** The connection ended with `error`: counts it; whether the relay should take over (poll, retry later). */
  ended(error: PriceBoardError, opened: boolean): boolean {
    this.stop();
    const lived = opened ? this.#policy.now() - this.#openedAt : 0;
    if (lived >= SHORT_LIVED_MS) this.#policy.stable();
    // A 429 (the gate's or the service's) is a pause, already waited for.
    else if (error.code !== 'rate_limited') this.#policy.streak += 1;
    return this.#policy.streak >= GIVE_UP_AFTER;
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(): void {
    this.stop();
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const delivered = this.#readAt >= this.#openedAt && this.#readAt > 0;
      if (!delivered) this.#policy.streak += 1;
      this.#onUnreadable(delivered);
    }, this.#policy.readableMs());
    this.#timer.unref();
  }
}

export class StreamPolicy {
  /** Failed connections in a row (short-lived, or with nothing readable). */
  streak = 0;
  #lastOpenAt = -Infinity;

  readonly #options: StreamPolicyOptions;

  constructor(options: StreamPolicyOptions) {
    this.#options = options;
  }

  now(): number {
    return this.#options.now();
  }

  stable(): void {
    this.streak = 0;
    this.#options.onStable();
  }

  readableMs(): number {
    return this.#options.readableMs();
  }

  watch(onUnreadable: (delivered: boolean) => void): StreamWatch {
    return new StreamWatch(this, onUnreadable);
  }

  /** Whether the streak says the stream should wait for the relay's retry (it polls meanwhile). */
  get failing(): boolean {
    return this.streak >= GIVE_UP_AFTER;
  }

  /**
   * `fetch` whose stream opens are at least the budget's reopen gap apart (the first goes at
   * once). With `wait` false (a stream for symbols just asked for, bounded by the resubscribe
   * window) it goes at once, and still counts as the last open.
   */
  paced(fetch: FetchLike, wait = true): FetchLike {
    return async (input, init) => {
      const gap = wait ? this.#lastOpenAt + this.#options.budget.reopenGapMs() - this.now() : 0;
      // A closed stream's wait ends with it (the rejection is its abort).
      if (gap > 0) await sleep(gap, undefined, { signal: init.signal ?? undefined });
      this.#lastOpenAt = this.now();
      return fetch(input, init);
    };
  }
}
