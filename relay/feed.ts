/**
 * The upstream side: the symbol catalog (fetched once, cached), one upstream stream for the symbols
 * in use (src/live's LiveStream: reconnects, resumes, watchdog), falling back to one batched
 * `/v1/prices` poll at the interval the budget allows. Changes go into the QuoteState and out
 * through the Broker. Only the leader runs the stream or the poll.
 */
import { LiveStream, PriceBoardError, PriceClient, fetchSymbols, parseSymbolsBody, type Quote, type SymbolInfo } from './from-src';
import { ASK_TIMEOUT_MS, errorOf } from './asks';
import type { Budget } from './budget';
import type { Engine } from './engine/types';
import type { Logger } from './log';
import type { Metrics } from './metrics';
import type { UpstreamGate } from './upstream';

/** The board's default symbols: streamed from the start so the first visitors wait for nothing. */
const DEFAULT_SYMBOLS = ['usd', 'eur', 'gold_18', 'coin_emami', 'ons'];
/** The catalog is asked for again after this long (a cached copy is served meanwhile). */
const CATALOG_TTL_MS = 60 * 60_000;
/** New symbols asked for within this window cost one upstream reconnect together. */
const RESUBSCRIBE_DEBOUNCE_MS = 100;
/** Without a stream, data older than this is stale. */
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
}

export class Feed {
  /** Epoch ms of the last quote data from upstream. */
  lastDataAt = 0;
  mode: 'stream' | 'poll' = 'stream';
  private readonly inUse = new Set<string>();
  private stream: LiveStream | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private resubscribeTimer: NodeJS.Timeout | undefined;
  private catalogRequest: Promise<SymbolInfo[]> | undefined;
  private readonly waiters = new Set<() => void>();
  private readonly unsubscribe: Array<() => void> = [];
  private readonly now: () => number;
  private readonly client: PriceClient;
  private closed = false;

  constructor(private readonly options: FeedOptions) {
    this.now = options.now ?? Date.now;
    this.client = new PriceClient({
      baseUrl: options.baseUrl,
      apiKey: options.apiKey,
      fetch: options.gate.fetchFor('quotes'),
      // The gate decides when to try again; the client's own retries would spend the budget.
      retry: { retries: 0, baseMs: 0, maxMs: 0 },
    });
    for (const s of options.allow ?? DEFAULT_SYMBOLS) this.inUse.add(s);
  }

  start(): void {
    const { leader, broker } = this.options.engine;
    this.unsubscribe.push(
      broker.subscribe(() => {
        // A follower's data is as recent as the leader's last change it received.
        if (!leader.isLeader) this.lastDataAt = this.now();
        this.wakeWaiters();
      }),
    );
    // Leadership changes only in a cluster: a new leader fills the shared catalog at once, so that
    // followers (which never ask upstream) can answer.
    this.unsubscribe.push(leader.onChange((isLeader) => (isLeader ? this.lead() : this.stopUpstream())));
    // A cluster member may have won the lock before this subscribed: it leads as if it just had.
    if (leader.isLeader && this.options.engine.cluster) this.lead();
    else if (leader.isLeader) this.startUpstream();
  }

  /** Whether the data is current: the stream is open, or quotes came recently (a follower: as the leader says). */
  get fresh(): boolean {
    const { leader, cluster } = this.options.engine;
    if (cluster && !leader.isLeader) return cluster.connected && cluster.leaderFresh;
    return this.upstreamFresh;
  }

  /** This process's own upstream data is current. */
  get upstreamFresh(): boolean {
    return this.stream?.state === 'open' || this.now() - this.lastDataAt < STALE_AFTER_MS;
  }

  /** Seconds since the last quote data (Infinity before any). */
  get ageSeconds(): number {
    return this.lastDataAt === 0 ? Infinity : Math.max(0, Math.round((this.now() - this.lastDataAt) / 1000));
  }

  /** The symbols served: the upstream catalog within SYMBOLS. Cached; fetched once for all askers. */
  async catalog(): Promise<SymbolInfo[]> {
    const { cache, leader, asks } = this.options.engine;
    let cached = await cache.get('symbols');
    // A follower never asks upstream: it asks the leader to fill the shared catalog (and waits for
    // it when it has none; a stale one is served meanwhile).
    if (!leader.isLeader && !this.closed && (!cached || this.now() - cached.storedAt >= CATALOG_TTL_MS)) {
      const asked = asks.ask('symbols', ASK_TIMEOUT_MS, cached?.storedAt);
      if (!cached) {
        const outcome = await asked;
        cached = await cache.get('symbols');
        if (!cached) throw errorOf(outcome);
      }
    }
    if (cached && (this.now() - cached.storedAt < CATALOG_TTL_MS || !leader.isLeader)) return this.allowed(parseSymbolsBody(JSON.parse(cached.body)));
    this.catalogRequest ??= fetchSymbols({ baseUrl: this.options.baseUrl, apiKey: this.options.apiKey, fetch: this.options.gate.fetchFor('quotes') })
      .then(async (list) => {
        await this.options.engine.cache.set('symbols', { body: JSON.stringify({ data: { symbols: list } }), storedAt: this.now() });
        return list;
      })
      .finally(() => (this.catalogRequest = undefined));
    try {
      return this.allowed(await this.catalogRequest);
    } catch (error) {
      // An old list beats no list.
      if (cached) return this.allowed(parseSymbolsBody(JSON.parse(cached.body)));
      throw error;
    }
  }

