/**
 * The shared hub of one (baseUrl, apiKey, stream, streamUrl): one quote store, one stream or
 * poller, one prices request per tick for the union of its subscribers' symbols.
 */
import type { BackoffOptions } from '../api/backoff';
import { PriceClient, type RetryOptions } from '../api/client';
import { endsRetries, PriceBoardError } from '../shared/errors';
import type { FetchLike } from '../api/request';
import type { ConnectionStatus, Quote } from '../shared/types';
import type { PricesOutcome } from '../api/unknown-symbols';
import { QuoteStore } from '../model/quote-store';
import { HubStatus } from './hub-status';
import type { HubListener, QuotesMeta } from './hub-types';
import type { OnlineSource } from './online';
import { soon } from './page-ready';
import { clampPollMs, isNetworkFailure } from './policy';
import { QuoteFetcher, type FirstAttempt } from './quote-fetcher';
import { Subscriber } from './subscriber';
// Ids as SERVICE-SPEC 2.3 spells them (SYMBOL_ID): anything else is treated as unknown without
// asking, as one malformed id would make the service reject (400) every board's request.
import { SYMBOL_ID, type StreamMode } from '../shared/attributes';
import { RateLimit } from './rate-limit';
import type { Transport, TransportState } from './transport';
import type { VisibilitySource } from './visibility';

function unknownSymbolError(symbols: string[]): PriceBoardError {
  return new PriceBoardError('unknown_symbol', `Unknown symbols: ${symbols.join(', ')}`, {
    status: 404,
    data: { symbols },
  });
}

/** Everything a hub is built from (HubOptions with defaults resolved). */
export interface HubConfig {
  baseUrl: string;
  apiKey?: string;
  mode: StreamMode;
  streamUrl: string;
  fetch?: FetchLike;
  /** Default: the page's (`documentVisibility()`), resolved by the transport. */
  visibility?: VisibilitySource;
  online: OnlineSource;
  timeoutMs?: number;
  retry?: RetryOptions;
  watchdogMs?: number;
  sseRetryMs?: number;
  fetchRetry?: BackoffOptions;
}

/** One shared feed of quotes. */
export class PriceHub {
  readonly #onClosed: () => void;
  readonly #store = new QuoteStore();
  readonly #subscribers = new Set<Subscriber>();
  readonly #fetcher: QuoteFetcher;
  /** The service's `Retry-After`, for the fetcher, the poller and the stream's failures alike. */
  readonly #rateLimit = new RateLimit();
  readonly #config: HubConfig;
  /** The stream or poller; undefined while its code loads (see `#loadTransport`). */
  #transport: Transport | undefined;
  #transportLoading = false;
  /** What the transport follows, kept for when it arrives. */
  #followed: string[] | undefined;
  #pollMs = clampPollMs(NaN);
  /** Aborted when the hub stops for good (closed, or a final error). */
  readonly #stopper = new AbortController();
  readonly #unknown = new Set<string>();
  readonly #omitted = new Set<string>();
  readonly #unwatchOnline: () => void;
  readonly #state: HubStatus;
  #meta: QuotesMeta = {};
  /** The status last delivered. */
  #status: ConnectionStatus = 'loading';
  #lastReported: string | undefined;
  #flushQueued = false;
  #ended = false;

