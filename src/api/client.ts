/** The HTTP client of the price service (SERVICE-SPEC §4): validated, shared, retried. */
import { backoffDelay, sleep, type BackoffOptions } from './backoff';
import { isRetried } from '../shared/errors';
import { DEFAULT_TIMEOUT_MS, getJson, globalFetch, type FetchLike, type RequestContext } from './request';
import { SharedRequests } from './shared-requests';
import type { PricesData } from '../shared/types';
import { endpointUrl, symbolsQuery } from './urls';
import { parsePricesBody } from './validate';

/** Retries of network errors and 5xx: `retries` more attempts, capped exponential backoff, full jitter. */
export interface RetryOptions extends BackoffOptions {
  retries: number;
}

/** Options of {@link PriceClient}. */
export interface PriceClientOptions {
  /** Service address; `/v1/...` is appended. */
  baseUrl: string;
  /** Sent only as the `X-API-Key` header. */
  apiKey?: string;
  /** Per attempt, headers and body together. Default 10 s. */
  timeoutMs?: number;
  /** Replaces the global `fetch`. */
  fetch?: FetchLike;
  /** Default `{ retries: 2, baseMs: 500, maxMs: 5000 }`. */
  retry?: RetryOptions;
  /** Source of jitter (tests). */
  random?: () => number;
}

export { DEFAULT_TIMEOUT_MS };
/** Default retry policy for network errors and 5xx. */
export const DEFAULT_RETRY: Readonly<RetryOptions> = { retries: 2, baseMs: 500, maxMs: 5_000 };

/**
 * Client of `/v1/prices` and `/v1/history/{symbol}` (`/v1/symbols`: `fetchSymbols` in `./symbols`).
 * All failures are `PriceBoardError`s, except a caller's abort, which rejects with the signal's
 * reason (an AbortError). Identical requests in flight (same URL and key) share one HTTP request.
 */
export class PriceClient {
  readonly baseUrl: string;
  readonly #ctx: RequestContext;
  readonly #retry: RetryOptions;
  readonly #random: () => number;
  readonly #shared = new SharedRequests();

  constructor(options: PriceClientOptions) {
    this.baseUrl = options.baseUrl;
    this.#ctx = {
      fetch: options.fetch ?? globalFetch,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    };
    this.#retry = options.retry ?? DEFAULT_RETRY;
    this.#random = options.random ?? Math.random;
  }

  /** Current quotes of `symbols` (in that order), validated all-or-nothing. */
  prices(symbols: readonly string[], signal?: AbortSignal): Promise<PricesData> {
    return this.#get(endpointUrl(this.baseUrl, '/v1/prices', symbolsQuery(symbols)), parsePricesBody, signal);
  }

  /** The parsed JSON body of the history of `symbol` over `days`; `model/history` normalises it. */
  history(symbol: string, days: number, signal?: AbortSignal): Promise<unknown> {
    const path = `/v1/history/${encodeURIComponent(symbol)}`;
    return this.#get(endpointUrl(this.baseUrl, path, `days=${Math.trunc(days)}`), (body) => body, signal);
  }

  #get<T>(url: URL, parse: (body: unknown) => T, signal?: AbortSignal): Promise<T> {
    // The same URL with another key is another request: answers and errors differ per key.
    const key = `${url.href}\n${this.#ctx.apiKey ?? ''}`;
    return this.#shared.run(key, (shared) => this.#withRetries(url, parse, shared), signal);
  }

  /** Attempts until one succeeds or fails for good; a body that does not validate is not retried. */
  async #withRetries<T>(url: URL, parse: (body: unknown) => T, signal: AbortSignal): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return parse(await getJson(url, this.#ctx, signal));
      } catch (error) {
        if (!isRetried(error) || attempt >= this.#retry.retries) throw error;
        const wait = Math.max(backoffDelay(attempt, this.#retry, 'full', this.#random), error.retryAfterMs ?? 0);
        // A server asking for a long pause is the caller's to schedule, not ours to sit on.
        if (wait > this.#retry.maxMs) throw error;
        await sleep(wait, signal);
      }
    }
  }
}