  /** Adds symbols to the upstream subscription (one reconnect for a burst of new ones). */
  use(symbols: readonly string[]): void {
    const fresh = symbols.filter((s) => !this.inUse.has(s));
    if (fresh.length === 0) return;
    for (const s of fresh) this.inUse.add(s);
    this.resubscribeTimer ??= setTimeout(() => {
      this.resubscribeTimer = undefined;
      this.stream?.setSymbols([...this.inUse]);
    }, RESUBSCRIBE_DEBOUNCE_MS);
  }

  /** Resolves with the held quotes of `symbols` once all are held, or with what is held after `timeoutMs`. */
  async ready(symbols: readonly string[], timeoutMs: number): Promise<{ id: number; quotes: Quote[] }> {
    const deadline = this.now() + timeoutMs;
    for (;;) {
      const snap = await this.options.engine.state.snapshot(symbols);
      const left = deadline - this.now();
      if (snap.quotes.length === symbols.length || left <= 0 || this.closed) return snap;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.waiters.delete(done);
          resolve();
        };
        const timer = setTimeout(done, left);
        this.waiters.add(done);
      });
    }
  }

  close(): void {
    this.closed = true;
    for (const off of this.unsubscribe) off();
    this.stopUpstream();
    this.wakeWaiters();
  }

  private allowed(list: SymbolInfo[]): SymbolInfo[] {
    const allow = this.options.allow;
    return allow ? list.filter((s) => allow.includes(s.symbol)) : list;
  }

  private wakeWaiters(): void {
    for (const wake of [...this.waiters]) wake();
  }

  private lead(): void {
    this.startUpstream();
    this.catalog().catch((error: unknown) => this.options.log('catalog_failed', { error }));
  }

  private startUpstream(): void {
    if (this.closed || this.stream || this.pollTimer) return;
    if (this.mode === 'poll') return this.schedulePoll(0);
    const { log } = this.options;
    this.stream = new LiveStream({
      url: `${this.options.baseUrl.replace(/\/+$/, '')}/v1/stream`,
      symbols: [...this.inUse],
      apiKey: this.options.apiKey,
      fetch: this.options.gate.fetchFor('quotes'),
      // A failing engine (e.g. a shared store away) is logged, never an unhandled rejection.
      onQuotes: (quotes) => void this.ingest(quotes).catch((error: unknown) => log('ingest_failed', { error })),
      onState: (state) => log('upstream_stream', { state }),
      onError: (error) => log('upstream_stream_error', { code: error.code, status: error.status }),
      onUnknownSymbols: (symbols) => {
        for (const s of symbols) this.inUse.delete(s);
      },
      // A stream that never opens (no stream on this service): poll instead.
      giveUp: (error, failure) => failure.failures >= 3 && !failure.opened && error.code !== 'rate_limited',
      onStop: (error, gaveUp) => {
        this.stream = undefined;
        log('upstream_stream_stopped', { code: error.code, status: error.status, gave_up: gaveUp });
        if (gaveUp) {
          this.mode = 'poll';
          this.schedulePoll(0);
        }
      },
    });
    this.stream.start();
  }

  private stopUpstream(): void {
    this.stream?.close();
    this.stream = undefined;
    clearTimeout(this.pollTimer);
    clearTimeout(this.resubscribeTimer);
    this.pollTimer = undefined;
    this.resubscribeTimer = undefined;
  }

  private schedulePoll(ms: number): void {
    if (this.closed) return;
    this.pollTimer = setTimeout(() => void this.pollOnce(), ms);
  }

  private async pollOnce(): Promise<void> {
    let wait = this.options.budget.pollIntervalMs();
    try {
      const data = await this.client.prices([...this.inUse]);
      await this.ingest(data.quotes);
    } catch (error) {
      if (error instanceof PriceBoardError) {
        this.options.log('upstream_poll_error', { code: error.code, status: error.status });
        if (this.options.gate.halted) return;
        wait = Math.max(wait, error.retryAfterMs ?? 0);
      } else {
        this.options.log('ingest_failed', { error });
      }
    }
    this.pollTimer = undefined;
    if (!this.stream) this.schedulePoll(wait);
  }

  private async ingest(quotes: Quote[]): Promise<void> {
    const receivedAt = this.now();
    this.lastDataAt = receivedAt;
    const { state, broker } = this.options.engine;
    const events = await state.apply(quotes, receivedAt);
    if (events.length > 0) await broker.publish(events);
    this.wakeWaiters();
  }
}