  /** `first`: a prices request of the first subscribers' symbols, sent before the hub was made. */
  constructor(config: HubConfig, onClosed: () => void, first?: FirstAttempt) {
    this.#onClosed = onClosed;
    this.#state = new HubStatus(config.online);
    const client = new PriceClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      fetch: config.fetch,
      timeoutMs: config.timeoutMs,
      retry: config.retry,
    });
    this.#fetcher = new QuoteFetcher(
      client,
      {
        symbols: () => this.#union(),
        settled: (symbol) => this.#store.has(symbol) || this.#omitted.has(symbol),
        received: (outcome) => this.#received(outcome),
        failed: (error) => this.#failure(error, 'poll', true),
        // The transport follows the union (`#follow`): its reconnects or polls bring the symbols.
        covered: () => this.#transport !== undefined,
      },
      this.#stopper.signal,
      this.#rateLimit,
      config.fetchRetry,
      first,
    );
    this.#config = config;
    // stream="off": nothing follows the quotes after the first answer (refresh() asks again).
    // Otherwise the transport's import starts in the first flush, right after the prices request.
    if (config.mode === 'off') this.#state.transport = 'idle';
    this.#unwatchOnline = config.online.subscribe((online) => this.#onlineChanged(online));
  }

  /** Whether it was closed (its last subscriber left). */
  get closed(): boolean {
    return this.#ended;
  }

  /** Adds a subscriber; it gets the status, known quotes and missing symbols in a microtask. */
  add(symbols: string[], listener: HubListener, pollSeconds: number): Subscriber {
    const sub = new Subscriber(symbols, listener, pollSeconds);
    this.#subscribers.add(sub);
    this.#queueFlush();
    return sub;
  }

  /** Changes a subscriber's symbols. */
  update(sub: Subscriber, symbols: string[]): void {
    if (sub.closed) return;
    sub.setSymbols(symbols);
    this.#queueFlush();
  }

  /** Removes a subscriber; the hub closes when none is left by the end of the tick. */
  remove(sub: Subscriber): void {
    if (sub.closed) return;
    sub.closed = true;
    this.#subscribers.delete(sub);
    if (this.#subscribers.size > 0) {
      this.#queueFlush();
      return;
    }
    // Not at once: an element moved in the DOM unsubscribes and subscribes again in one tick.
    queueMicrotask(() => {
      if (this.#subscribers.size === 0) this.close();
    });
  }

  /**
   * Serves what was subscribed so far at once instead of in the queued microtask (nothing when no
   * flush is queued). The board calls it (through `flushSubscriptions`) once every board connected
   * in a task has subscribed, so the prices request leaves before their first render.
   */
  flushNow(): void {
    if (this.#flushQueued) this.#flush();
  }

  /** Re-fetches every symbol now (one request, shared); skipped during a `Retry-After`. */
  refresh(): Promise<void> {
    if (this.#stopper.signal.aborted) return Promise.resolve();
    return this.#transport?.pollNow() ?? this.#fetcher.refresh();
  }

  /** Stops everything and leaves the registry. */
  close(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#stop();
    this.#unwatchOnline();
    for (const sub of this.#subscribers) sub.closed = true;
    this.#subscribers.clear();
    this.#onClosed();
  }

  #stop(): void {
    this.#stopper.abort();
    this.#transport?.close();
  }

  /**
   * The transport's code (SSE, reconnects, polling) is a chunk of its own, out of the initial
   * module: its import starts in the hub's first flush, right after the first `/v1/prices`
   * request, and the stream opens as soon as it arrives. A failed import is tried again on the
   * next change of subscribers or when the browser comes back online.
   */
  #loadTransport(): void {
    if (this.#transport || this.#transportLoading || this.#stopper.signal.aborted) return;
    this.#transportLoading = true;
    import('./transport').then(
      ({ Transport }) => {
        this.#transportLoading = false;
        if (this.#stopper.signal.aborted) return;
        const c = this.#config;
        const transport = new Transport(
          {
            mode: c.mode,
            streamUrl: c.streamUrl,
            apiKey: c.apiKey,
            fetch: c.fetch,
            watchdogMs: c.watchdogMs,
            visibility: c.visibility,
            pollMs: this.#pollMs,
            sseRetryMs: c.sseRetryMs,
            quotes: this.#fetcher,
            rateLimit: this.#rateLimit,
          },
          {
            streamQuotes: (quotes, at) => this.#streamQuotes(quotes, at),
            state: (state) => this.#transportChanged(state),
            failure: (error, source, connectFailed) => this.#failure(error, source, connectFailed),
            stopped: (error) => this.#fail(error),
            unknownSymbols: (symbols) => this.#markUnknown(symbols),
          },
        );
        this.#transport = transport;
        if (this.#followed) transport.setSymbols(this.#followed);
      },
      (cause: unknown) => {
        this.#transportLoading = false;
        this.#failure(new PriceBoardError('network', 'Live updates failed to load', { cause }), 'stream', true);
      },
    );
  }

  /** The symbols the transport follows (kept until it has loaded). */
  #follow(symbols: string[]): void {
    this.#followed = symbols;
    this.#transport?.setSymbols(symbols);
  }

  #queueFlush(): void {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    // Everything subscribed in this tick (or, on a page loading several of our scripts, before
    // DOMContentLoaded) is served by one request and one stream.
    soon(() => this.flushNow());
  }

  #flush(): void {
    this.#flushQueued = false;
    if (this.#ended) return;
    const missing = this.#missingSymbols();
    const malformed = new Set<string>();
    for (const sub of this.#subscribers) {
      const pending = sub.takePending();
      if (!pending) continue;
      sub.status(this.#status);
      if (pending.first && this.#state.finalError) sub.error(this.#state.finalError);
      sub.quotes(
        pending.symbols.map((s) => this.#store.get(s)).filter((q): q is Quote => q !== undefined),
        this.#meta,
      );
      sub.missing(missing);
      // Ids already known to be unknown: this subscriber has not been told yet.
      const rejected = pending.symbols.filter((s) => this.#unknown.has(s));
      if (rejected.length > 0) sub.error(unknownSymbolError(rejected));
      for (const s of pending.symbols) if (!SYMBOL_ID.test(s) && !this.#unknown.has(s)) malformed.add(s);
    }
    if (malformed.size > 0) this.#markUnknown([...malformed]);
    if (this.#stopper.signal.aborted) return;
    this.#pollMs = Math.min(...[...this.#subscribers].map((s) => clampPollMs(s.pollSeconds * 1000)));
    this.#transport?.setPollInterval(this.#pollMs);
    this.#fetcher.fetchUnsettled();
    if (this.#config.mode !== 'off') this.#loadTransport();
    this.#follow(this.#union());
  }

  /** Every subscriber's symbols, in first-seen order, without those the service rejected. */
  #union(): string[] {
    const all = new Set<string>();
    for (const sub of this.#subscribers) for (const s of sub.symbols) if (!this.#unknown.has(s)) all.add(s);
    return [...all];
  }

  #missingSymbols(): Set<string> {
    return new Set([...this.#unknown, ...this.#omitted]);
  }

  #received({ data, unknown, missing }: PricesOutcome): void {
    if (this.#stopper.signal.aborted) return;
    if (data) this.#meta = { delaySeconds: data.delay_seconds, at: data.at };
    this.#succeeded();
    // A quote held (the stream's snapshot may come before or after this answer) wins over the
    // answer leaving the symbol out: either order ends with the quote shown, not missing.
    for (const s of missing) if (!unknown.includes(s) && !this.#store.has(s)) this.#omitted.add(s);
    this.#deliver(data?.quotes ?? []);
    this.#markUnknown(unknown);
  }

  #streamQuotes(quotes: Quote[], at: string | undefined): void {
    if (at) this.#meta = { ...this.#meta, at };
    this.#succeeded();
    this.#deliver(quotes);
  }

  /**
   * Applies quotes of subscribed symbols to the store and hands the applied ones to their
   * subscribers. Others are dropped unread: a service pushing ids nobody asked for must not grow
   * the store without bound.
   */
  #deliver(given: readonly Quote[]): void {
    const wanted = new Set(this.#union());
    const quotes = given.filter((q) => wanted.has(q.symbol));
    this.#state.hasData = true;
    const wasMissing = quotes.some((q) => this.#omitted.delete(q.symbol));
    const applied = this.#store.apply(quotes);
    if (applied.length > 0) for (const sub of this.#subscribers) sub.quotes(applied, this.#meta);
    if (wasMissing) this.#reportMissing();
    this.#updateStatus();
  }

  /** Ids the service rejected: never asked for again; their subscribers are told once. */
  #markUnknown(symbols: readonly string[]): void {
    const fresh = symbols.filter((s) => !this.#unknown.has(s));
    for (const s of fresh) this.#unknown.add(s);
    for (const s of symbols) this.#omitted.delete(s);
    this.#reportMissing();
    if (fresh.length === 0) return;
    for (const sub of this.#subscribers) {
      const mine = fresh.filter((s) => sub.wants(s));
      if (mine.length > 0) sub.error(unknownSymbolError(mine));
    }
    if (!this.#stopper.signal.aborted) this.#follow(this.#union());
  }

  #reportMissing(): void {
    const missing = this.#missingSymbols();
    for (const sub of this.#subscribers) sub.missing(missing);
  }

  #succeeded(): void {
    this.#state.reachable();
    if (this.#lastReported === undefined) return;
    // A transient error was reported: it is over, even if no quote changed (market closed).
    this.#lastReported = undefined;
    for (const sub of this.#subscribers) sub.recovered();
  }

  #transportChanged(state: TransportState): void {
    this.#state.transport = state;
    if (state === 'live') this.#succeeded();
    this.#updateStatus();
  }

  #failure(error: PriceBoardError, source: 'stream' | 'poll', connectFailed: boolean): void {
    if (this.#stopper.signal.aborted) return;
    if (endsRetries(error)) {
      this.#fail(error);
      return;
    }
    this.#rateLimit.note(error); // the one Retry-After record (a poller has noted its own already: same time)
    if (isNetworkFailure(error) && (source === 'poll' || connectFailed)) this.#state.networkFailed();
    this.#updateStatus();
    // A dropped stream shows as 'reconnecting' (or 'offline'); an event per attempt would be noise.
    if (source === 'stream' && isNetworkFailure(error)) return;
    if (error.code === this.#lastReported) return;
    this.#lastReported = error.code;
    for (const sub of this.#subscribers) sub.error(error);
  }

  /** A final error: stop every retry, tell everyone. */
  #fail(error: PriceBoardError): void {
    if (this.#state.finalError || this.#ended) return;
    this.#state.finalError = error;
    this.#stop();
    this.#updateStatus();
    for (const sub of this.#subscribers) sub.error(error);
  }

  #onlineChanged(online: boolean): void {
    if (this.#stopper.signal.aborted) return;
    if (online) {
      this.#state.reachable();
      this.#transport?.kick();
      if (this.#config.mode !== 'off') this.#loadTransport();
      this.#fetcher.fetchUnsettled();
    }
    this.#updateStatus();
  }

  #updateStatus(): void {
    const next = this.#state.value;
    if (next === this.#status) return;
    this.#status = next;
    for (const sub of this.#subscribers) sub.status(next);
  }
}
