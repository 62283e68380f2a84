/**
 * The engine of a cluster (REDIS_URL): the same seams as `memory.ts`, shared through Redis.
 * - Broker: PUBLISH/SUBSCRIBE of numbered events; a subscriber that sees a gap in the ids (or
 *   comes back after a disconnection) reads what it missed from the resume buffer first.
 * - QuoteState: latest quotes and a buffer of numbered events in Redis, numbered by the leader
 *   inside a fenced script, so ids are cluster-wide and any process answers a resume.
 * - Cache: history and symbols in Redis, bounded by bytes, frequency-aware, with a TTL (a memory
 *   copy serves while Redis is away).
 * - Asks: a follower's cache miss asked of the leader (`redis-asks.ts`).
 * - BudgetStore: one sliding minute and a day counter for the whole cluster, fenced, and held by
 *   every member so that a Redis that comes back empty gets them back (`redis-budget.ts`).
 * - Leader: `redis-leader.ts`.
 * While Redis is away every process keeps serving from its memory copy; when it returns, each
 * writes back what it holds (without numbering anything: no burst of events, no upstream spend),
 * the budget's counts included, before it may lead.
 */
import { createClient } from '@redis/client';
import { admitQuote, QuoteStore, type Quote } from '../from-src';
import { CACHE_BYTES, entryBytes, MemoryCache, PROTECTED_SHARE } from './memory';
import { RedisAsks } from './redis-asks';
import { RedisBroker } from './redis-broker';
import { RedisLeader } from './redis-leader';
import { RedisBudget } from './redis-budget';
import { APPLY, CACHE_GET, CACHE_SET, SINCE } from './redis-scripts';
import type { Cache, CacheEntry, ClusterStatus, Engine, QuoteState, RelayEvent } from './types';

export interface RedisEngineOptions {
  url: string;
  /** Key prefix: several relays (sites) may share one Redis. */
  prefix?: string;
  /** The leader lock's TTL (at most 5 s). */
  lockTtlMs?: number;
  /** Events kept for `Last-Event-ID` resume. */
  bufferSize?: number;
  /** How long history and symbols stay in Redis. */
  cacheTtlMs?: number;
  /** The byte bound of the history/symbols cache in Redis. */
  cacheBytes?: number;
  onError?: (error: unknown) => void;
}

/** The memory copy of a process, served while Redis is away. */
const LOCAL_CACHE_BYTES = 4 * 1024 * 1024;

function connect(url: string, onError: (error: unknown) => void) {
  const client = createClient({
    url,
    // A command while Redis is away fails at once: the relay serves from memory instead of waiting.
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 1_000) },
  });
  client.on('error', onError);
  return client;
}
type Client = ReturnType<typeof connect>;

function run(client: Client, script: string, keys: string[], args: (string | number)[]): Promise<unknown> {
  return client.eval(script, { keys, arguments: args.map(String) });
}

