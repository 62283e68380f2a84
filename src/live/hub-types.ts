/** The contract between the hub and its subscribers (the path of a quote: docs/ARCHITECTURE.md). */
import type { PriceBoardError } from '../shared/errors';
import type { BackoffOptions } from '../api/backoff';
import type { PricesAttempt, RetryOptions } from '../api/client';
import type { FetchLike } from '../api/request';
import type { ConnectionStatus, PricesData, Quote } from '../shared/types';
import type { OnlineSource } from './online';
import type { StreamMode } from '../shared/attributes';
import type { VisibilitySource } from './visibility';

/** What a subscriber asks for. Subscribers with equal (baseUrl, apiKey, stream, streamUrl) share one hub. */
export interface HubOptions {
  baseUrl: string;
  apiKey?: string;
  stream: StreamMode;
  /** Default `${baseUrl}/v1/stream`. */
  streamUrl?: string;
  /** Seconds between polls when polling; the hub polls at the fastest subscriber's pace, never under 5 s. */
  pollInterval: number;
  // Optional hooks, mainly for tests and non-browser runtimes. A shared hub keeps the values of
  // the subscriber that created it.
  /** Replaces the global `fetch`. */
  fetch?: FetchLike;
  /** Page visibility (polling pauses while hidden); default `document.visibilityState`. */
  visibility?: VisibilitySource;
  /** Online state; default `navigator.onLine` and its events. */
  online?: OnlineSource;
  /** Request timeout; default 10 s. */
  timeoutMs?: number;
  /** Client retries of network errors and 5xx. */
  retry?: RetryOptions;
  /** Stream silence taken as a dead connection; default 45 s. */
  watchdogMs?: number;
  /** `auto`: wait before trying SSE again after falling back to polling; default 5 min. */
  sseRetryMs?: number;
  /** Backoff of re-asking for quotes a failed fetch did not get; default `{ baseMs: 2000, maxMs: 60000 }`. */
  fetchRetry?: BackoffOptions;
}

/** Meta data delivered with quotes. */
export interface QuotesMeta {
  /** `delay_seconds` of the last `/v1/prices` answer. */
  delaySeconds?: number;
  /** Time of the last answer or stream snapshot. */
  at?: string;
}

/** A subscriber's callbacks. None is called after `close()`. */
export interface HubListener {
  /** Applied quotes (newer than any seen before) of my symbols; known ones arrive right after subscribing. */
  quotes(quotes: Quote[], meta: QuotesMeta): void;
  /** The connection state, at once after subscribing and on every change. */
  status(status: ConnectionStatus): void;
  /**
   * A failure, `messageFa` for people. A final one (401, 403...) stops the hub: status `error`.
   * `unknown_symbol` (with `data.symbols`, mine only) is per symbol and does not stop anything.
   */
  error(error: PriceBoardError): void;
  /**
   * Requested symbols the service did not return / rejected: the full current list of mine
   * (`[]` when none is missing any more), called whenever it changes.
   */
  missing(symbols: string[]): void;
  /**
   * The service answers again after a (non-final) error was reported: a prices request succeeded,
   * the stream opened or delivered a valid event. Called once per recovery, quotes or not (with
   * the market closed nothing changes), so a transient error can be cleared on it.
   */
  recovered?(): void;
}

/** A subscriber's handle. */
export interface Subscription {
  /** Re-subscribe (union re-computed; stream reopened only if it grows). */
  setSymbols(symbols: string[]): void;
  /** Re-fetch quotes now (shared by every subscriber of the hub). */
  refresh(): Promise<void>;
  /** Last one out closes the connection and timers. */
  close(): void;
}

/**
 * A subscription made before the hubs' chunk loaded (`hub.ts`), handed to its hub as the chunk
 * loads (`hubs.ts`, `adopt`).
 */
export interface EarlySubscription {
  options: HubOptions;
  symbols: string[];
  listener: HubListener;
  /** Quotes shown from the first answer, not yet delivered again by the hub (the same objects). */
  shown: Set<Quote>;
  /** The hub's subscription, once handed over. */
  inner?: Subscription;
}

/** The early subscriptions of one connection, and their first request. */
export interface EarlyGroup {
  connection: Connection;
  members: Set<EarlySubscription>;
  first?: FirstPrices;
  /** Its first request is still to be sent (in a microtask, or at `DOMContentLoaded`). */
  queued: boolean;
}

/** The connection part of a subscriber's options, resolved (`connectionOf`, connection.ts). */
export interface Connection {
  baseUrl: string;
  apiKey: string | undefined;
  mode: StreamMode;
  streamUrl: string;
  /** Equal for subscribers that share a hub: (baseUrl, apiKey, mode, streamUrl). */
  key: string;
}

/** A hub's first `/v1/prices` request, sent before the hub's code has loaded (first-prices.ts). */
export interface FirstPrices {
  /** The ids asked for. */
  symbols: string[];
  /** The validated answer. */
  answer: Promise<PricesData>;
  /** The answer as the hub's first attempt: aborting `signal` aborts the request. */
  attempt: PricesAttempt;
  /** Aborts the request (nobody is left to take its answer). */
  abort(): void;
}
