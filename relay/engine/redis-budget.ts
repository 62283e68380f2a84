/**
 * The cluster's upstream budget in Redis: one sliding minute (a sorted set of stamps) and one day
 * counter, checked and counted by the leader in one fenced script. Redis needs no persistence, so
 * it may come back empty; the budget must not: the script PUBLISHes every spend as it counts it,
 * every member keeps what it heard (the last minute's stamps and the day's count: bounded by the
 * budget itself), and writes that back when Redis returns, before it may lead (`sync`, called by
 * the engine's rejoin). The write-back only raises the counts, so members may do it in any order.
 */
import type { RedisLeader } from './redis-leader';
import type { RedisLink } from './redis-link';
import { MERGE, SPENT, TAKE } from './redis-scripts';
import type { BudgetStore, Limits, Take } from './types';

const MINUTE_MS = 60_000;

/** What one member knows of the cluster's spends: served while Redis is away, written back when it returns. */
class HeldBudget {
  /** The stamps of the last minute: member → epoch ms (the member names keep a union free of doubles). */
  readonly #stamps = new Map<string, number>();
  #day = '';
  #count = 0;

  add(member: string, at: number): void {
    this.#stamps.set(member, at);
  }

  /** Drops the stamps a minute older than the newest: the window never holds more than the budget. */
  prune(): void {
    let newest = -Infinity;
    for (const at of this.#stamps.values()) newest = Math.max(newest, at);
    for (const [member, at] of this.#stamps) if (at <= newest - MINUTE_MS) this.#stamps.delete(member);
  }

  countDay(day: string, count: number): void {
    if (day > this.#day || (day === this.#day && count > this.#count)) {
      this.#day = day;
      this.#count = count;
    }
  }

  spent(now: number, day: string): { minute: number; day: number } {
    let minute = 0;
    for (const at of this.#stamps.values()) if (at > now - MINUTE_MS) minute += 1;
    return { minute, day: day === this.#day ? this.#count : 0 };
  }

  /** The MERGE script's arguments: day, count, then ms and member per stamp. */
  args(): (string | number)[] {
    const out: (string | number)[] = [this.#day, this.#count];
    for (const [member, at] of this.#stamps) out.push(at, member);
    return out;
  }
}

export class RedisBudget implements BudgetStore {
  readonly #held = new HeldBudget();

  readonly #link: RedisLink;
  readonly #leader: Pick<RedisLeader, 'fence' | 'lost' | 'processId'>;

  constructor(
    link: RedisLink,
    /** Only the lock's holder may spend: the spend script is fenced by it. */
    leader: Pick<RedisLeader, 'fence' | 'lost' | 'processId'>,
  ) {
    this.#link = link;
    this.#leader = leader;
  }

  /** Hears each spend as the leader's script counts it. */
  async listen(): Promise<void> {
    await this.#link.sub.subscribe(this.#link.keys('budget:spends'), (message) => {
      const [at, member, day, count] = message.split(' ');
      if (!member || !day) return;
      this.#held.add(member, Number(at));
      this.#held.prune();
      this.#held.countDay(day, Number(count));
    });
  }

  /** Writes back what this member holds (Redis may have come back empty), then holds what Redis holds. */
  async sync(): Promise<void> {
    const { keys } = this.#link;
    const [day, count, ...stamps] = (await this.#link.run(
      MERGE,
      [keys('budget:minute'), keys('budget:day')],
      this.#held.args(),
    )) as [string, number, ...string[]];
    for (let i = 0; i + 1 < stamps.length; i += 2) this.#held.add(stamps[i]!, Number(stamps[i + 1]));
    this.#held.prune();
    if (day) this.#held.countDay(day, Number(count));
  }

  async take(now: number, day: string, limits: Limits): Promise<Take> {
    const { keys } = this.#link;
    const leader = this.#leader;
    const member = `${now}:${leader.processId}:${Math.random().toString(36).slice(2)}`;
    try {
      const [ok, value] = (await this.#link.run(
        TAKE,
        [keys('leader'), keys('budget:minute'), keys('budget:day')],
        [leader.fence, now, limits.perMinute, limits.perDay ?? -1, member, day, keys('budget:spends')],
      )) as [number, number];
      if (ok === 1) {
        // Its own spend, held at once (the published copy may come later, or not at all).
        this.#held.add(member, now);
        this.#held.prune();
        this.#held.countDay(day, value);
        return { ok: true };
      }
      if (ok === -1) {
        leader.lost();
        return { ok: false, retryAfterMs: 1_000, fenced: true };
      }
      return { ok: false, retryAfterMs: value };
    } catch {
      // Redis is away: nothing can be counted, so nothing is spent.
      return { ok: false, retryAfterMs: 1_000 };
    }
  }

  async spent(now: number, day: string): Promise<{ minute: number; day: number }> {
    const { keys } = this.#link;
    try {
      const [minute, count] = (await this.#link.run(
        SPENT,
        [keys('budget:minute'), keys('budget:day')],
        [now, day],
      )) as [number, number];
      return { minute, day: count };
    } catch {
      // Redis is away: what this member holds.
      return this.#held.spent(now, day);
    }
  }
}
