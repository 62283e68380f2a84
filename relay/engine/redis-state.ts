/**
 * The cluster's QuoteState: the latest quotes and a buffer of numbered events in Redis, numbered by
 * the leader inside a fenced script, so ids are cluster-wide and any process answers a resume. A
 * memory copy of what this process has seen serves while Redis is away and is written back
 * (numbering nothing) when it returns.
 */
import { admitQuote, QuoteStore, type Quote } from '../from-src';
import type { RedisLeader } from './redis-leader';
import type { RedisLink } from './redis-link';
import { APPLY, SINCE } from './redis-scripts';
import type { QuoteState, RelayEvent } from './types';

export class RedisQuoteState implements QuoteState {
  /** What this process holds: served while Redis is away, written back when it returns. */
  readonly #local = new QuoteStore();
  #localSeq = 0;

  readonly #link: RedisLink;
  readonly #leader: Pick<RedisLeader, 'fence' | 'lost'>;
  readonly #bufferSize: number;

  constructor(
    link: RedisLink,
    /** The leader numbers quotes, fenced by its lock. */
    leader: Pick<RedisLeader, 'fence' | 'lost'>,
    bufferSize: number,
  ) {
    this.#link = link;
    this.#leader = leader;
    this.#bufferSize = bufferSize;
  }

  /** Events that reached this process (through the broker). */
  remember(events: readonly RelayEvent[]): void {
    this.#local.apply(events.map((e) => e.quote));
    this.#localSeq = Math.max(this.#localSeq, events[events.length - 1]?.id ?? 0);
  }

  async apply(quotes: readonly Quote[], receivedAt: number): Promise<RelayEvent[]> {
    // One per symbol, the newest, as the memory engine numbers them.
    // Dates read as the widgets read them (src/model/quote-store.ts): unreadable ones dropped, far
    // future ones taken as now; a later quote of the same instant is a correction, so it wins here too.
    const newest = new Map<string, { quote: Quote; time: number }>();
    const now = Date.now();
    for (const given of quotes) {
      const admitted = admitQuote(given, now);
      if (admitted && admitted.time >= (newest.get(admitted.quote.symbol)?.time ?? -Infinity))
        newest.set(admitted.quote.symbol, admitted);
    }
    const items = [...newest.values()];
    const fence = this.#leader.fence;
    if (!fence) throw new Error('not the leader: quotes are numbered by the leader only');
    let ids: number[];
    try {
      ids = (await this.#runApply(fence, receivedAt, items)) as number[];
    } catch (error) {
      if (String(error).includes('FENCED')) this.#leader.lost();
      throw error;
    }
    return items.flatMap(({ quote }, i) => (ids[i] ? [{ id: ids[i]!, quote, receivedAt }] : []));
  }

  /** Writes back the quotes held here (Redis restarted empty), numbering nothing. */
  async seed(): Promise<void> {
    const items = this.#local.all().map((quote) => ({ quote, time: Date.parse(quote.updated_at) }));
    await this.#runApply('', 0, items);
  }

  async snapshot(symbols: readonly string[]): Promise<{ id: number; quotes: Quote[] }> {
    if (symbols.length === 0) return { id: this.#localSeq, quotes: [] };
    // Redis away: what this process last knew. (Asked anyway, a transaction would wait for a
    // connection being made: node-redis queues it, unlike a single command.)
    const held = () => ({
      id: this.#localSeq,
      quotes: symbols.map((s) => this.#local.get(s)).filter((q): q is Quote => q !== undefined),
    });
    if (!this.#link.connected) return held();
    try {
      const { cmd, keys } = this.#link;
      const [seq, jsons] = (await cmd
        .multi()
        .get(keys('seq'))
        .hmGet(keys('quotes'), [...symbols])
        .exec()) as unknown as [string | null, (string | null)[]];
      const quotes = jsons.filter((j): j is string => j !== null).map((j) => JSON.parse(j) as Quote);
      this.#local.apply(quotes);
      this.#localSeq = Math.max(this.#localSeq, Number(seq ?? 0));
      return { id: Number(seq ?? 0), quotes };
    } catch {
      return held();
    }
  }

  /** `symbols` undefined: every symbol (the broker's catch-up). */
  async since(lastId: number, symbols: ReadonlySet<string> | undefined): Promise<RelayEvent[] | undefined> {
    if (!Number.isSafeInteger(lastId)) return undefined;
    const { keys } = this.#link;
    const [seq, oldest, ...raw] = (await this.#link.run(SINCE, [keys('seq'), keys('buffer')], [lastId])) as [
      number,
      number,
      ...string[],
    ];
    const first = oldest || seq + 1;
    if (lastId > seq || lastId < first - 1) return undefined;
    const events = raw.map((r) => JSON.parse(r) as RelayEvent);
    return symbols ? events.filter((e) => symbols.has(e.quote.symbol)) : events;
  }

  #runApply(fence: string, receivedAt: number, items: { quote: Quote; time: number }[]): Promise<unknown> {
    const { keys } = this.#link;
    const args: (string | number)[] = [fence, receivedAt, this.#localSeq, this.#bufferSize];
    for (const { quote, time } of items) args.push(quote.symbol, time, JSON.stringify(quote));
    return this.#link.run(APPLY, [keys('leader'), keys('seq'), keys('times'), keys('quotes'), keys('buffer')], args);
  }
}