export class RedisEngine implements Engine, ClusterStatus {
  readonly broker: RedisBroker;
  readonly state: RedisQuoteState;
  readonly cache: RedisCache;
  readonly asks: RedisAsks;
  readonly budget: RedisBudget;
  readonly leader: RedisLeader;
  readonly cluster = this;
  leaderFresh = false;
  feedFresh: () => boolean = () => false;
  /** False from Redis going away until this process has resynchronised with it. */
  private synced = true;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    readonly cmd: Client,
    readonly sub: Client,
    readonly keys: (name: string) => string,
    private readonly options: RedisEngineOptions,
  ) {
    const ttl = options.lockTtlMs ?? 4_000;
    const runner = { run: (script: string, k: string[], a: (string | number)[]) => run(cmd, script, k, a) };
    this.leader = new RedisLeader({ redis: runner, lockKey: keys('leader'), fenceKey: keys('fence'), ttlMs: ttl, onError: options.onError, mayLead: () => this.synced });
    this.state = new RedisQuoteState(this, options.bufferSize ?? 1_000);
    this.broker = new RedisBroker(this);
    this.cache = new RedisCache(this, options.cacheTtlMs ?? 24 * 60 * 60_000, options.cacheBytes ?? CACHE_BYTES);
    this.asks = new RedisAsks(this);
    this.budget = new RedisBudget(this);
    // The leader publishes whether its upstream data is current; followers report it on /healthz.
    this.timer = setInterval(() => void this.shareFreshness(ttl * 2), Math.floor(ttl / 4));
    this.timer.unref();
  }

  static async connect(options: RedisEngineOptions): Promise<RedisEngine> {
    const onError = options.onError ?? (() => {});
    const cmd = connect(options.url, onError);
    const sub = connect(options.url, onError);
    await Promise.all([cmd.connect(), sub.connect()]);
    const prefix = options.prefix ?? 'price-relay:';
    const engine = new RedisEngine(cmd, sub, (name) => prefix + name, options);
    await engine.broker.listen();
    await engine.asks.listen();
    await engine.budget.listen();
    await engine.budget.sync();
    engine.watch();
    return engine;
  }

  get connected(): boolean {
    return this.cmd.isReady && this.sub.isReady;
  }

  run(script: string, keys: string[], args: (string | number)[]): Promise<unknown> {
    return run(this.cmd, script, keys, args);
  }

  /**
   * Redis went away: until this process has written back what it holds, it does not try to lead,
   * so a new leader's first upstream snapshot is merged into the quotes held, not replayed as new.
   */
  private watch(): void {
    const down = (): void => {
      this.synced = false;
      this.leaderFresh = false;
    };
    for (const client of [this.cmd, this.sub]) {
      client.on('end', down);
      client.on('reconnecting', down);
      client.on('ready', () => {
        if (!this.synced && this.connected) void this.rejoin();
      });
    }
  }

  /** Redis came back: write back what this process holds (quotes, budget), then catch up on missed events. */
  private async rejoin(): Promise<void> {
    try {
      await this.state.seed();
      await this.budget.sync();
      await this.broker.catchUp();
      this.synced = true;
    } catch (error) {
      // Redis went again: the next 'ready' retries.
      this.options.onError?.(error);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.leader.close();
    await Promise.all([this.cmd.close(), this.sub.close()].map((p) => p.catch(() => {})));
  }

  private async shareFreshness(ttlMs: number): Promise<void> {
    try {
      if (this.leader.isLeader) {
        this.leaderFresh = this.feedFresh();
        await this.cmd.set(this.keys('fresh'), this.leaderFresh ? '1' : '0', { PX: ttlMs });
      } else {
        this.leaderFresh = (await this.cmd.get(this.keys('fresh'))) === '1';
      }
    } catch {
      this.leaderFresh = false;
    }
  }
}

export class RedisQuoteState implements QuoteState {
  /** What this process holds: served while Redis is away, written back when it returns. */
  private readonly local = new QuoteStore();
  private localSeq = 0;

  constructor(
    private readonly engine: RedisEngine,
    private readonly bufferSize: number,
  ) {}

  /** Events that reached this process (through the broker). */
  remember(events: readonly RelayEvent[]): void {
    this.local.apply(events.map((e) => e.quote));
    this.localSeq = Math.max(this.localSeq, events[events.length - 1]?.id ?? 0);
  }

  async apply(quotes: readonly Quote[], receivedAt: number): Promise<RelayEvent[]> {
    // One per symbol, the newest, as the memory engine numbers them.
    // Dates read as the widgets read them (src/model/quote-store.ts): unreadable ones dropped, far
    // future ones taken as now; a later quote of the same instant is a correction, so it wins here too.
    const newest = new Map<string, { quote: Quote; time: number }>();
    const now = Date.now();
    for (const given of quotes) {
      const admitted = admitQuote(given, now);
      if (admitted && admitted.time >= (newest.get(admitted.quote.symbol)?.time ?? -Infinity)) newest.set(admitted.quote.symbol, admitted);
    }
    const items = [...newest.values()];
    const fence = this.engine.leader.fence;
    if (!fence) throw new Error('not the leader: quotes are numbered by the leader only');
    let ids: number[];
    try {
      ids = (await this.runApply(fence, receivedAt, items)) as number[];
    } catch (error) {
      if (String(error).includes('FENCED')) this.engine.leader.lost();
      throw error;
    }
    return items.flatMap(({ quote }, i) => (ids[i] ? [{ id: ids[i]!, quote, receivedAt }] : []));
  }

