/**
 * How quotes keep coming for a hub: the SSE stream, polling, or nothing (`stream` attribute).
 *
 * `auto` starts with SSE and falls back to polling when the failures suggest there is no stream
 * (404/405/501, a 2xx that is not an event stream, or {@link AUTO_FALLBACK_FAILURES} connections
 * in a row without a single event). While polling it tries SSE again: where the service said it
 * has no stream, after {@link SSE_RETRY_MS}; after an outage (the stream refused or unreachable),
 * after {@link OUTAGE_RETRY_MS}; each wait doubling up to {@link SSE_RETRY_CAP} times the first
 * (an outage: 10, 20, 40 s, then every minute, fewer tries than the stream's own reconnects
 * would make, and live again within a minute of the service's return). It tries at once when the browser comes back online
 * or a poll is answered after a failed one (the service is back); a try that opens takes
 * over from polling, one that fails just waits again. Polling says `polling` only while its polls
 * are answered: after a failed one it is `reconnecting`.
 */
import type { StreamMode } from '../shared/attribute-table';
import { PriceBoardError } from '../shared/errors';
import type { FetchLike } from '../api/request';
import { startTimer } from '../api/timer';
import type { Quote } from '../shared/types';
import type { Poller } from './poller';
import type { RateLimit } from './rate-limit';
import { suggestsNoStream } from './policy';
import { LiveStream, type LiveStreamOptions, type StreamFailure, type StreamState } from './stream';
import type { LockManagerLike, TabsEnv, TabStream } from './tabs';
import type { VisibilitySource } from './visibility';
import { afterPaint } from '../shared/idle-task';

/** What the transport is doing (the hub turns it into a `ConnectionStatus`). */
export type TransportState = 'connecting' | 'live' | 'reconnecting' | 'polling' | 'idle';

/** Failed connections in a row, without an event, after which `auto` polls instead. */
export const AUTO_FALLBACK_FAILURES = 3;
/** `auto`: first retry of SSE after falling back where the service has no stream (404...). */
export const SSE_RETRY_MS = 5 * 60_000;
/** `auto`: first retry of SSE after falling back in an outage (the stream refused or unreachable). */
export const OUTAGE_RETRY_MS = 10_000;
/** Retries of SSE double up to this many times the first (30 min, and 1 min in an outage). */
export const SSE_RETRY_CAP = 6;

/** What the transport tells its hub (notifications only; it asks `TransportConfig.quotes`). */
export interface TransportHooks {
  /** Quotes from the stream. */
  streamQuotes(quotes: Quote[], at: string | undefined): void;
  state(state: TransportState): void;
  /** A failure that will be retried; `connectFailed` when a connection could not even be made. */
  failure(error: PriceBoardError, source: 'stream' | 'poll', connectFailed: boolean): void;
  /** A final failure: everything has stopped. */
  stopped(error: PriceBoardError): void;
  /** The stream rejected these ids as unknown. */
  unknownSymbols(symbols: string[]): void;
}

/** Where polls go: the hub's `QuoteFetcher`, called directly rather than through the hub. */
export interface QuoteSource {
  /** One poll of every symbol; rejects with a `PriceBoardError`. */
  poll(signal: AbortSignal): Promise<void>;
  /** Delay of the first poll: the hub fetched already, so usually one interval. */
  untilNextPoll(intervalMs: number): number;
}

/** Settings of a transport. */
export interface TransportConfig {
  mode: StreamMode;
  streamUrl: string;
  apiKey?: string;
  fetch?: FetchLike;
  watchdogMs?: number;
  /** Polling pauses while the page is hidden; default the document's (`documentVisibility()`). */
  visibility?: VisibilitySource;
  pollMs: number;
  sseRetryMs?: number;
  quotes: QuoteSource;
  /** The hub's `Retry-After` record: polls wait for it (default: the poller's own). */
  rateLimit?: RateLimit;
  /**
   * Where the tabs meet to share one stream (`tabs.ts`); default the browser's Web Locks and
   * BroadcastChannel; null: a stream of its own. A `fetch` of its own means a stream of its own.
   */
  tabs?: TabsEnv | null;
}

/** The stream or the poller of one hub, switched by mode and failures. */
export class Transport {
  readonly #config: TransportConfig;
  readonly #hooks: TransportHooks;
  #symbols: string[] = [];
  #stream: LiveStream | SharedStream | undefined;
  #probing = false;
  #poller: Poller | undefined;
  /** Polling is on; the poller's chunk may still be loading (`ensurePoller`). */
  #polling = false;
  #cancelPollerRetry: (() => void) | undefined;
  #fellBack = false;
  #cancelRetry: (() => void) | undefined;
  /** SSE retries in a row that failed since falling back: the retry's backoff. */
  #failedProbes = 0;
  #closed = false;
  #current: TransportState | undefined;

  constructor(config: TransportConfig, hooks: TransportHooks) {
    this.#config = config;
    this.#hooks = hooks;
  }

