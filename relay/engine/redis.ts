/**
 * The engine of a cluster (REDIS_URL): the same seams as `memory.ts`, shared through Redis.
 * - Broker: PUBLISH/SUBSCRIBE of numbered events; a subscriber that sees a gap in the ids (or
 *   comes back after a disconnection) reads what it missed from the resume buffer first.
 * - QuoteState: latest quotes and a buffer of numbered events in Redis, numbered by the leader
 *   inside a fenced script, so ids are cluster-wide and any process answers a resume.
 * - DayRecord: the last 24 h of changes per symbol as bars in Redis, written by the leader, read by
 *   any member (`redis-record.ts`); each member's memory copy serves while Redis is away.
 * - Cache: history and symbols in Redis, bounded by bytes, frequency-aware, with a TTL (a memory
 *   copy serves while Redis is away).
 * - Asks: a follower's cache miss, and its visitors' symbols, asked of the leader (`redis-asks.ts`).
 * - BudgetStore: one sliding minute and a day counter for the whole cluster, fenced, by Redis's
 *   clock and the first member's plan, and held by every member so that a Redis that comes back
 *   empty gets them back (`redis-budget.ts`).
 * - Leader: `redis-leader.ts`.
 * - Request counts: the per-visitor request limits count in Redis (`requestCounts`), so a visitor
 *   is limited as one across members.
 * While Redis is away every process keeps serving from its memory copy; when it returns, each
 * writes back what it holds (without numbering anything: no burst of events, no upstream spend),
 * the budget's counts included, before it may lead.
 */
import { CACHE_BYTES } from './memory-cache';
import { RedisAsks } from './redis-asks';
import { RedisBroker } from './redis-broker';
import { RedisBudget } from './redis-budget';
import { RedisCache } from './redis-cache';
import { RedisLeader } from './redis-leader';
import { RedisLink, type RedisClient } from './redis-link';
import { RedisRecord } from './redis-record';
import { RedisQuoteState } from './redis-state';
import type { ClusterStatus, Engine } from './types';

/** How long a member's intact mark lives unless renewed (every second while it is synced). */
const INTACT_MS = 60_000;

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
  /** One line per notable cluster event (a member whose plan differs from the cluster's). */
  log?: (event: string, fields: Record<string, unknown>) => void;
}

export class RedisEngine implements Engine, ClusterStatus {
  readonly broker: RedisBroker;
  readonly state: RedisQuoteState;
  readonly record: RedisRecord;
  readonly cache: RedisCache;
  readonly asks: RedisAsks;
  readonly budget: RedisBudget;
  readonly leader: RedisLeader;
  readonly cluster = this;
  readonly requestCounts: { client: RedisClient; keyPrefix: string };
  leaderFresh = false;
  feedFresh: () => boolean = () => false;
  /** False from Redis going away until this process has resynchronised with it. */
  #synced = true;
  /** Connections lost so far (a rejoin that one interrupts does not count as synced). */
  #drops = 0;
  #rejoining = false;
  #closed = false;
  readonly #timer: NodeJS.Timeout;

  readonly #link: RedisLink;
  readonly #options: RedisEngineOptions;

