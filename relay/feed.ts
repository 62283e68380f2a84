/**
 * The upstream side (DESIGN.md §7, §7.1), coordinated: the symbols in use, carried by the upstream
 * stream (UpstreamStream) and, for what it does not carry, the poll (Poller); what they bring is
 * taken through QuoteIntake and offered to the engine (EngineOffer, which holds and offers again
 * what it refuses); the symbol list is the Catalog's. Only the leader runs the stream or the poll;
 * visitors' requests wait here for the quotes of the symbols they asked for.
 */
import type { Quote, SymbolInfo } from './from-src';
import type { Budget } from './budget';
import { Catalog } from './catalog';
import type { Engine } from './engine/types';
import type { Logger } from './log';
import type { Metrics } from './metrics';
import { EngineOffer } from './engine-offer';
import { Poller } from './poller';
import { QuoteIntake } from './quote-intake';
import type { UpstreamGate, UpstreamTimings } from './upstream';
import { UpstreamStream } from './upstream-stream';

/** The board's default symbols: streamed from the start so the first visitors wait for nothing. */
const DEFAULT_SYMBOLS = ['usd', 'eur', 'gold_18', 'coin_emami', 'ons'];
/** Data older than this, or an open stream that said nothing readable for this long, is stale. */
const STALE_AFTER_MS = 60_000;

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
  readonly #inUse = new Set<string>();
  readonly #catalog: Catalog;
  readonly #waiters = new Set<() => void>();
  readonly #unsubscribe: Array<() => void> = [];
  readonly #now: () => number;
  readonly #intake: QuoteIntake;
  readonly #offer: EngineOffer;
  readonly #poller: Poller;
  readonly #upstream: UpstreamStream;
  #closed = false;

  readonly #options: FeedOptions;

  constructor(options: FeedOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    const closed = (): boolean => this.#closed;
    const { leader } = options.engine;
    const onUnknownSymbols = (ids: string[]): void => {
      for (const s of ids) this.#inUse.delete(s);
      this.#wakeWaiters();
    };
    this.#poller = new Poller({
      ...options,
      leader,
      now: this.#now,
      uncovered: () => this.#upstream.uncovered(),
      hasData: () => this.lastDataAt !== 0,
      closed,
      ingest: (quotes) => this.#ingest(quotes),
      failed: (error) => this.#offer.failed(error),
      onUnknownSymbols,
    });
    this.#intake = new QuoteIntake(options.apiKey);
    this.#offer = new EngineOffer({
      engine: options.engine,
      log: options.log,
      now: this.#now,
      closed,
      onApplied: (receivedAt) => {
        this.lastDataAt = Math.max(this.lastDataAt, receivedAt);
        this.#wakeWaiters();
      },
    });
    this.#upstream = new UpstreamStream({
      ...options,
      leader,
      now: this.#now,
      staleMs: this.#staleMs,
      inUse: this.#inUse,
      poller: this.#poller,
      closed,
      // A failing engine (e.g. a shared store away) is logged, never an unhandled rejection.
      onQuotes: (quotes) => void this.#ingest(quotes).catch((error: unknown) => this.#offer.failed(error)),
      onUnknownSymbols,
    });
    this.#catalog = new Catalog({ ...options, now: this.#now, closed });
    for (const s of options.allow ?? DEFAULT_SYMBOLS) this.#inUse.add(s);
  }

  /** `stream`, or `poll` while the stream is down. */
  get mode(): 'stream' | 'poll' {
    return this.#upstream.mode;
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
        this.#upstream.reopen();
      }),
    );
    // A cluster member may have won the lock before this subscribed: it leads as if it just had.
    if (leader.isLeader && this.#options.engine.cluster) this.#lead();
    else if (leader.isLeader) this.#upstream.start();
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
    if (!added || this.#closed || !this.#options.engine.leader.isLeader || this.#upstream.uncovered().length === 0)
      return;
    this.#upstream.added();
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
    this.#upstream.start();
    this.catalog().catch(() => {}); // logged as catalog_failed
  }

  #stopUpstream(): void {
    this.#intake.reset();
    this.#offer.stop();
    this.#upstream.stop();
    this.#poller.stop();
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
