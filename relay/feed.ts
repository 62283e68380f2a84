/**
 * The upstream side (DESIGN.md §7, §7.1): one upstream stream for the symbols in use (src/live's
 * LiveStream: reconnects, resumes; StreamPolicy: what counts as failing, how often it may open),
 * and a batched `/v1/prices` poll for what the stream does not cover. What comes is taken through
 * QuoteIntake and offered to the engine (EngineOffer); the symbol list is the Catalog's. Only the
 * leader runs the stream or the poll.
 *
 * The stream that works is never torn down to change it: more symbols (and the return from
 * polling) open a second stream beside it, which replaces it once it delivers, and is dropped if
 * it fails. Symbols asked for meanwhile are polled; they join the stream at most once per
 * `resubscribeMs`. After the stream fails the relay polls, and tries the stream again with capped
 * backoff.
 */
import { LiveStream, PriceBoardError, PriceClient, type Quote, type SymbolInfo } from './from-src';
import type { Budget } from './budget';
import { Catalog } from './catalog';
import type { Engine } from './engine/types';
import type { Logger } from './log';
import type { Metrics } from './metrics';
import { EngineOffer } from './engine-offer';
import { QuoteIntake } from './quote-intake';
import { StreamPolicy, type StreamWatch } from './stream-policy';
import { isLocalRefusal } from './local-answers';
import type { UpstreamGate, UpstreamTimings } from './upstream';

/** The board's default symbols: streamed from the start so the first visitors wait for nothing. */
const DEFAULT_SYMBOLS = ['usd', 'eur', 'gold_18', 'coin_emami', 'ons'];
/** New symbols asked for within this window join the stream together. */
const RESUBSCRIBE_DEBOUNCE_MS = 250;
/** Two polls for symbols just asked for are at least this far apart. */
const MIN_POLL_GAP_MS = 2_000;
/** Data older than this, or an open stream that said nothing readable for this long, is stale. */
const STALE_AFTER_MS = 60_000;
/** A stream with no readable event for this share of the stale window is replaced (45 s of 60). */
const READABLE_SHARE = 0.75;

export interface FeedOptions {
  baseUrl: string;
  apiKey: string;
  engine: Engine;
  gate: UpstreamGate;
  budget: Budget;
  log: Logger;
  metrics: Metrics;
  /** SYMBOLS: only these are served. */
  allow?: readonly string[];
  now?: () => number;
  timings?: UpstreamTimings;
}

export class Feed {
  /** Epoch ms of the last quote data from upstream that the engine took (what visitors are served). */
  lastDataAt = 0;
  mode: 'stream' | 'poll' = 'stream';
  readonly #inUse = new Set<string>();
  /** The working stream and the symbols it was opened for. */
  #stream: LiveStream | undefined;
  #streamed = new Set<string>();
  /** A stream being opened beside it (more symbols, or back from polling). */
  #candidate: LiveStream | undefined;
  #pollTimer: NodeJS.Timeout | undefined;
  #polling = false;
  #lastPollAt = -Infinity;
  #resubscribeTimer: NodeJS.Timeout | undefined;
  #lastResubscribeAt = -Infinity;
  #resubscribeDue = 0;
  /** The service refused a second stream beside the first (a per-key cap). */
  #oneStreamOnly = false;
  #streamRetryTimer: NodeJS.Timeout | undefined;
  #streamRetries = 0;
  readonly #catalog: Catalog;
  readonly #waiters = new Set<() => void>();
  readonly #unsubscribe: Array<() => void> = [];
  readonly #now: () => number;
  readonly #client: PriceClient;
  readonly #intake: QuoteIntake;
  readonly #policy: StreamPolicy;
  readonly #watches = new WeakMap<LiveStream, StreamWatch>();
  /** The working stream was reopened for reading nothing: it covers no symbol until it reads. */
  #unproven = false;
  #closed = false;
  readonly #offer: EngineOffer;

  readonly #options: FeedOptions;