  /** Writes back the quotes held here (Redis restarted empty), numbering nothing. */
  async seed(): Promise<void> {
    const items = this.local.all().map((quote) => ({ quote, time: Date.parse(quote.updated_at) }));
    await this.runApply('', 0, items);
  }

  async snapshot(symbols: readonly string[]): Promise<{ id: number; quotes: Quote[] }> {
    if (symbols.length === 0) return { id: this.localSeq, quotes: [] };
    try {
      const { cmd, keys } = this.engine;
      const [seq, jsons] = (await cmd.multi().get(keys('seq')).hmGet(keys('quotes'), [...symbols]).exec()) as unknown as [string | null, (string | null)[]];
      const quotes = jsons.filter((j): j is string => j !== null).map((j) => JSON.parse(j) as Quote);
      this.local.apply(quotes);
      this.localSeq = Math.max(this.localSeq, Number(seq ?? 0));
      return { id: Number(seq ?? 0), quotes };
    } catch {
      // Redis is away: what this process last knew.
      const quotes = symbols.map((s) => this.local.get(s)).filter((q): q is Quote => q !== undefined);
      return { id: this.localSeq, quotes };
    }
  }

  /** `symbols` undefined: every symbol (the broker's catch-up). */
  async since(lastId: number, symbols: ReadonlySet<string> | undefined): Promise<RelayEvent[] | undefined> {
    if (!Number.isSafeInteger(lastId)) return undefined;
    const { keys } = this.engine;
    const [seq, oldest, ...raw] = (await this.engine.run(SINCE, [keys('seq'), keys('buffer')], [lastId])) as [number, number, ...string[]];
    const first = oldest || seq + 1;
    if (lastId > seq || lastId < first - 1) return undefined;
    const events = raw.map((r) => JSON.parse(r) as RelayEvent);
    return symbols ? events.filter((e) => symbols.has(e.quote.symbol)) : events;
  }

  private runApply(fence: string, receivedAt: number, items: { quote: Quote; time: number }[]): Promise<unknown> {
    const { keys } = this.engine;
    const args: (string | number)[] = [fence, receivedAt, this.localSeq, this.bufferSize];
    for (const { quote, time } of items) args.push(quote.symbol, time, JSON.stringify(quote));
    return this.engine.run(APPLY, [keys('leader'), keys('seq'), keys('times'), keys('quotes'), keys('buffer')], args);
  }
}

/**
 * The history/symbols cache in Redis, with `MemoryCache`'s policy run as a script (bounded by
 * bytes, frequency-aware, least recently used first) and a TTL per entry; a small memory copy
 * serves while Redis is away.
 */
export class RedisCache implements Cache {
  private readonly local = new MemoryCache(LOCAL_CACHE_BYTES);

  constructor(
    private readonly engine: RedisEngine,
    private readonly ttlMs: number,
    private readonly maxBytes: number,
  ) {}

  private script(script: string, key: string, more: (string | number)[]): Promise<unknown> {
    const { keys } = this.engine;
    const sets = [keys('cache-lru:probation'), keys('cache-lru:protected'), keys('cache-lru:sizes'), keys('cache-lru:stats')];
    return this.engine.run(script, sets, [keys('cache:'), key, this.maxBytes, PROTECTED_SHARE, ...more]);
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    return this.read(key, () => this.script(CACHE_GET, key, []) as Promise<string | null>);
  }

  async peek(key: string): Promise<CacheEntry | undefined> {
    return this.read(key, () => this.engine.cmd.get(this.engine.keys(`cache:${key}`)));
  }

  private async read(key: string, fetch: () => Promise<string | null>): Promise<CacheEntry | undefined> {
    try {
      const raw = await fetch();
      const entry = raw === null ? undefined : (JSON.parse(raw) as CacheEntry);
      if (entry) await this.local.set(key, entry);
      return entry;
    } catch {
      return this.local.peek(key);
    }
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    await this.local.set(key, entry);
    const value = JSON.stringify(entry);
    const bytes = entryBytes(key, { body: value, storedAt: entry.storedAt });
    await this.script(CACHE_SET, key, [value, bytes, this.ttlMs]).catch(() => {});
  }
}
