/**
 * The hub's `/v1/prices` requests: symbols nobody has quotes for are fetched at once (one request
 * for all of them), a failed fetch is tried again with backoff unless the stream or the poller
 * follows those symbols anyway, `refresh` is shared, and nothing goes out while a `Retry-After`
 * runs.
 */
import { backoffDelay, type BackoffOptions } from '../api/backoff';
import type { PriceClient } from '../api/client';
import type { PriceBoardError } from '../shared/errors';
import { startTimer } from '../api/timer';
import { pricesSkippingUnknown, type PricesOutcome } from '../api/unknown-symbols';
import { asPriceBoardError } from './policy';
import type { RateLimit } from './rate-limit';

/** Re-asking for quotes a failed fetch did not get (the client already retried quickly). */
export const FETCH_RETRY: Readonly<BackoffOptions> = { baseMs: 2_000, maxMs: 60_000 };

/** What the fetcher learns (its driver passes it on to the hub as it is: `DriverEvent`). */
export type FetchEvent =
  /** A `/v1/prices` answer (a fetch or a poll), with the ids it left out or the service rejected. */
  | { kind: 'prices'; outcome: PricesOutcome }
  /** A fetch failed: it could not get the symbols' first quotes. */
  | { kind: 'failure'; error: PriceBoardError; source: 'poll'; connectFailed: true }
  /**
   * A failed fetch's backoff has passed and nothing else follows the symbols (stream="off"): the
   * hub asks again ({@link QuoteFetcher.fetch}) for those still without a quote.
   */
  | { kind: 'retry' };

/** `/v1/prices` on behalf of one hub. */
export class QuoteFetcher {
  readonly #client: PriceClient;
  readonly #emit: (event: FetchEvent) => void;
  readonly #covered: boolean;
  readonly #signal: AbortSignal;
  readonly #retry: BackoffOptions;
  readonly #fetching = new Set<string>();
  #unionFetch: Promise<void> | undefined;
  #retries = 0;
  #cancelRetry: (() => void) | undefined;
  #lastOk = 0;
  readonly #rateLimit: RateLimit;

  /**
   * `signal` aborts every fetch for good (the hub stopped); `rateLimit` is the hub's; `covered`:
   * the stream or the poller follows every symbol and brings what a failed fetch did not (its own
   * reconnects and polls), so a failed fetch is not tried again on a loop of its own, which would
   * only add requests against the plan's rate limit; `retry` paces re-asking otherwise.
   */
  constructor(
    client: PriceClient,
    emit: (event: FetchEvent) => void,
    signal: AbortSignal,
    rateLimit: RateLimit,
    covered: boolean,
    retry: BackoffOptions = FETCH_RETRY,
  ) {
    this.#client = client;
    this.#rateLimit = rateLimit;
    this.#emit = emit;
    this.#covered = covered;
    this.#signal = signal;
    this.#retry = retry;
    signal.addEventListener('abort', () => this.#cancelRetry?.(), { once: true });
  }

  /** Time until one poll interval has passed since the last answer (a full one before any). */
  untilNextPoll(intervalMs: number): number {
    return this.#lastOk ? Math.max(0, this.#lastOk + intervalMs - Date.now()) : intervalMs;
  }

  /** Fetches now, in one request, those of `symbols` (that have no quote yet) not being fetched already. */
  fetch(symbols: readonly string[]): void {
    if (this.#signal.aborted) return;
    const wanted = symbols.filter((s) => !this.#fetching.has(s));
    if (wanted.length > 0) void this.#fetch(wanted);
  }

  /** Re-fetches every symbol now, shared by concurrent callers; skipped during a `Retry-After`. */
  refresh(symbols: string[]): Promise<void> {
    if (this.#signal.aborted || this.#rateLimit.active || symbols.length === 0) return Promise.resolve();
    this.#unionFetch ??= this.#fetch(symbols).finally(() => {
      this.#unionFetch = undefined;
    });
    return this.#unionFetch;
  }

  /** One poll of every symbol; rejects on failure (the poller decides what comes next). */
  async poll(symbols: string[], signal: AbortSignal): Promise<void> {
    if (symbols.length > 0) this.#succeeded(await pricesSkippingUnknown(this.#client, symbols, signal));
  }

  async #fetch(symbols: string[]): Promise<void> {
    for (const s of symbols) this.#fetching.add(s);
    try {
      this.#succeeded(await pricesSkippingUnknown(this.#client, symbols, this.#signal));
    } catch (error) {
      if (this.#signal.aborted) return;
      this.#emit({ kind: 'failure', error: asPriceBoardError(error), source: 'poll', connectFailed: true });
      this.#retryLater();
    } finally {
      for (const s of symbols) this.#fetching.delete(s);
    }
  }

  #succeeded(outcome: PricesOutcome): void {
    if (this.#signal.aborted) return;
    this.#lastOk = Date.now();
    this.#retries = 0;
    this.#emit({ kind: 'prices', outcome });
  }

  #retryLater(): void {
    if (this.#cancelRetry || this.#signal.aborted || this.#covered) return;
    const delay = Math.max(backoffDelay(this.#retries++, this.#retry), this.#rateLimit.until - Date.now());
    this.#cancelRetry = startTimer(() => {
      this.#cancelRetry = undefined;
      this.#emit({ kind: 'retry' });
    }, delay);
  }
}
