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

/** What the fetcher needs from its hub. */
export interface FetcherHooks {
  /** Every symbol followed (the union), without rejected ones. */
  symbols(): string[];
  /** Whether `symbol` needs no fetch: a quote is held, or the service is known to leave it out. */
  settled(symbol: string): boolean;
  received(outcome: PricesOutcome): void;
  /** A fetch failed (it is tried again later unless the hub stops or `covered()`). */
  failed(error: PriceBoardError): void;
  /**
   * Whether the stream or the poller follows every symbol and will bring the unsettled ones (its
   * own reconnects and polls): then a failed fetch is not tried again on a loop of its own, which
   * would only add requests against the plan's rate limit.
   */
  covered(): boolean;
}

/** `/v1/prices` on behalf of one hub. */
export class QuoteFetcher {
  readonly #client: PriceClient;
  readonly #hooks: FetcherHooks;
  readonly #signal: AbortSignal;
  readonly #retry: BackoffOptions;
  readonly #fetching = new Set<string>();
  #unionFetch: Promise<void> | undefined;
  #retries = 0;
  #cancelRetry: (() => void) | undefined;
  #lastOk = 0;
  readonly #rateLimit: RateLimit;

  /**
   * `signal` aborts every fetch for good (the hub stopped); `rateLimit` is the hub's; `retry` paces
   * re-asking after a failure.
   */
  constructor(
    client: PriceClient,
    hooks: FetcherHooks,
    signal: AbortSignal,
    rateLimit: RateLimit,
    retry: BackoffOptions = FETCH_RETRY,
  ) {
    this.#client = client;
    this.#rateLimit = rateLimit;
    this.#hooks = hooks;
    this.#signal = signal;
    this.#retry = retry;
    signal.addEventListener('abort', () => this.#cancelRetry?.(), { once: true });
  }

  /** Time until one poll interval has passed since the last answer (a full one before any). */
  untilNextPoll(intervalMs: number): number {
    return this.#lastOk ? Math.max(0, this.#lastOk + intervalMs - Date.now()) : intervalMs;
  }

  /** Fetches the symbols that have no quote yet (new subscribers, added symbols). */
  fetchUnsettled(): void {
    if (this.#signal.aborted) return;
    const wanted = this.#hooks.symbols().filter((s) => !this.#hooks.settled(s) && !this.#fetching.has(s));
    if (wanted.length > 0) void this.#fetch(wanted);
  }

  /** Re-fetches every symbol now, shared by concurrent callers; skipped during a `Retry-After`. */
  refresh(): Promise<void> {
    const symbols = this.#hooks.symbols();
    if (this.#signal.aborted || this.#rateLimit.active || symbols.length === 0) return Promise.resolve();
    this.#unionFetch ??= this.#fetch(symbols).finally(() => {
      this.#unionFetch = undefined;
    });
    return this.#unionFetch;
  }

  /** One poll of every symbol; rejects on failure (the poller decides what comes next). */
  async poll(signal: AbortSignal): Promise<void> {
    const symbols = this.#hooks.symbols();
    if (symbols.length > 0) this.#succeeded(await pricesSkippingUnknown(this.#client, symbols, signal));
  }

  async #fetch(symbols: string[]): Promise<void> {
    for (const s of symbols) this.#fetching.add(s);
    try {
      this.#succeeded(await pricesSkippingUnknown(this.#client, symbols, this.#signal));
    } catch (error) {
      if (this.#signal.aborted) return;
      this.#hooks.failed(asPriceBoardError(error));
      this.#retryLater();
    } finally {
      for (const s of symbols) this.#fetching.delete(s);
    }
  }

  #succeeded(outcome: PricesOutcome): void {
    if (this.#signal.aborted) return;
    this.#lastOk = Date.now();
    this.#retries = 0;
    this.#hooks.received(outcome);
  }

  #retryLater(): void {
    if (this.#cancelRetry || this.#signal.aborted || this.#hooks.covered()) return;
    const delay = Math.max(backoffDelay(this.#retries++, this.#retry), this.#rateLimit.until - Date.now());
    this.#cancelRetry = startTimer(() => {
      this.#cancelRetry = undefined;
      if (!this.#hooks.covered()) this.fetchUnsettled();
    }, delay);
  }
}
