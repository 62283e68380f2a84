/**
 * What keeps a hub's quotes coming: `/v1/prices` with retries (`QuoteFetcher` over `PriceClient`)
 * and the stream or the poller (`Transport`). The hub tells it what to follow and takes what it
 * learns as typed events ({@link DriverEvent}) into one `ingest`. It holds no quote: the hub's
 * store does.
 *
 * Loaded with the hub, not as a chunk of its own. Measured with `npm run build` (2026-11-26, gzip
 * -9, what a chart-less board loads at start): 29,728 B with the driver in the initial module,
 * 29,701 B with it a lazy chunk, before the code a lazy driver needs so that the first
 * `/v1/prices` request does not wait for it (a request sent ahead and handed over). As small, and
 * the first request simply never waits for a chunk.
 */
import type { BackoffOptions } from '../api/backoff';
import { PriceClient, type RetryOptions } from '../api/client';
import type { FetchLike } from '../api/request';
import type { PricesOutcome } from '../api/unknown-symbols';
import type { StreamMode } from '../shared/attribute-table';
import type { PriceBoardError } from '../shared/errors';
import type { Quote } from '../shared/types';
import { clampPollMs } from './policy';
import { QuoteFetcher } from './quote-fetcher';
import { RateLimit } from './rate-limit';
import { Transport, type TransportState } from './transport';
import type { VisibilitySource } from './visibility';

/** What a driver learns, as the hub takes it. */
export type DriverEvent =
  /** A `/v1/prices` answer (a fetch or a poll), with the ids it left out or the service rejected. */
  | { kind: 'prices'; outcome: PricesOutcome }
  /** Quotes from the stream; `at` of a snapshot. */
  | { kind: 'stream'; quotes: Quote[]; at: string | undefined }
  /** The stream or the poller changed state. */
  | { kind: 'state'; state: TransportState }
  /** A failure that will be tried again (`connectFailed`: a connection could not even be made). */
  | { kind: 'failure'; error: PriceBoardError; source: 'stream' | 'poll'; connectFailed: boolean }
  /** A final failure of the stream or the poller: it has stopped. */
  | { kind: 'stopped'; error: PriceBoardError }
  /** The stream rejected these ids as unknown. */
  | { kind: 'unknown'; symbols: string[] };

/** What a driver asks of its hub. */
export interface DriverHost {
  /** Every symbol followed (the subscribers' union), without rejected ones. */
  symbols(): string[];
  /** Whether `symbol` needs no fetch: a quote is held, or the service is known to leave it out. */
  settled(symbol: string): boolean;
  ingest(event: DriverEvent): void;
}

/** A connection's settings, with the tests' and other runtimes' hooks (`HubOptions`). */
export interface DriverConfig {
  baseUrl: string;
  apiKey?: string;
  mode: StreamMode;
  streamUrl: string;
  fetch?: FetchLike;
  visibility?: VisibilitySource;
  timeoutMs?: number;
  retry?: RetryOptions;
  watchdogMs?: number;
  sseRetryMs?: number;
  fetchRetry?: BackoffOptions;
}

/** The one interface between a hub and what brings its quotes. */
export interface Driver {
  /** Fetches now, in one request, the symbols that are not settled (new subscribers, added ids). */
  fetchUnsettled(): void;
  /** Opens or re-points the stream or the poller: `symbols` (the union), polled every `pollMs`. */
  follow(symbols: string[], pollMs: number): void;
  /** Re-fetches every symbol now (shared by concurrent callers; skipped during a `Retry-After`). */
  refresh(): Promise<void>;
  /** The browser is online again: reconnect, poll and fetch now rather than after a backoff. */
  online(): void;
  /** Stops every request and timer, for good. */
  stop(): void;
}

/** The driver of one hub. `stream="off"`: prices only, on request. */
export function createDriver(config: DriverConfig, host: DriverHost): Driver {
  const stopper = new AbortController();
  // The service's `Retry-After`, for the fetcher, the poller and the stream alike.
  const rateLimit = new RateLimit();
  let transport: Transport | undefined;
  const failure = (error: PriceBoardError, source: 'stream' | 'poll', connectFailed: boolean): void => {
    rateLimit.note(error);
    host.ingest({ kind: 'failure', error, source, connectFailed });
  };
  // Its options are the driver's own: address, key, fetch, timeout and retry.
  const client = new PriceClient(config);
  const fetcher = new QuoteFetcher(
    client,
    {
      symbols: () => host.symbols(),
      settled: (symbol) => host.settled(symbol),
      received: (outcome) => host.ingest({ kind: 'prices', outcome }),
      failed: (error) => failure(error, 'poll', true),
      // The transport follows the union: its reconnects or polls bring the symbols.
      covered: () => transport !== undefined,
    },
    stopper.signal,
    rateLimit,
    config.fetchRetry,
  );
  if (config.mode !== 'off') {
    transport = new Transport(
      // The driver's own mode, addresses, key, fetch, watchdog, visibility and SSE retry.
      { ...config, pollMs: clampPollMs(NaN), quotes: fetcher, rateLimit },
      {
        streamQuotes: (quotes, at) => host.ingest({ kind: 'stream', quotes, at }),
        state: (state) => host.ingest({ kind: 'state', state }),
        failure,
        stopped: (error) => host.ingest({ kind: 'stopped', error }),
        unknownSymbols: (symbols) => host.ingest({ kind: 'unknown', symbols }),
      },
    );
  }
  const refresh = (): Promise<void> =>
    stopper.signal.aborted ? Promise.resolve() : (transport?.pollNow() ?? fetcher.refresh());
  // Back from the back/forward cache: its prices are as old as its stay there. (The options are
  // `stopper`, for its signal: stopping ends the listener.)
  globalThis.addEventListener?.('pageshow', (event) => event.persisted && refresh(), stopper);
  return {
    fetchUnsettled: () => fetcher.fetchUnsettled(),
    follow(symbols, pollMs) {
      if (stopper.signal.aborted) return;
      transport?.setPollInterval(pollMs);
      transport?.setSymbols(symbols);
    },
    refresh,
    online() {
      if (stopper.signal.aborted) return;
      transport?.kick();
      fetcher.fetchUnsettled();
    },
    stop() {
      stopper.abort();
      transport?.close();
    },
  };
}