  private constructor(link: RedisLink, options: RedisEngineOptions) {
    this.#link = link;
    this.#options = options;
    const ttl = options.lockTtlMs ?? 4_000;
    const { keys } = link;
    this.requestCounts = { client: link.cmd, keyPrefix: keys('rl') };
    this.leader = new RedisLeader({
      redis: link,
      lockKey: keys('leader'),
      fenceKey: keys('fence'),
      intactKey: keys('intact'),
      ttlMs: ttl,
      onError: options.onError,
      // Not while resynchronising, nor with another plan than the cluster's.
      mayLead: () => this.#synced && this.budget.mayLead,
    });
    this.state = new RedisQuoteState(link, this.leader, options.bufferSize ?? 1_000);
    this.broker = new RedisBroker(link, this.state);
    this.record = new RedisRecord(link);
    this.broker.subscribe((events) => this.record.remember(events));
    this.cache = new RedisCache(link, options.cacheTtlMs ?? 24 * 60 * 60_000, options.cacheBytes ?? CACHE_BYTES);
    this.asks = new RedisAsks(link, this.leader, this.cache);
    this.budget = new RedisBudget(link, this.leader, options.log);
    // The leader publishes whether its upstream data is current; followers report it on /healthz.
    // And a process back in touch with Redis but not synced rejoins, whatever event it missed; one
    // in touch reads what it did not hear.
    this.#timer = setInterval(
      () => {
        void this.#shareFreshness(ttl * 2);
        void this.#checkIntact();
        this.#rejoinIfBack();
        void this.#collectUnheard();
        // Redis away: the next tick.
        void this.asks.collectWanted().catch(() => {});
        void this.budget.agree().catch(() => {});
      },
      Math.floor(ttl / 4),
    );
    this.#timer.unref();
  }

  static async connect(options: RedisEngineOptions): Promise<RedisEngine> {
    const link = await RedisLink.connect(options.url, options.prefix ?? 'price-relay:', options.onError ?? (() => {}));
    const engine = new RedisEngine(link, options);
    await engine.broker.listen();
    await engine.asks.listen();
    await engine.budget.listen();
    await engine.budget.sync();
    await engine.#markIntact();
    engine.#watch();
    return engine;
  }

  /** The command connection. */
  get cmd(): RedisClient {
    return this.#link.cmd;
  }

  /** The full name of one of the relay's keys. */
  keys(name: string): string {
    return this.#link.keys(name);
  }

  get connected(): boolean {
    return this.#link.connected;
  }

  /**
   * Redis went away: until this process has written back what it holds, it does not try to lead,
   * so a new leader's first upstream snapshot is merged into the quotes held, not replayed as new.
   */
  #watch(): void {
    const down = (): void => this.#lost();
    const back = (): void => this.#rejoinIfBack();
    for (const client of [this.#link.cmd, this.#link.sub]) {
      client.on('end', down);
      client.on('reconnecting', down);
      client.on('ready', back);
    }
    // Redis answers again after a stall (the link made its connection again meanwhile).
    this.#link.onBack = back;
  }

  /** What this process wrote back may be gone from Redis: it may not lead until it has rejoined. */
  #lost(): void {
    this.#drops++;
    this.#synced = false;
    this.leaderFresh = false;
  }

  /**
   * This member has written back what it holds (RedisLeaderOptions.intactKey): its own mark, for
   * a minute, renewed every second while it is synced. A member that joins an emptied Redis sets
   * only its own: the others still find theirs gone and write back what they hold.
   */
  async #markIntact(): Promise<void> {
    await this.#link.cmd.set(this.leader.intactKey, '1', { PX: INTACT_MS });
  }

  /**
   * Redis lost its data with the connections up (a FLUSHALL, a failover to an empty replica): this
   * member's intact mark is gone. Rejoined as after a restart: what this process holds is written
   * back before it may lead again, so the budget of the minute and the day survives.
   */
  async #checkIntact(): Promise<void> {
    if (!this.#synced || !this.connected) return;
    const drops = this.#drops;
    const intact = await this.#link.cmd.pExpire(this.leader.intactKey, INTACT_MS).catch(() => 1);
    if (intact === 0 && drops === this.#drops && this.#synced) {
      this.#options.onError?.(new Error('Redis lost its data: writing back what this process holds'));
      this.#lost();
      this.#rejoinIfBack();
    }
  }

  /** Rejoins once Redis is back, unless synced, closed or rejoining (also each second: no missed event keeps it out). */
  #rejoinIfBack(): void {
    if (this.#synced || this.#closed || this.#rejoining || !this.connected) return;
    this.#rejoining = true;
    void this.#rejoin().finally(() => (this.#rejoining = false));
  }

  /** Redis came back: write back what this process holds (quotes, budget, record), then catch up on missed events. */
  async #rejoin(): Promise<void> {
    const drops = this.#drops;
    try {
      await this.state.seed();
      await this.budget.sync();
      await this.record.seed();
      await this.broker.catchUp();
      // Lost again meanwhile: not synced; the next rejoin sets it.
      if (drops !== this.#drops) return;
      await this.#markIntact();
      if (drops === this.#drops) this.#synced = true;
    } catch (error) {
      // Redis went again: retried once it is back.
      if (!this.#closed) this.#options.onError?.(error);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.leader.close();
    await this.#link.close();
  }

  /** What this process has not heard that Redis numbered (see RedisBroker.collectUnheard). */
  async #collectUnheard(): Promise<void> {
    if (!this.#synced || !this.connected) return; // the rejoin catches up
    await this.broker.collectUnheard().catch(() => {}); // Redis away: the rejoin catches up
  }

  async #shareFreshness(ttlMs: number): Promise<void> {
    try {
      if (this.leader.isLeader) {
        this.leaderFresh = this.feedFresh();
        await this.#link.cmd.set(this.#link.keys('fresh'), this.leaderFresh ? '1' : '0', { PX: ttlMs });
      } else {
        this.leaderFresh = (await this.#link.cmd.get(this.#link.keys('fresh'))) === '1';
      }
    } catch {
      this.leaderFresh = false;
    }
  }
}
