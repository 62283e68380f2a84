/**
 * The upstream stream (DESIGN.md §7, §7.1): one src/live LiveStream for the symbols in use
 * (reconnects, resumes), judged by StreamPolicy (what counts as failing, how often it may open).
 *
 * The stream that works is never torn down to change it: more symbols (and the return from
 * polling) open a candidate stream beside it, which replaces it once it delivers, and is dropped
 * if it fails. Symbols asked for meanwhile are polled (the Poller); they join the stream at most
 * once per `resubscribeMs`. After the stream fails the relay polls, and tries the stream again
 * with capped backoff.
 */
import { LiveStream, PriceBoardError, type Quote } from './from-src';
import type { Poller, UpstreamContext } from './poller';
import { StreamPolicy, type StreamWatch } from './stream-policy';
import type { UpstreamTimings } from './upstream';

/** New symbols asked for within this window join the stream together. */
const RESUBSCRIBE_DEBOUNCE_MS = 250;
/** A stream with no readable event for this share of the stale window is replaced (45 s of 60). */
const READABLE_SHARE = 0.75;

export interface UpstreamStreamOptions extends UpstreamContext {
  timings?: UpstreamTimings;
  /** Data older than this is stale: a stream must read within most of it. */
  staleMs: number;
  /** The symbols in use: what a stream is opened for. */
  inUse: ReadonlySet<string>;
  /** What carries the symbols the stream does not. */
  poller: Poller;
  closed: () => boolean;
  /** Quotes read, from whichever stream. */
  onQuotes: (quotes: Quote[]) => void;
  /** Symbols the upstream does not know: no longer in use. */
  onUnknownSymbols: (ids: string[]) => void;
}

export class UpstreamStream {
  /** `poll`: the stream failed; the poll carries every symbol while the stream is retried. */
  mode: 'stream' | 'poll' = 'stream';
  /** The working stream and the symbols it was opened for. */
  #stream: LiveStream | undefined;
  #streamed = new Set<string>();
  /** A stream being opened beside it (more symbols, or back from polling). */
  #candidate: LiveStream | undefined;
  #resubscribeTimer: NodeJS.Timeout | undefined;
  #lastResubscribeAt = -Infinity;
  #resubscribeDue = 0;
  /** The service refused a second stream beside the first (a per-key cap). */
  #oneStreamOnly = false;
  #streamRetryTimer: NodeJS.Timeout | undefined;
  #streamRetries = 0;
  /** The working stream was reopened for reading nothing: it covers no symbol until it reads. */
  #unproven = false;
  readonly #watches = new WeakMap<LiveStream, StreamWatch>();
  readonly #policy: StreamPolicy;

  readonly #options: UpstreamStreamOptions;