  /** The symbols to follow: opens what the mode needs; reopens the stream only for new ones. */
  setSymbols(symbols: readonly string[]): void {
    this.#symbols = [...symbols];
    if (this.#closed) return;
    if (symbols.length === 0 || this.#config.mode === 'off') {
      this.#stopStream();
      this.#stopPoller();
      this.#setState('idle');
      return;
    }
    if (this.#config.mode === 'poll' || this.#fellBack) this.#ensurePoller();
    if (this.#config.mode === 'sse' || (this.#config.mode === 'auto' && !this.#fellBack)) this.#ensureStream(false);
    else this.#stream?.setSymbols(symbols); // a probe in flight
  }

  /** The polling interval (the fastest any subscriber asked for). */
  setPollInterval(ms: number): void {
    this.#config.pollMs = ms;
    this.#poller?.setInterval(ms);
  }

  /** When polling: poll now and return that poll; otherwise undefined (the hub fetches). */
  pollNow(): Promise<void> | undefined {
    return this.#poller?.pollNow();
  }

  /** Back online: reconnect, poll or retry SSE now instead of waiting. */
  kick(): void {
    if (this.#closed) return;
    this.#stream?.reconnectNow();
    void this.#poller?.pollNow();
    this.#probeNow();
  }

  /** Stops everything; no timer or connection remains. */
  close(): void {
    this.#closed = true;
    this.#stopStream();
    this.#stopPoller();
    this.#cancelRetry?.();
    this.#cancelRetry = undefined;
  }

  #setState(state: TransportState): void {
    if (state === this.#current) return;
    this.#current = state;
    this.#hooks.state(state);
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
          intervalMs: this.#config.pollMs,
          visibility: this.#config.visibility,
          poll: (signal) => this.#config.quotes.poll(signal).then(() => this.#polled('polling')),
          rateLimit: this.#config.rateLimit,
          onError: (error) => {
            this.#polled('reconnecting');
            this.#hooks.failure(error, 'poll', false);
          },
          onStop: (error) => this.#fail(error),
        });
        this.#poller.start(this.#config.quotes.untilNextPoll(this.#poller.interval));
      },
      (cause: unknown) => {
        if (!this.#polling) return;
        this.#hooks.failure(
          new PriceBoardError('network', 'The polling code failed to load', { cause }),
          'poll',
          false,
        );
        this.#cancelPollerRetry = startTimer(() => {
          this.#polling = false;
          this.#ensurePoller();
        }, this.#config.pollMs);
      },
    );
  }

  #ensureStream(probe: boolean): void {
    if (this.#stream && !this.#stream.closed) {
      this.#stream.setSymbols(this.#symbols);
      return;
    }
    this.#probing = probe;
    const stream = this.#openStream({
      url: this.#config.streamUrl,
      symbols: this.#symbols,
      apiKey: this.#config.apiKey,
      fetch: this.#config.fetch,
      watchdogMs: this.#config.watchdogMs,
      giveUp: (error, failure) => this.#shouldGiveUp(error, failure),
      onState: (state) => this.#onStreamState(state),
      onQuotes: (quotes, at) => this.#hooks.streamQuotes(quotes, at),
      onError: (error, failure) => this.#hooks.failure(error, 'stream', !failure.opened),
      onUnknownSymbols: (symbols) => this.#hooks.unknownSymbols(symbols),
      onStop: (error, gaveUp) => {
        if (this.#stream === stream) this.#stream = undefined;
        if (gaveUp) this.#fallBack(error);
        else this.#fail(error);
      },
    });
    this.#stream = stream;
    if (!probe) this.#setState('connecting');
    stream.start();
  }

  /** Shared with the other tabs of this connection when the browser can, else its own. */
  #openStream(options: LiveStreamOptions): LiveStream | SharedStream {
    const c = this.#config;
    const env = c.fetch ? undefined : c.tabs === undefined ? browserTabs() : (c.tabs ?? undefined);
    return env ? new SharedStream(options, env, c) : new LiveStream(options);
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
  #polled(state: TransportState): void {
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
    this.close();
    this.#hooks.stopped(error);
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

/** The browser's Web Locks and BroadcastChannel; undefined when either is missing. */
export function browserTabs(): TabsEnv | undefined {
  const locks = (globalThis.navigator as Navigator | undefined)?.locks as LockManagerLike | undefined;
  const Channel = globalThis.BroadcastChannel;
  if (typeof locks?.request !== 'function' || typeof Channel !== 'function') return undefined;
  return { locks, channel: (name) => new Channel(name) };
}

/**
 * A stream shared with the other tabs (`tabs.ts`). That code is a chunk of its own, asked for once
 * the page has painted after the stream was started (the first rows, on a fast network), so that
 * its fetch, compile and connection do not compete with the first prices answer: the first rows
 * never need it. If it cannot load, the tab streams on its own.
 */
class SharedStream {
  readonly #options: LiveStreamOptions;
  readonly #env: TabsEnv;
  readonly #config: TransportConfig;
  #symbols: readonly string[];
  #inner: TabStream | LiveStream | undefined;
  #closed = false;
  #cancelWait: (() => void) | undefined;

  constructor(options: LiveStreamOptions, env: TabsEnv, config: TransportConfig) {
    this.#options = options;
    this.#env = env;
    this.#config = config;
    this.#symbols = options.symbols;
  }

  get closed(): boolean {
    return this.#closed || (this.#inner?.closed ?? false);
  }

  start(): void {
    this.#cancelWait = afterPaint(() =>
      import('./tabs').then(
        ({ TabStream, tabsName }) =>
          this.#begin(
            new TabStream({ ...this.#options, symbols: this.#symbols, env: this.#env, name: tabsName(this.#config) }),
          ),
        () => this.#begin(new LiveStream({ ...this.#options, symbols: this.#symbols })),
      ),
    );
  }

  setSymbols(symbols: readonly string[]): void {
    this.#symbols = symbols;
    this.#inner?.setSymbols(symbols);
  }

  reconnectNow(): void {
    this.#inner?.reconnectNow();
  }

  close(): void {
    this.#closed = true;
    this.#cancelWait?.();
    this.#inner?.close();
  }

  #begin(inner: TabStream | LiveStream): void {
    if (this.#closed) return;
    this.#inner = inner;
    inner.start();
  }
}