  constructor(options: FeedOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#client = new PriceClient({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      fetch: options.gate.fetchFor('quotes'),
      // The gate decides when to try again; the client's own retries would spend the budget.
      retry: { retries: 0, baseMs: 0, maxMs: 0 },
    });
    this.#intake = new QuoteIntake(options.apiKey);
    this.#offer = new EngineOffer({
      engine: options.engine,
      log: options.log,
      now: this.#now,
      closed: () => this.#closed,
      onApplied: (receivedAt) => {
        this.lastDataAt = Math.max(this.lastDataAt, receivedAt);
        this.#wakeWaiters();
      },
    });
    this.#policy = new StreamPolicy({
      budget: options.budget,
      now: this.#now,
      // Replaced before its data turns stale, so a quiet market's new snapshot comes in time.
      readableMs: () => this.#staleMs * READABLE_SHARE,
      onStable: () => (this.#streamRetries = 0),
    });
    this.#catalog = new Catalog({ ...options, now: this.#now, closed: () => this.#closed });
    for (const s of options.allow ?? DEFAULT_SYMBOLS) this.#inUse.add(s);
  }

  start(): void {
    const { leader, broker } = this.#options.engine;
    // What followers' visitors asked for (a cluster): this member's upstream carries it while it leads.
    this.#unsubscribe.push(this.#options.engine.asks.onWanted((symbols) => this.use(symbols)));
    this.#unsubscribe.push(
      broker.subscribe(() => {
        // A follower's data is as recent as the leader's last change it received.
        if (!leader.isLeader) this.lastDataAt = this.#now();
        this.#wakeWaiters();
      }),
    );
    // Leadership changes only in a cluster: a new leader fills the shared catalog at once, so that
    // followers (which never ask upstream) can answer.
    this.#unsubscribe.push(leader.onChange((isLeader) => (isLeader ? this.#lead() : this.#stopUpstream())));
    // The key works again after a refusal: start over.
    this.#unsubscribe.push(
      this.#options.gate.onReopen(() => {
        if (!leader.isLeader || this.#closed) return;
        // A stream that stayed open carries on; otherwise the stream is tried first.
        if (!this.#stream) {
          this.mode = 'stream';
          this.#startUpstream();
        }
        if (this.#uncovered().length > 0) this.#pollSoon();
      }),
    );
    // A cluster member may have won the lock before this subscribed: it leads as if it just had.
    if (leader.isLeader && this.#options.engine.cluster) this.#lead();
    else if (leader.isLeader) this.#startUpstream();
  }

  /** Whether the data is current: the stream is open, or quotes came recently (a follower: as the leader says). */
  get fresh(): boolean {
    const { leader, cluster } = this.#options.engine;
    if (cluster && !leader.isLeader) return cluster.connected && cluster.leaderFresh;
    return this.upstreamFresh;
  }

  /**
   * This process's own upstream data is current: the stream is open or quotes came recently, and
   * the engine took every change (one it refused and holds is not yet served to anyone).
   */
  get upstreamFresh(): boolean {
    if (this.#offer.holding) return false;
    // Only quotes make data current: an open stream that sends nothing readable (malformed
    // events, bytes of an event never finished, heartbeats only) is no more current than its last
    // quote, and is replaced (StreamPolicy).
    return this.#now() - this.lastDataAt < this.#staleMs;
  }

  get #staleMs(): number {
    return this.#options.timings?.staleAfterMs ?? STALE_AFTER_MS;
  }

  /** Seconds since the last quote data (Infinity before any). */
  get ageSeconds(): number {
    return this.lastDataAt === 0 ? Infinity : Math.max(0, Math.round((this.#now() - this.lastDataAt) / 1000));
  }

  /** The symbols served: the upstream catalog within SYMBOLS ({@link Catalog}). */
  catalog(): Promise<SymbolInfo[]> {
    return this.#catalog.get();
  }

  /**
   * Adds symbols (ids of the catalog) to what the upstream side serves: the first ones open a
   * stream beside the working one at once; later ones (within `resubscribeMs`, or during a pause)
   * are polled when the budget allows until the next such stream.
   */
  use(symbols: readonly string[]): void {
    const { leader, asks } = this.#options.engine;
    // A follower's upstream is the leader's: asked each time (a want lost while Redis was away, or
    // by a leader since gone, is asked again; the leader's set makes a repeat free).
    if (!leader.isLeader && !this.#closed) asks.want(symbols);
    let added = false;
    for (const s of symbols) {
      if (this.#inUse.has(s) || this.#options.gate.refuses(s)) continue;
      this.#inUse.add(s);
      added = true;
    }
    if (!added || this.#closed || !this.#options.engine.leader.isLeader || this.#uncovered().length === 0) return;
    if (this.mode === 'stream') this.#scheduleResubscribe();
    // A stream opening for them within the debounce brings their snapshot; otherwise a poll does.
    const streamSoon =
      this.#resubscribeTimer !== undefined &&
      this.#resubscribeDue - this.#now() <= RESUBSCRIBE_DEBOUNCE_MS &&
      this.#options.gate.pausedFor('stream') === 0;
    if (!streamSoon) this.#pollSoon();
  }

  /** A poll for the uncovered symbols as soon as the last one allows. */
  #pollSoon(): void {
    if (this.#polling) return;
    clearTimeout(this.#pollTimer);
    this.#pollTimer = undefined;
    this.#schedulePoll(Math.max(0, this.#lastPollAt + MIN_POLL_GAP_MS - this.#now()));
  }

  /**
   * Resolves with the held quotes of `symbols` once all are held (those the upstream refuses left
   * out: they never come), or with what is held after `timeoutMs`.
   */
  async ready(symbols: readonly string[], timeoutMs: number): Promise<{ id: number; quotes: Quote[] }> {
    const deadline = this.#now() + timeoutMs;
    for (;;) {
      const snap = await this.#options.engine.state.snapshot(symbols);
      const left = deadline - this.#now();
      const awaited = symbols.filter((s) => !this.#options.gate.refuses(s)).length;
      if (snap.quotes.length >= awaited || left <= 0 || this.#closed) return snap;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.#waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.#waiters.add(done);
      });
    }
  }

  close(): void {
    this.#closed = true;
    for (const off of this.#unsubscribe) off();
    this.#stopUpstream();
    this.#options.gate.close();
    this.#wakeWaiters();
  }

  #wakeWaiters(): void {
    for (const wake of [...this.#waiters]) wake();
  }

  #lead(): void {
    this.#catalog.forget();
    this.#startUpstream();
    this.catalog().catch(() => {}); // logged as catalog_failed
  }

  /** The symbols in use that the stream does not carry (all while it is down): what the poll asks for. */
  #uncovered(): string[] {
    if (this.mode === 'poll' || !this.#stream || this.#stream.state === 'reconnecting' || this.#unproven)
      return [...this.#inUse];
    return [...this.#inUse].filter((s) => !this.#streamed.has(s));
  }

  #startUpstream(): void {
    if (this.#closed || this.#stream || this.#candidate) return;
    if (this.mode === 'poll') {
      this.#schedulePoll(0);
      return this.#scheduleStreamRetry();
    }
    const symbols = [...this.#inUse];
    this.#stream = this.#openStream(symbols);
    this.#streamed = new Set(symbols);
  }

  /** `forSymbols`: a stream beside the working one for symbols just asked for (not paced: the resubscribe window bounds it). */
  #openStream(symbols: string[], forSymbols = false): LiveStream {
    const { log } = this.#options;
    const watch = this.#policy.watch((delivered) => this.#unreadable(stream, delivered));
    const stream: LiveStream = new LiveStream({
      url: `${this.#options.baseUrl.replace(/\/+$/, '')}/v1/stream`,
      symbols,
      apiKey: this.#options.apiKey,
      fetch: this.#policy.paced(this.#options.gate.fetchFor('quotes'), !forSymbols),
      onQuotes: (quotes) => {
        watch.read();
        if (stream === this.#stream) this.#unproven = false;
        if (stream === this.#candidate) this.#promote(stream, symbols);
        // A failing engine (e.g. a shared store away) is logged, never an unhandled rejection.
        void this.#ingest(quotes).catch((error: unknown) => this.#offer.failed(error));
      },
      onState: (state) => {
        if (state === 'open') watch.opened();
        if (stream !== this.#stream) return;
        log('upstream_stream', { state });
        // Down: the poll carries the quotes meanwhile (at once while nothing is held).
        if (state === 'reconnecting') this.#schedulePoll(this.#pollWait());
      },
      onError: (error) =>
        log('upstream_stream_error', { code: error.code, status: error.status, candidate: stream === this.#candidate }),
      onUnknownSymbols: (ids) => {
        for (const s of ids) this.#inUse.delete(s);
        this.#wakeWaiters();
      },
      // A candidate gets one try: the working stream (or the poll) stays meanwhile. The working
      // stream gives up after failures in a row (no stream on this service, or one that keeps
      // ending): the poll takes over and the stream is tried again with backoff.
      giveUp: (error, failure) => watch.ended(error, failure.opened) || stream === this.#candidate,
      onStop: (error, gaveUp) => {
        watch.stop();
        this.#stopped(stream, error, gaveUp);
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
    this.#startUpstream();
    // Until the new connection reads, it covers nothing: the poll asks for every symbol.
    this.#unproven = true;
    this.#pollSoon();
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
    if (this.#uncovered().length > 0) this.#scheduleResubscribe();
  }

  #stopped(stream: LiveStream, error: PriceBoardError, gaveUp: boolean): void {
    const { log, gate } = this.#options;
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
      if (this.#uncovered().length > 0) this.#pollSoon();
      this.#scheduleResubscribe();
      return;
    }
    if (stream !== this.#stream) return;
    this.#stream = undefined;
    this.#streamed = new Set();
    this.#unproven = false;
    log('upstream_stream_stopped', { code: error.code, status: error.status, gave_up: gaveUp });
    // A refused key: the gate probes, and its reopening starts over.
    if (gate.halted || this.#closed) return;
    this.mode = 'poll';
    log('upstream_mode', { mode: 'poll' });
    this.#schedulePoll(0);
    this.#scheduleStreamRetry();
  }

  #scheduleResubscribe(): void {
    if (this.#resubscribeTimer || this.#candidate || this.#closed) return;
    const wait = Math.max(
      RESUBSCRIBE_DEBOUNCE_MS,
      this.#lastResubscribeAt + (this.#options.timings?.resubscribeMs ?? 30_000) - this.#now(),
    );
    this.#resubscribeDue = this.#now() + wait;
    this.#resubscribeTimer = setTimeout(() => {
      this.#resubscribeTimer = undefined;
      this.#resubscribe();
    }, wait);
  }

  /** Opens a stream for every symbol in use beside the working one (unless paused: the poll covers them). */
  #resubscribe(): void {
    const { gate, engine } = this.#options;
    if (this.#closed || this.mode !== 'stream' || this.#candidate || !engine.leader.isLeader || gate.halted) return;
    if (this.#uncovered().length === 0) return;
    const paused = gate.pausedFor('stream');
    if (paused > 0) {
      this.#pollSoon();
      this.#resubscribeTimer = setTimeout(() => {
        this.#resubscribeTimer = undefined;
        this.#resubscribe();
      }, paused);
      return;
    }
    this.#lastResubscribeAt = this.#now();
    if (this.#oneStreamOnly && this.#stream) return void this.#reconnectInPlace(this.#stream);
    this.#candidate = this.#openStream([...this.#inUse], true);
  }

  /** One stream per key: reconnects the working stream with every symbol, when the budget has room for it. */
  async #reconnectInPlace(stream: LiveStream): Promise<void> {
    const { budget } = this.#options;
    const spent = await budget.spent();
    if (stream !== this.#stream || this.#closed) return;
    if (spent.minute >= budget.perMinute - 1 || (budget.perDay !== null && spent.day >= budget.perDay - 1)) {
      this.#pollSoon();
      return this.#scheduleResubscribe();
    }
    this.#streamed = new Set(this.#inUse);
    stream.setSymbols([...this.#inUse]);
  }

  /** While polling: try the stream again, with capped exponential backoff. */
  #scheduleStreamRetry(): void {
    if (this.#streamRetryTimer || this.#candidate || this.#closed) return;
    const base = this.#options.timings?.streamRetryMs ?? 10_000;
    const max = this.#options.timings?.streamRetryMaxMs ?? 5 * 60_000;
    const wait = Math.min(max, base * 2 ** Math.min(this.#streamRetries, 20));
    this.#streamRetries += 1;
    this.#streamRetryTimer = setTimeout(() => {
      this.#streamRetryTimer = undefined;
      if (
        this.#closed ||
        this.mode !== 'poll' ||
        this.#candidate ||
        this.#options.gate.halted ||
        !this.#options.engine.leader.isLeader
      )
        return;
      this.#options.log('upstream_stream_retry', { attempt: this.#streamRetries });
      this.#candidate = this.#openStream([...this.#inUse]);
    }, wait);
  }

  #stopUpstream(): void {
    this.#intake.reset();
    this.#offer.stop();
    this.#close(this.#stream);
    this.#close(this.#candidate);
    this.#stream = undefined;
    this.#candidate = undefined;
    this.#streamed = new Set();
    for (const timer of [this.#pollTimer, this.#resubscribeTimer, this.#streamRetryTimer]) clearTimeout(timer);
    this.#pollTimer = undefined;
    this.#resubscribeTimer = undefined;
    this.#streamRetryTimer = undefined;
  }

  /** When the poll that follows the stream's loss goes: at once while nothing is held (the first snapshot), else at the budget's interval. */
  #pollWait(): number {
    return this.lastDataAt === 0 ? 0 : this.#options.budget.pollIntervalMs();
  }

  #schedulePoll(ms: number): void {
    if (this.#closed || this.#pollTimer || this.#polling) return;
    this.#pollTimer = setTimeout(() => {
      this.#pollTimer = undefined;
      void this.#pollOnce();
    }, ms);
  }

  /** One batched `/v1/prices` for what the stream does not carry; again at the budget's interval while needed. */
  async #pollOnce(): Promise<void> {
    const symbols = this.#uncovered();
    if (symbols.length === 0 || this.#closed || this.#options.gate.halted || !this.#options.engine.leader.isLeader)
      return;
    let wait = this.#options.budget.pollIntervalMs();
    this.#polling = true;
    this.#lastPollAt = this.#now();
    try {
      const data = await this.#client.prices(symbols);
      await this.#ingest(data.quotes);
    } catch (error) {
      if (error instanceof PriceBoardError) {
        this.#options.log('upstream_poll_error', { code: error.code, status: error.status });
        const unknown = error.code === 'unknown_symbol' && Array.isArray(error.data?.symbols) ? error.data.symbols : [];
        for (const s of unknown) this.#inUse.delete(String(s));
        // Visitors waiting for a refused symbol get the refusal now, not after the ready timeout.
        if (unknown.length > 0) this.#wakeWaiters();
        // Nothing was asked (the gate's pause, the budget), or nothing is held yet: again as soon
        // as the gate allows, not a whole interval later (a day share of 160 waited 12 minutes).
        const soon = isLocalRefusal(error) || this.lastDataAt === 0;
        const allowed = Math.max(MIN_POLL_GAP_MS, error.retryAfterMs ?? 0, this.#options.gate.pausedFor('prices'));
        wait = soon ? allowed : Math.max(wait, error.retryAfterMs ?? 0);
      } else {
        this.#offer.failed(error);
      }
    } finally {
      this.#polling = false;
    }
    if (this.#uncovered().length > 0) this.#schedulePoll(wait);
  }

  async #ingest(quotes: Quote[]): Promise<void> {
    const receivedAt = this.#now();
    // Only ids the relay serves are held: an upstream sending thousands of others costs no memory.
    const { kept, unknown, keyed } = this.#intake.take(quotes, this.#catalog.known ?? this.#inUse, receivedAt);
    if (unknown > 0)
      this.#options.metrics.inc(
        'relay_upstream_quotes_dropped_total',
        'Upstream quotes dropped: for ids outside the catalog.',
        {},
        unknown,
      );
    if (keyed > 0)
      this.#options.log('upstream_body_refused', { what: 'quotes', quotes: keyed, reason: 'holds UPSTREAM_KEY' });
    await this.#offer.apply(kept, receivedAt);
  }
}