  constructor(options: UpstreamStreamOptions) {
    this.#options = options;
    this.#policy = new StreamPolicy({
      budget: options.budget,
      now: options.now,
      // Replaced before its data turns stale, so a quiet market's new snapshot comes in time.
      readableMs: () => options.staleMs * READABLE_SHARE,
      onStable: () => (this.#streamRetries = 0),
    });
  }

  /** The symbols in use that the stream does not carry (all while it is down): what the poll asks for. */
  uncovered(): string[] {
    const { inUse } = this.#options;
    if (this.mode === 'poll' || !this.#stream || this.#stream.state === 'reconnecting' || this.#unproven)
      return [...inUse];
    return [...inUse].filter((s) => !this.#streamed.has(s));
  }

  /** Opens the stream for every symbol in use (or, in poll mode, polls and schedules its retry). */
  start(): void {
    if (this.#options.closed() || this.#stream || this.#candidate) return;
    if (this.mode === 'poll') {
      this.#options.poller.schedule(0);
      return this.#scheduleStreamRetry();
    }
    const symbols = [...this.#options.inUse];
    this.#stream = this.#open(symbols);
    this.#streamed = new Set(symbols);
  }

  /**
   * Symbols were added to those in use: a stream beside the working one brings them (once the
   * resubscribe window allows); unless one opens for them within the debounce, a poll brings them.
   */
  added(): void {
    if (this.mode === 'stream') this.#scheduleResubscribe();
    const streamSoon =
      this.#resubscribeTimer !== undefined &&
      this.#resubscribeDue - this.#options.now() <= RESUBSCRIBE_DEBOUNCE_MS &&
      this.#options.gate.pausedFor('stream') === 0;
    if (!streamSoon) this.#options.poller.soon();
  }

  /** The key works again after a refusal: a stream that stayed open carries on; otherwise the stream is tried first. */
  reopen(): void {
    if (!this.#stream) {
      this.mode = 'stream';
      this.start();
    }
    if (this.uncovered().length > 0) this.#options.poller.soon();
  }

  /** Closes both streams and drops what was scheduled (this member stops leading, or closes). */
  stop(): void {
    this.#close(this.#stream);
    this.#close(this.#candidate);
    this.#stream = undefined;
    this.#candidate = undefined;
    this.#streamed = new Set();
    for (const timer of [this.#resubscribeTimer, this.#streamRetryTimer]) clearTimeout(timer);
    this.#resubscribeTimer = undefined;
    this.#streamRetryTimer = undefined;
  }

  /** `forSymbols`: a stream beside the working one for symbols just asked for (not paced: the resubscribe window bounds it). */
  #open(symbols: string[], forSymbols = false): LiveStream {
    const { log, poller } = this.#options;
    const watch = this.#policy.watch((delivered) => this.#unreadable(stream, delivered));
    const stream: LiveStream = new LiveStream({
      url: `${this.#options.baseUrl.replace(/\/+$/, '')}/v1/stream`,
      symbols,
      apiKey: this.#options.apiKey,
      fetch: this.#policy.paced(this.#options.gate.fetchFor('quotes'), !forSymbols),
      // A candidate gets one try: the working stream (or the poll) stays meanwhile. The working
      // stream gives up after failures in a row (no stream on this service, or one that keeps
      // ending): the poll takes over and the stream is tried again with backoff.
      giveUp: (error, failure) => watch.ended(error, failure.opened) || stream === this.#candidate,
      onEvent: (event) => {
        switch (event.kind) {
          case 'quotes':
            watch.read();
            if (stream === this.#stream) this.#unproven = false;
            if (stream === this.#candidate) this.#promote(stream, symbols);
            return this.#options.onQuotes(event.quotes);
          case 'state':
            if (event.state === 'open') watch.opened();
            if (stream !== this.#stream) return;
            log('upstream_stream', { state: event.state });
            // Down: the poll carries the quotes meanwhile.
            if (event.state === 'reconnecting') poller.streamDown();
            return;
          case 'failure': {
            const { code, status } = event.error;
            return log('upstream_stream_error', { code, status, candidate: stream === this.#candidate });
          }
          case 'unknown':
            return this.#options.onUnknownSymbols(event.symbols);
          case 'stopped':
            watch.stop();
            this.#stopped(stream, event.error, event.gaveUp);
        }
      },
    });
    this.#watches.set(stream, watch);
    stream.start();
    return stream;
  }

  /** Closes `stream` and its watch. */
  #close(stream: LiveStream | undefined): void {
    if (!stream) return;
    this.#watches.get(stream)?.stop();
    stream.close();
  }

  /**
   * `stream` read nothing for the stale window: it is replaced, and the poll carries the quotes
   * meanwhile. One that delivered before (a quiet market) is reopened, for the snapshot a new
   * connection sends; failures in a row (counted by the watch) end in polling.
   */
  #unreadable(stream: LiveStream, delivered: boolean): void {
    if (stream !== this.#stream && stream !== this.#candidate) return;
    this.#options.log('upstream_stream_unreadable', { delivered, candidate: stream === this.#candidate });
    this.#close(stream);
    if (stream === this.#candidate || this.#policy.failing)
      return this.#stopped(stream, new PriceBoardError('timeout', 'no readable event'), true);
    this.#stream = undefined;
    this.start();
    // Until the new connection reads, it covers nothing: the poll asks for every symbol.
    this.#unproven = true;
    this.#options.poller.soon();
  }

  /** A candidate delivered: it becomes the stream; the one it replaces is closed. */
  #promote(stream: LiveStream, symbols: string[]): void {
    this.#candidate = undefined;
    const old = this.#stream;
    this.#stream = stream;
    this.#streamed = new Set(symbols);
    this.#unproven = false;
    this.#close(old);
    clearTimeout(this.#streamRetryTimer);
    this.#streamRetryTimer = undefined;
    // The retry backoff starts over only once a stream proved itself (StreamPolicy): one that
    // delivers its snapshot and ends is no return to the stream.
    if (this.mode === 'poll') this.mode = 'stream';
    this.#options.log('upstream_stream', { state: 'open', symbols: symbols.length, replaced: Boolean(old) });
    // Symbols asked for while it opened.
    if (this.uncovered().length > 0) this.#scheduleResubscribe();
  }

  #stopped(stream: LiveStream, error: PriceBoardError, gaveUp: boolean): void {
    const { log, gate, poller } = this.#options;
    if (stream === this.#candidate) {
      this.#candidate = undefined;
      log('upstream_stream_candidate_failed', { code: error.code, status: error.status, mode: this.mode });
      if (gate.halted) return;
      // The service allows one stream per key: from now on the working stream is changed in place
      // (a reconnect), only when nothing is paused, still at most once per window.
      if (error.data?.serviceCode === 'too_many_streams' && !this.#oneStreamOnly) {
        this.#oneStreamOnly = true;
        log('upstream_one_stream_only', {});
        if (this.mode === 'stream') return this.#resubscribe();
      }
      if (this.mode === 'poll') return this.#scheduleStreamRetry();
      // What it was to bring is polled meanwhile.
      if (this.uncovered().length > 0) poller.soon();
      this.#scheduleResubscribe();
      return;
    }
    if (stream !== this.#stream) return;
    this.#stream = undefined;
    this.#streamed = new Set();
    this.#unproven = false;
    log('upstream_stream_stopped', { code: error.code, status: error.status, gave_up: gaveUp });
    // A refused key: the gate probes, and its reopening starts over.
    if (gate.halted || this.#options.closed()) return;
    this.mode = 'poll';
    log('upstream_mode', { mode: 'poll' });
    poller.schedule(0);
    this.#scheduleStreamRetry();
  }

  #scheduleResubscribe(): void {
    if (this.#resubscribeTimer || this.#candidate || this.#options.closed()) return;
    const now = this.#options.now();
    const wait = Math.max(
      RESUBSCRIBE_DEBOUNCE_MS,
      this.#lastResubscribeAt + (this.#options.timings?.resubscribeMs ?? 30_000) - now,
    );
    this.#resubscribeDue = now + wait;
    this.#resubscribeTimer = setTimeout(() => {
      this.#resubscribeTimer = undefined;
      this.#resubscribe();
    }, wait);
  }

  /** Opens a stream for every symbol in use beside the working one (unless paused: the poll covers them). */
  #resubscribe(): void {
    const { gate, leader } = this.#options;
    if (this.#options.closed() || this.mode !== 'stream' || this.#candidate || !leader.isLeader || gate.halted) return;
    if (this.uncovered().length === 0) return;
    const paused = gate.pausedFor('stream');
    if (paused > 0) {
      this.#options.poller.soon();
      this.#resubscribeTimer = setTimeout(() => {
        this.#resubscribeTimer = undefined;
        this.#resubscribe();
      }, paused);
      return;
    }
    this.#lastResubscribeAt = this.#options.now();
    if (this.#oneStreamOnly && this.#stream) return void this.#reconnectInPlace(this.#stream);
    this.#candidate = this.#open([...this.#options.inUse], true);
  }

  /** One stream per key: reconnects the working stream with every symbol, when the budget has room for it. */
  async #reconnectInPlace(stream: LiveStream): Promise<void> {
    const { budget, inUse } = this.#options;
    const spent = await budget.spent();
    if (stream !== this.#stream || this.#options.closed()) return;
    if (spent.minute >= budget.perMinute - 1 || (budget.perDay !== null && spent.day >= budget.perDay - 1)) {
      this.#options.poller.soon();
      return this.#scheduleResubscribe();
    }
    this.#streamed = new Set(inUse);
    stream.setSymbols([...inUse]);
  }

  /** While polling: try the stream again, with capped exponential backoff. */
  #scheduleStreamRetry(): void {
    if (this.#streamRetryTimer || this.#candidate || this.#options.closed()) return;
    const base = this.#options.timings?.streamRetryMs ?? 10_000;
    const max = this.#options.timings?.streamRetryMaxMs ?? 5 * 60_000;
    const wait = Math.min(max, base * 2 ** Math.min(this.#streamRetries, 20));
    this.#streamRetries += 1;
    this.#streamRetryTimer = setTimeout(() => {
      this.#streamRetryTimer = undefined;
      const { gate, leader } = this.#options;
      if (this.#options.closed() || this.mode !== 'poll' || this.#candidate || gate.halted || !leader.isLeader) return;
      this.#options.log('upstream_stream_retry', { attempt: this.#streamRetries });
      this.#candidate = this.#open([...this.#options.inUse]);
    }, wait);
  }
}
