/** The engine of one process: everything in memory, this process always the leader. */
import { QuoteStore, type Quote } from '../from-src';
import { MemoryRecord } from './record';
import type {
  AskOutcome,
  Asks,
  Broker,
  BudgetStore,
  Cache,
  CacheEntry,
  Engine,
  Leader,
  Limits,
  QuoteState,
  RelayEvent,
  Take,
} from './types';

export class MemoryBroker implements Broker {
  readonly #listeners = new Set<(events: readonly RelayEvent[]) => void>();

  async publish(events: readonly RelayEvent[]): Promise<void> {
    for (const listener of this.#listeners) listener(events);
  }

  subscribe(listener: (events: readonly RelayEvent[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

export class MemoryQuoteState implements QuoteState {
  readonly #store = new QuoteStore();
  readonly #ring: RelayEvent[] = [];
  #seq = 0;

  readonly #bufferSize: number;

  constructor(bufferSize = 1_000) {
    this.#bufferSize = bufferSize;
  }

  async apply(quotes: readonly Quote[], receivedAt: number): Promise<RelayEvent[]> {
    const events = this.#store.apply(quotes).map((quote) => ({ id: ++this.#seq, quote, receivedAt }));
    this.#ring.push(...events);
    if (this.#ring.length > this.#bufferSize) this.#ring.splice(0, this.#ring.length - this.#bufferSize);
    return events;
  }

  async snapshot(symbols: readonly string[]): Promise<{ id: number; quotes: Quote[] }> {
    const quotes = symbols.map((s) => this.#store.get(s)).filter((q): q is Quote => q !== undefined);
    return { id: this.#seq, quotes };
  }

  async since(lastId: number, symbols: ReadonlySet<string>): Promise<RelayEvent[] | undefined> {
    const oldest = this.#ring[0]?.id ?? this.#seq + 1;
    if (!Number.isSafeInteger(lastId) || lastId > this.#seq || lastId < oldest - 1) return undefined;
    return this.#ring.filter((e) => e.id > lastId && symbols.has(e.quote.symbol));
  }
}

/** What an entry costs the byte bound: its key and body as UTF-8, plus a fixed overhead. */
export function entryBytes(key: string, entry: CacheEntry): number {
  return Buffer.byteLength(key) + Buffer.byteLength(entry.body) + ENTRY_OVERHEAD;
}
/** Bytes counted per entry beside its key and body (the Map slots and the entry object). */
const ENTRY_OVERHEAD = 100;
/** The default byte bound of the history/symbols cache. */
export const CACHE_BYTES = 32 * 1024 * 1024;
/** The share of the bytes kept for entries hit again after they were stored. */
export const PROTECTED_SHARE = 0.8;

/**
 * A segmented LRU bounded by bytes (DESIGN.md §7.1): an entry starts on probation; a hit there
 * moves it to the protected segment (at most `PROTECTED_SHARE` of the bytes, its least recently
 * used demoted back to probation). Eviction takes probation's least recently used first, so keys
 * asked for once (a botnet's spans) only churn probation and never evict what visitors hit again.
 * The Redis engine runs the same policy as a script (`redis-scripts.ts`, `CACHE_*`).
 */
export class MemoryCache implements Cache {
  // A Map keeps insertion order: re-inserting on a hit makes the first key the least recently used.
  readonly #probation = new Map<string, { entry: CacheEntry; bytes: number }>();
  readonly #kept = new Map<string, { entry: CacheEntry; bytes: number }>();
  #probationBytes = 0;
  #keptBytes = 0;

  readonly #maxBytes: number;

  constructor(maxBytes = CACHE_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** Bytes held (keys, bodies and overhead). */
  get bytes(): number {
    return this.#probationBytes + this.#keptBytes;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const kept = this.#kept.get(key);
    if (kept) {
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      return kept.entry;
    }
    const held = this.#probation.get(key);
    if (!held) return undefined;
    this.#probation.delete(key);
    this.#probationBytes -= held.bytes;
    this.#kept.set(key, held);
    this.#keptBytes += held.bytes;
    this.#balance();
    return held.entry;
  }

  async peek(key: string): Promise<CacheEntry | undefined> {
    return (this.#kept.get(key) ?? this.#probation.get(key))?.entry;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    const wasKept = this.#kept.has(key);
    this.#remove(key);
    const bytes = entryBytes(key, entry);
    // Larger than the whole cache: not held (it would evict everything and still not fit).
    if (bytes > this.#maxBytes) return;
    if (wasKept) {
      this.#kept.set(key, { entry, bytes });
      this.#keptBytes += bytes;
    } else {
      this.#probation.set(key, { entry, bytes });
      this.#probationBytes += bytes;
    }
    this.#balance();
  }

  #balance(): void {
    while (this.#keptBytes > this.#maxBytes * PROTECTED_SHARE && this.#kept.size > 0) {
      const [key, held] = this.#kept.entries().next().value!;
      this.#kept.delete(key);
      this.#keptBytes -= held.bytes;
      this.#probation.set(key, held);
      this.#probationBytes += held.bytes;
    }
    while (this.bytes > this.#maxBytes) {
      const from = this.#probation.size > 0 ? this.#probation : this.#kept;
      this.#remove(from.keys().next().value!);
    }
  }

  #remove(key: string): void {
    for (const [segment, isKept] of [
      [this.#probation, false],
      [this.#kept, true],
    ] as const) {
      const held = segment.get(key);
      if (!held) continue;
      segment.delete(key);
      if (isKept) this.#keptBytes -= held.bytes;
      else this.#probationBytes -= held.bytes;
    }
  }
}

export class MemoryBudget implements BudgetStore {
  /** Times of the requests of the last 60 s, oldest first (at most the per-minute limit). */
  #stamps: number[] = [];
  #day = '';
  #dayCount = 0;

  async take(now: number, day: string, limits: Limits): Promise<Take> {
    this.#prune(now, day);
    if (this.#stamps.length >= limits.perMinute) {
      const frees = this.#stamps[this.#stamps.length - limits.perMinute]! + 60_000;
      return { ok: false, retryAfterMs: Math.max(1, frees - now) };
    }
    if (limits.perDay !== null && this.#dayCount >= limits.perDay) return { ok: false, retryAfterMs: 60 * 60_000 };
    this.#stamps.push(now);
    this.#dayCount += 1;
    return { ok: true };
  }

  async spent(now: number, day: string): Promise<{ minute: number; day: number }> {
    this.#prune(now, day);
    return { minute: this.#stamps.length, day: this.#dayCount };
  }

  #prune(now: number, day: string): void {
    const first = this.#stamps.findIndex((t) => t > now - 60_000);
    this.#stamps = first < 0 ? [] : this.#stamps.slice(first);
    if (day !== this.#day) {
      this.#day = day;
      this.#dayCount = 0;
    }
  }
}

/** One process is always the leader: nobody else to ask. */
export class NoAsks implements Asks {
  async ask(): Promise<AskOutcome | undefined> {
    return undefined;
  }
  serve(): () => void {
    return () => {};
  }
  want(): void {}
  onWanted(): () => void {
    return () => {};
  }
}

/** One process is always the leader. */
export class SoloLeader implements Leader {
  readonly isLeader = true;
  onChange(): () => void {
    return () => {};
  }
  async close(): Promise<void> {}
}

export function createMemoryEngine(options: { bufferSize?: number; cacheBytes?: number } = {}): Engine {
  return {
    broker: new MemoryBroker(),
    state: new MemoryQuoteState(options.bufferSize),
    record: new MemoryRecord(),
    cache: new MemoryCache(options.cacheBytes),
    asks: new NoAsks(),
    budget: new MemoryBudget(),
    leader: new SoloLeader(),
    async close() {},
  };
}
