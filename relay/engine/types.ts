/**
 * The seams of the relay's shared state, so that one process (memory) and a cluster (Redis, issue
 * 10) run the same relay code: as Centrifugo splits its broker and engine, each job is one small
 * interface, its in-process implementation (`memory-*.ts`) beside its Redis twin (`redis-*.ts`).
 * Every method that a networked implementation would have to wait on returns a Promise.
 */
import type { Quote } from '../from-src';

/** One change as fanned out to visitors. `id` comes from one rising sequence (the SSE `id:`). */
export interface RelayEvent {
  id: number;
  quote: Quote;
  /** When the relay received it from upstream (epoch ms): fan-out lag is measured from here. */
  receivedAt: number;
}

/** "Publish to every process": each process's fan-out subscribes and writes to its own clients. */
export interface Broker {
  publish(events: readonly RelayEvent[]): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(listener: (events: readonly RelayEvent[]) => void): () => void;
}

/** The latest quote per symbol and a bounded buffer of recent changes for `Last-Event-ID` resume. */
export interface QuoteState {
  /**
   * Merges quotes by `updated_at` (an older one never wins; the same one with other content is a
   * correction and wins), numbers the ones that changed
   * something and keeps them for resume. Returns those events (to publish).
   */
  apply(quotes: readonly Quote[], receivedAt: number): Promise<RelayEvent[]>;
  /** The held quotes of `symbols` (in that order, missing ones left out) and the current id. */
  snapshot(symbols: readonly string[]): Promise<{ id: number; quotes: Quote[] }>;
  /** The changes of `symbols` after `lastId`, or undefined when they are not all still held. */
  since(lastId: number, symbols: ReadonlySet<string>): Promise<RelayEvent[] | undefined>;
}

/** Five minutes of one symbol's changes, as the day's record keeps them (`record.ts`). */
export interface RecordedBar {
  /** The period's start, epoch ms. */
  t: number;
  /** Ids of its first and last change: merges keep open and close in the order of the changes. */
  first: number;
  last: number;
  /** Prices as the service's decimal strings. */
  open: string;
  high: string;
  low: string;
  close: string;
}

/** The changes of the last 24 h per symbol, bounded (`record.ts`): what `days=1` is answered from. */
export interface DayRecord {
  /** Records numbered changes (the leader, as it relays them). */
  add(events: readonly RelayEvent[]): Promise<void>;
  /** The bars of `symbol` that start at or after `from` (epoch ms), oldest first. */
  bars(symbol: string, from: number): Promise<RecordedBar[]>;
}

/** One cached answer of the upstream (history, symbols). */
export interface CacheEntry {
  /** The JSON body as sent downstream. */
  body: string;
  /** Epoch ms when it was fetched: fresh for a while, then served stale while upstream cannot answer. */
  storedAt: number;
}

/**
 * The history/symbols cache: bounded by bytes and frequency-aware (an entry hit again is kept over
 * entries asked for once; least recently used go first), entries kept past their freshness so a
 * stale one can be served when upstream cannot answer.
 */
export interface Cache {
  /** A visitor's read: counts as a use (a hit promotes the entry). */
  get(key: string): Promise<CacheEntry | undefined>;
  /** A read that is no use (re-reads while waiting, a check before filling): changes nothing. */
  peek(key: string): Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): Promise<void>;
}

/** How the leader answered an ask: the key is filled, or the upstream's error as the service shapes it. */
export type AskOutcome =
  | { filled: true }
  | { filled: false; error: { code: string; status?: number; retryAfterMs?: number; serviceCode?: string } };

/**
 * A follower's cache miss, asked of the leader (only the leader spends upstream): the leader fills
 * the cache key (history, symbols) with its usual budget rules and says so. One process always
 * leads, so the memory engine never asks.
 */
export interface Asks {
  /**
   * Asks the leader to fill `key` (one ask per key however many wait); undefined after `timeoutMs`
   * without an answer. `held`: the `storedAt` of the stale copy the asker holds, if any.
   */
  ask(key: string, timeoutMs: number, held?: number): Promise<AskOutcome | undefined>;
  /** On the leader: `fill` answers the asks of every member. Returns the unsubscribe function. */
  serve(fill: (key: string) => Promise<AskOutcome>): () => void;
  /**
   * A follower's visitors asked for `symbols` (catalog ids): the leader's upstream is to carry them,
   * and so is every later leader's. Costs no upstream request; fails silently (Redis away: the
   * next ask of the same symbols brings them).
   */
  want(symbols: readonly string[]): void;
  /**
   * On the leader: `listener` gets the symbols followers want, as they ask, and all of them when
   * this member takes the lead. Returns the unsubscribe function.
   */
  onWanted(listener: (symbols: string[]) => void): () => void;
}

/** A budget check: allowed (and counted), or refused with when to try again. */
export type Take = { ok: true } | { ok: false; retryAfterMs: number; fenced?: boolean };

/** Per-minute (sliding 60 s, as the service counts) and per-day limits for one spend. */
export interface Limits {
  perMinute: number;
  /** null: no daily cap. */
  perDay: number | null;
}

/** The upstream budget counters: shared by every process of a cluster. */
export interface BudgetStore {
  /** Counts one upstream request at `now` if it stays within `limits`; `day` names the calendar day. */
  take(now: number, day: string, limits: Limits): Promise<Take>;
  /** Requests counted in the 60 s before `now` and on `day`. */
  spent(now: number, day: string): Promise<{ minute: number; day: number }>;
  /**
   * The relay's limits (its plan after the share), told once at start. A cluster keeps the first
   * member's and counts by its own clock: a member of another plan neither spends nor leads.
   */
  setLimits?(limits: Limits): void;
}

/** Who spends upstream: exactly one process at a time. */
export interface Leader {
  readonly isLeader: boolean;
  /** Called when leadership is gained or lost; returns the unsubscribe function. */
  onChange(listener: (isLeader: boolean) => void): () => void;
  close(): Promise<void>;
}

/** A cluster's shared store, as /healthz and /metrics report it. */
export interface ClusterStatus {
  /** Whether the shared store answers. */
  readonly connected: boolean;
  /** Whether the leader's upstream data is current, as it last published it. */
  readonly leaderFresh: boolean;
  /** Set by the relay: its own upstream freshness, published while it leads. */
  feedFresh: () => boolean;
}

/** Everything the relay shares, as one bundle handed to it. */
export interface Engine {
  broker: Broker;
  state: QuoteState;
  record: DayRecord;
  cache: Cache;
  asks: Asks;
  budget: BudgetStore;
  leader: Leader;
  /** Absent for one process (memory): always connected, always leading. */
  cluster?: ClusterStatus;
  /**
   * Absent for one process (it counts its own). A cluster's store for the per-visitor request
   * limits (a node-redis client for rate-limiter-flexible, and a key prefix), so that a visitor is
   * limited as one across processes.
   */
  requestCounts?: { client: object; keyPrefix: string };
  close(): Promise<void>;
}
