/**
 * What keeps a hub's quotes coming: `/v1/prices` with retries (`QuoteFetcher` over `PriceClient`)
 * and the stream, the poller, or nothing (`stream` attribute). The hub tells it what to follow and
 * takes what it learns as typed events ({@link DriverEvent}) into one `ingest`. It holds no quote:
 * the hub's store does.
 *
 * `auto` starts with SSE and falls back to polling when the failures suggest there is no stream
 * (404/405/501, a 2xx that is not an event stream, or {@link AUTO_FALLBACK_FAILURES} connections
 * in a row without a single event). While polling it tries SSE again: where the service said it
 * has no stream, after {@link SSE_RETRY_MS}; after an outage (the stream refused or unreachable),
 * after {@link OUTAGE_RETRY_MS}; each wait doubling up to {@link SSE_RETRY_CAP} times the first
 * (an outage: 10, 20, 40 s, then every minute, fewer tries than the stream's own reconnects
 * would make, and live again within a minute of the service's return). It tries at once when the
 * browser comes back online or a poll is answered after a failed one (the service is back); a try
 * that opens takes over from polling, one that fails just waits again. Polling says `polling` only
 * while its polls are answered: after a failed one it is `reconnecting`.
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
import type { StreamMode } from '../shared/attribute-table';
import { PriceBoardError } from '../shared/errors';
import { startTimer } from '../api/timer';
import type { Quote } from '../shared/types';
import type { Poller } from './poller';
import { clampPollMs, suggestsNoStream } from './policy';
import { QuoteFetcher, type FetchEvent } from './quote-fetcher';
import { RateLimit } from './rate-limit';
import { openStream, type SharingConfig } from './shared-stream';
import type { ResumePoint, Stream, StreamFailure, StreamState } from './stream';
import type { VisibilitySource } from './visibility';

/** What the driver is doing (the hub turns it into a `ConnectionStatus`). */
export type DriverState = 'connecting' | 'live' | 'reconnecting' | 'polling' | 'idle';

/** What a driver learns, as the hub takes it: the fetcher's events ({@link FetchEvent}) and these. */
export type DriverEvent =
  | FetchEvent
  /** Quotes from the stream; `at` of a snapshot. */
  | { kind: 'stream'; quotes: Quote[]; at: string | undefined }
  /** The stream or the poller changed state. */
  | { kind: 'state'; state: DriverState }
  /** A failure that will be tried again (`connectFailed`: a connection could not even be made). */
  | { kind: 'failure'; error: PriceBoardError; source: 'stream' | 'poll'; connectFailed: boolean }
  /** A final failure of the stream or the poller: it has stopped. */
  | { kind: 'stopped'; error: PriceBoardError }
  /** The stream rejected these ids as unknown. */
  | { kind: 'unknown'; symbols: string[] };

/** Failed connections in a row, without an event, after which `auto` polls instead. */
export const AUTO_FALLBACK_FAILURES = 3;
/** `auto`: first retry of SSE after falling back where the service has no stream (404...). */
export const SSE_RETRY_MS = 5 * 60_000;
/** `auto`: first retry of SSE after falling back in an outage (the stream refused or unreachable). */
export const OUTAGE_RETRY_MS = 10_000;
/** Retries of SSE double up to this many times the first (30 min, and 1 min in an outage). */
export const SSE_RETRY_CAP = 6;

/** A connection's settings, with the tests' and other runtimes' hooks (`HubOptions`). */
export interface DriverConfig extends SharingConfig {
  baseUrl: string;
  mode: StreamMode;
  fetch?: FetchLike;
  /** Polling pauses while the page is hidden; default the document's (`documentVisibility()`). */
  visibility?: VisibilitySource;
  timeoutMs?: number;
  retry?: RetryOptions;
  watchdogMs?: number;
  sseRetryMs?: number;
  fetchRetry?: BackoffOptions;
}

/** The driver of one hub: the one interface between it and what brings its quotes. `stream="off"`: prices only, on request. */
export class Driver {
  readonly #config: DriverConfig;
  readonly #listener: (event: DriverEvent) => void;
  readonly #stopper = new AbortController();
  /** The service's `Retry-After`, for the fetcher, the poller and the stream alike. */
  readonly #rateLimit = new RateLimit();
  readonly #fetcher: QuoteFetcher;
  #pollMs = clampPollMs(NaN);
  #symbols: string[] = [];
  #stream: Stream | undefined;
  #probing = false;
  #poller: Poller | undefined;
  /** Polling is on; the poller's chunk may still be loading (`ensurePoller`). */
  #polling = false;
  #cancelPollerRetry: (() => void) | undefined;
  #fellBack = false;
  #cancelRetry: (() => void) | undefined;
  /** SSE retries in a row that failed since falling back: the retry's backoff. */
  #failedProbes = 0;
  #current: DriverState | undefined;
  /** Where the first stream starts from: the event id of quotes already shown (the relay's render). */
  #resume: ResumePoint | undefined;

