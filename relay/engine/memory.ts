/** The engine of one process: everything in memory, this process always the leader. */
import { QuoteStore, type Quote } from '../from-src';
import type { AskOutcome, Asks, Broker, BudgetStore, Cache, CacheEntry, Engine, Leader, Limits, QuoteState, RelayEvent, Take } from './types';

export class MemoryBroker implements Broker {
  private readonly listeners = new Set<(events: readonly RelayEvent[]) => void>();

  async publish(events: readonly RelayEvent[]): Promise<void> {
    for (const listener of this.listeners) listener(events);
  }

  subscribe(listener: (events: readonly RelayEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

export class MemoryQuoteState implements QuoteState {
  private readonly store = new QuoteStore();
  private readonly ring: RelayEvent[] = [];
  private seq = 0;

  constructor(private readonly bufferSize = 1_000) {}

  async apply(quotes: readonly Quote[], receivedAt: number): Promise<RelayEvent[]> {
    const events = this.store.apply(quotes).map((quote) => ({ id: ++this.seq, quote, receivedAt }));
    this.ring.push(...events);
    if (this.ring.length > this.bufferSize) this.ring.splice(0, this.ring.length - this.bufferSize);
    return events;
  }

  async snapshot(symbols: readonly string[]): Promise<{ id: number; quotes: Quote[] }> {
    const quotes = symbols.map((s) => this.store.get(s)).filter((q): q is Quote => q !== undefined);
    return { id: this.seq, quotes };
  }

  async since(lastId: number, symbols: ReadonlySet<string>): Promise<RelayEvent[] | undefined> {
    const oldest = this.ring[0]?.id ?? this.seq + 1;
    if (!Number.isSafeInteger(lastId) || lastId > this.seq || lastId < oldest - 1) return undefined;
    return this.ring.filter((e) => e.id > lastId && symbols.has(e.quote.symbol));
  }
}

/** Bounded by entries and by bytes (a year of history is about 100 KB): the oldest go first. */
export class MemoryCache implements Cache {
  // A Map keeps insertion order: re-inserting on set makes the first key the oldest.
  private readonly entries = new Map<string, CacheEntry>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 2_000,
    private readonly maxBytes = 32 * 1024 * 1024,
  ) {}

  async get(key: string): Promise<CacheEntry | undefined> {
    return this.entries.get(key);
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    this.remove(key);
    this.entries.set(key, entry);
    this.bytes += entry.body.length;
    while (this.entries.size > this.maxEntries || (this.bytes > this.maxBytes && this.entries.size > 1)) {
      this.remove(this.entries.keys().next().value!);
    }
  }

  private remove(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.bytes -= old.body.length;
    this.entries.delete(key);
  }
}

export class MemoryBudget implements BudgetStore {
  /** Times of the requests of the last 60 s, oldest first (at most the per-minute limit). */
  private stamps: number[] = [];
  private day = '';
  private dayCount = 0;

  async take(now: number, day: string, limits: Limits): Promise<Take> {
    this.prune(now, day);
    if (this.stamps.length >= limits.perMinute) {
      const frees = this.stamps[this.stamps.length - limits.perMinute]! + 60_000;
      return { ok: false, retryAfterMs: Math.max(1, frees - now) };
    }
    if (limits.perDay !== null && this.dayCount >= limits.perDay) return { ok: false, retryAfterMs: 60 * 60_000 };
    this.stamps.push(now);
    this.dayCount += 1;
    return { ok: true };
  }

  async spent(now: number, day: string): Promise<{ minute: number; day: number }> {
    this.prune(now, day);
    return { minute: this.stamps.length, day: this.dayCount };
  }

  private prune(now: number, day: string): void {
    const first = this.stamps.findIndex((t) => t > now - 60_000);
    this.stamps = first < 0 ? [] : this.stamps.slice(first);
    if (day !== this.day) {
      this.day = day;
      this.dayCount = 0;
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
}

/** One process is always the leader. */
export class SoloLeader implements Leader {
  readonly isLeader = true;
  onChange(): () => void {
    return () => {};
  }
  async close(): Promise<void> {}
}

export function createMemoryEngine(options: { bufferSize?: number; cacheEntries?: number } = {}): Engine {
  return {
    broker: new MemoryBroker(),
    state: new MemoryQuoteState(options.bufferSize),
    cache: new MemoryCache(options.cacheEntries),
    asks: new NoAsks(),
    budget: new MemoryBudget(),
    leader: new SoloLeader(),
    async close() {},
  };
}
