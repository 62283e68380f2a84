/**
 * The day's record of a cluster: the bars in Redis (`lua/record.lua`), written by
 * the leader as it relays each change, read by any member, so the record outlives the process
 * that recorded it. Every member also keeps a memory copy from the events it receives: served
 * while Redis is away, and written back when it returns (merging a bar again changes nothing).
 */
import { MemoryRecord } from './memory-record';
import { barOf, BAR_MS, RECORD_BARS, RECORD_MS, RECORD_SYMBOLS } from './record';
import type { RedisLink } from './redis-link';
import { RECORD } from './redis-scripts';
import type { DayRecord, RecordedBar, RelayEvent } from './types';

/** A symbol's bars stay in Redis this long after its last change. */
const TTL_MS = RECORD_MS + BAR_MS;
/** Bars per script call (a poll or a snapshot may bring many at once). */
const CHUNK = 500;

export class RedisRecord implements DayRecord {
  readonly #local = new MemoryRecord();

  readonly #link: RedisLink;

  constructor(link: RedisLink) {
    this.#link = link;
  }

  /** Events that reached this process (through the broker). */
  remember(events: readonly RelayEvent[]): void {
    void this.#local.add(events);
  }

  async add(events: readonly RelayEvent[]): Promise<void> {
    const bars = events.flatMap((e) => {
      const bar = barOf(e);
      return bar ? [[e.quote.symbol, bar] as const] : [];
    });
    await this.#write(bars);
  }

  async bars(symbol: string, from: number): Promise<RecordedBar[]> {
    try {
      const raw = await this.#link.cmd.zRangeByScore(this.#link.keys(`record:${symbol}`), from, '+inf');
      return raw.flatMap((member) => {
        const [t, first, last, open, high, low, close] = member.split('|');
        return close === undefined
          ? []
          : [{ t: Number(t), first: Number(first), last: Number(last), open: open!, high: high!, low: low!, close }];
      });
    } catch {
      return this.#local.bars(symbol, from);
    }
  }

  /** Writes back the memory copy (Redis restarted empty). */
  async seed(): Promise<void> {
    const all = this.#local.entries().flatMap(([symbol, bars]) => bars.map((bar) => [symbol, bar] as const));
    await this.#write(all);
  }

  async #write(bars: readonly (readonly [string, RecordedBar])[]): Promise<void> {
    const { keys } = this.#link;
    for (let i = 0; i < bars.length; i += CHUNK) {
      const args: (string | number)[] = [keys('record:'), RECORD_SYMBOLS, RECORD_BARS, RECORD_MS, TTL_MS];
      for (const [symbol, b] of bars.slice(i, i + CHUNK))
        args.push(symbol, b.t, b.first, b.last, b.open, b.high, b.low, b.close);
      await this.#link.run(RECORD, [keys('record-symbols'), keys('record-tick')], args);
    }
  }
}