  /** `listener` hears every {@link DriverEvent} (the hub's `ingest`). */
  constructor(config: DriverConfig, listener: (event: DriverEvent) => void) {
    this.#config = config;
    this.#listener = listener;
    // Its options are the driver's own: address, key, fetch, timeout and retry.
    this.#fetcher = new QuoteFetcher(
      new PriceClient(config),
      (event) => this.#emit(event),
      this.#stopper.signal,
      this.#rateLimit,
      // The stream or the poller follows the union: its reconnects or polls bring the symbols.
      config.mode !== 'off',
      config.fetchRetry,
    );
    // Back from the back/forward cache: its prices are as old as its stay there. (The options are
    // `stopper`, for its signal: stopping ends the listener.)
    globalThis.addEventListener?.('pageshow', (event) => event.persisted && this.refresh(), this.#stopper);
  }

  get #closed(): boolean {
    return this.#stopper.signal.aborted;
  }

  /** The first stream resumes after `point` (quotes the page already holds) instead of sending a snapshot. */
  resumeFrom(point: ResumePoint): void {
    // A stream already open goes on from its own point (a second rendered board on the page).
    if (!this.#stream) this.#resume = point;
  }

  /** Fetches now, in one request, `symbols` (those without a quote: new subscribers, added ids). */
  fetch(symbols: readonly string[]): void {
    this.#fetcher.fetch(symbols);
  }

  /**
   * Follows `symbols` (the union): opens what the mode needs, polled every `pollMs`; reopens the
   * stream only for new ones.
   */
  follow(symbols: string[], pollMs: number): void {
    this.#symbols = [...symbols];
    if (this.#closed || this.#config.mode === 'off') return;
    this.#pollMs = pollMs;
    this.#poller?.setInterval(pollMs);
    if (symbols.length === 0) {
      this.#stopStream();
      this.#stopPoller();
      this.#setState('idle');
      return;
    }
    if (this.#config.mode === 'poll' || this.#fellBack) this.#ensurePoller();
    if (this.#config.mode === 'sse' || (this.#config.mode === 'auto' && !this.#fellBack)) this.#ensureStream(false);
    else this.#stream?.setSymbols(symbols); // a probe in flight
  }

  /** Re-fetches every symbol now (a poll when polling; shared by concurrent callers; skipped during a `Retry-After`). */
  refresh(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return this.#poller?.pollNow() ?? this.#fetcher.refresh(this.#symbols);
  }

  /** The browser is online again: reconnect, poll or retry SSE now rather than after a backoff. */
  online(): void {
    if (this.#closed) return;
    this.#stream?.reconnectNow();
    void this.#poller?.pollNow();
    this.#probeNow();
  }

  /** Stops every request and timer, for good. */
  stop(): void {
    this.#stopper.abort();
    this.#stopStream();
    this.#stopPoller();
    this.#cancelRetry?.();
    this.#cancelRetry = undefined;
  }

  #emit(event: DriverEvent): void {
    if (event.kind === 'failure') this.#rateLimit.note(event.error);
    this.#listener(event);
  }

  #setState(state: DriverState): void {
    if (state === this.#current) return;
    this.#current = state;
    this.#emit({ kind: 'state', state });
  }

  /**
   * Polling's code (`poller.ts`) is a chunk of its own, loaded when polling starts (stream="poll",
   * or `auto` without a stream): a board on a stream never needs it, and the first rows come from
   * the hub's own request either way (the first poll is one interval later). If it cannot load,
   * that is a failed poll: said as one, and tried again an interval later.
   */
  #ensurePoller(): void {
    if (this.#polling) return;
    this.#polling = true;
    if (!this.#probing) this.#setState('polling');
    import('./poller').then(
      ({ Poller }) => {
        if (!this.#polling || this.#poller) return;
        this.#poller = new Poller({
          intervalMs: this.#pollMs,
          visibility: this.#config.visibility,
          poll: (signal) => this.#fetcher.poll(this.#symbols, signal).then(() => this.#polled('polling')),
          rateLimit: this.#rateLimit,
          onEvent: ({ kind, error }) => {
            if (kind === 'stopped') return this.#fail(error);
            this.#polled('reconnecting');
            this.#emit({ kind: 'failure', error, source: 'poll', connectFailed: false });
          },
        });
        this.#poller.start(this.#fetcher.untilNextPoll(this.#poller.interval));
      },
      (cause: unknown) => {
        if (!this.#polling) return;
        const error = new PriceBoardError('network', 'The polling code failed to load', { cause });
        this.#emit({ kind: 'failure', error, source: 'poll', connectFailed: false });
        this.#cancelPollerRetry = startTimer(() => {
          this.#polling = false;
          this.#ensurePoller();
        }, this.#pollMs);
      },
    );
  }

  #ensureStream(probe: boolean): void {
    if (this.#stream && !this.#stream.closed) {
      this.#stream.setSymbols(this.#symbols);
      return;
    }
    this.#probing = probe;
    // Later streams go on from their own stream's point (or a snapshot), never from the page's.
    const resume = this.#resume;
    this.#resume = undefined;
    const stream = openStream(
      {
        url: this.#config.streamUrl,
        symbols: this.#symbols,
        apiKey: this.#config.apiKey,
        fetch: this.#config.fetch,
        watchdogMs: this.#config.watchdogMs,
        resume,
        giveUp: (error, failure) => this.#shouldGiveUp(error, failure),
        onEvent: (event) => {
          switch (event.kind) {
            case 'state':
              return this.#onStreamState(event.state);
            case 'quotes':
              return this.#emit({ kind: 'stream', quotes: event.quotes, at: event.at });
            case 'failure':
              return this.#emit({
                kind: 'failure',
                error: event.error,
                source: 'stream',
                connectFailed: !event.failure.opened,
              });
            case 'unknown':
              return this.#emit(event);
            case 'stopped':
              if (this.#stream === stream) this.#stream = undefined;
              if (event.gaveUp) this.#fallBack(event.error);
              else this.#fail(event.error);
          }
        },
      },
      this.#config,
    );
    this.#stream = stream;
    if (!probe) this.#setState('connecting');
    stream.start();
  }

  #shouldGiveUp(error: PriceBoardError, failure: StreamFailure): boolean {
    if (this.#config.mode !== 'auto') return false;
    // A retry of SSE while polling gets one chance: polling is doing the work meanwhile.
    if (this.#probing) return true;
    return suggestsNoStream(error) || failure.failures >= AUTO_FALLBACK_FAILURES;
  }

  #onStreamState(state: StreamState): void {
    if (state === 'open' && this.#probing) {
      // SSE works again: it takes over from polling.
      this.#probing = false;
      this.#fellBack = false;
      this.#failedProbes = 0;
      this.#stopPoller();
    }
    if (this.#probing || state === 'stopped') return;
    this.#setState(state === 'open' ? 'live' : state);
  }

  #fallBack(error: PriceBoardError): void {
    if (this.#closed) return;
    if (this.#probing) this.#failedProbes++;
    this.#probing = false;
    this.#fellBack = true;
    this.#ensurePoller();
    const first = suggestsNoStream(error) ? (this.#config.sseRetryMs ?? SSE_RETRY_MS) : OUTAGE_RETRY_MS;
    this.#cancelRetry?.();
    this.#cancelRetry = startTimer(
      () => {
        this.#cancelRetry = undefined;
        this.#startProbe();
      },
      first * Math.min(2 ** this.#failedProbes, SSE_RETRY_CAP),
    );
  }

  /**
   * A poll was answered (`polling`) or failed (`reconnecting`: a failing poll is not `polling`).
   * An answer after a failure means the service is back: try SSE now.
   */
  #polled(state: DriverState): void {
    if (!this.#polling || this.#probing) return; // SSE took over, or is being tried
    const back = state === 'polling' && this.#current === 'reconnecting';
    this.#setState(state);
    if (back) this.#probeNow();
  }

  /** Fallen back to polling: try SSE now rather than at the retry's time. */
  #probeNow(): void {
    if (!this.#fellBack || this.#stream) return;
    this.#cancelRetry?.();
    this.#cancelRetry = undefined;
    this.#startProbe();
  }

  #startProbe(): void {
    if (this.#closed || this.#symbols.length === 0) return;
    this.#ensureStream(true);
  }

  #fail(error: PriceBoardError): void {
    this.stop();
    this.#emit({ kind: 'stopped', error });
  }

  #stopStream(): void {
    this.#stream?.close();
    this.#stream = undefined;
    this.#probing = false;
  }

  #stopPoller(): void {
    this.#polling = false;
    this.#cancelPollerRetry?.();
    this.#poller?.stop();
    this.#poller = undefined;
  }
}
