/**
 * The cluster's upstream budget in Redis: one sliding minute (a sorted set of stamps) and one day
 * counter, checked and counted by the leader in one fenced script. Redis needs no persistence, so
 * it may come back empty; the budget must not: the script PUBLISHes every spend as it counts it,
 * every member keeps what it heard (the last minute's stamps and the day's count: bounded by the
 * budget itself), and writes that back when Redis returns, before it may lead (`sync`, called by
 * the engine's rejoin). The write-back only raises the counts, so members may do it in any order.
 *
 * The budget's clock and limits are the cluster's, not the leader's: the scripts count by Redis's
 * TIME (a member whose clock runs ahead would drop the minute's stamps as old), and the plan (the
 * limits after the share) is stored by the first member; a member whose plan differs spends nothing,
 * never leads, and says so once (`agree`).
 */
import type { RedisLeader } from './redis-leader';
import type { RedisLink } from './redis-link';
import { AGREE, MERGE, SPENT, TAKE } from './redis-scripts';
import type { BudgetStore, Limits, Take } from './types';

const MINUTE_MS = 60_000;
/** How long the cluster's plan outlives the last member that renews it (every tick, ~1 s). */
const PLAN_TTL_MS = 10_000;

/** A plan as stored: the per-minute and per-day limits (after the share; -1: none a day). */
const planOf = (limits: Limits): string => `${limits.perMinute}/${limits.perDay ?? -1}`;

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
  /** This member's plan ('' until the relay says it: spends then go unchecked, as in engine tests). */
  #plan = '';
  /** Whether the cluster's plan is this member's (undefined: not known yet). */
  #agreed: boolean | undefined;

  readonly #link: RedisLink;
  readonly #leader: Pick<RedisLeader, 'fence' | 'lost' | 'resign' | 'processId' | 'isLeader'>;
  readonly #log: (event: string, fields: Record<string, unknown>) => void;

  constructor(
    link: RedisLink,
    /** Only the lock's holder may spend: the spend script is fenced by it. */
    leader: Pick<RedisLeader, 'fence' | 'lost' | 'resign' | 'processId' | 'isLeader'>,
    log: (event: string, fields: Record<string, unknown>) => void = () => {},
  ) {
    this.#link = link;
    this.#leader = leader;
    this.#log = log;
  }

  /** False once this member knows its plan is not the cluster's: it must not lead. */
  get mayLead(): boolean {
    return this.#agreed !== false;
  }

  /** The relay's limits (its plan after the share): checked against the cluster's now and every tick. */
  setLimits(limits: Limits): void {
    this.#plan = planOf(limits);
    void this.agree().catch(() => {}); // Redis away: the next tick
  }

  /**
   * Compares this member's plan with the cluster's (storing it if there is none yet, renewing it if
   * the same). One log line when that changes; a member found to differ while leading steps down.
   */
  async agree(): Promise<void> {
    if (!this.#plan) return;
    const cluster = (await this.#link.run(
      AGREE,
      [this.#link.keys('budget:plan')],
      [this.#plan, PLAN_TTL_MS],
    )) as string;
    const agreed = cluster === this.#plan;
    if (agreed === this.#agreed) return;
    this.#agreed = agreed;
    const [perMinute, perDay] = this.#plan.split('/');
    const [clusterPerMinute, clusterPerDay] = cluster.split('/');
    if (agreed) this.#log('cluster_budget_agreed', { per_minute: Number(perMinute), per_day: Number(perDay) });
    else {
      this.#log('cluster_budget_differs', {
        message: "this member's budget differs from the cluster's: it serves as a follower and never leads",
        per_minute: Number(perMinute),
        per_day: Number(perDay),
        cluster_per_minute: Number(clusterPerMinute),
        cluster_per_day: Number(clusterPerDay),
      });
      if (this.#leader.isLeader) await this.#leader.resign();
    }
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

  /** `now` and `day` are the caller's: unused, the cluster counts by Redis's clock. */
  async take(now: number, day: string, limits: Limits): Promise<Take> {
    const { keys } = this.#link;
    const leader = this.#leader;
    const member = `${now}:${leader.processId}:${Math.random().toString(36).slice(2)}`;
    try {
      const [ok, value, at, spentDay] = (await this.#link.run(
        TAKE,
        [keys('leader'), keys('budget:minute'), keys('budget:day'), keys('budget:plan')],
        [leader.fence, limits.perMinute, limits.perDay ?? -1, member, keys('budget:spends'), this.#plan, PLAN_TTL_MS],
      )) as [number, number, number?, string?];
      if (ok === 1) {
        // Its own spend, held at once (the published copy may come later, or not at all).
        this.#held.add(member, at!);
        this.#held.prune();
        this.#held.countDay(spentDay!, value);
        return { ok: true };
      }
      if (ok === -1) {
        leader.lost();
        return { ok: false, retryAfterMs: 1_000, fenced: true };
      }
      if (ok === -2) {
        // Another plan than the cluster's: found out here before the tick's check said so.
        await this.agree().catch(() => {});
        return { ok: false, retryAfterMs: 1_000, fenced: true };
      }
      return { ok: false, retryAfterMs: value };
    } catch {
      // Redis is away: nothing can be counted, so nothing is spent.
      return { ok: false, retryAfterMs: 1_000 };
    }
  }

  /** By Redis's clock; `now` and `day` (the caller's) only while Redis is away. */
  async spent(now: number, day: string): Promise<{ minute: number; day: number }> {
    const { keys } = this.#link;
    try {
      const [minute, count] = (await this.#link.run(SPENT, [keys('budget:minute'), keys('budget:day')], [])) as [
        number,
        number,
      ];
      return { minute, day: count };
    } catch {
      // Redis is away: what this member holds.
      return this.#held.spent(now, day);
    }
  }
}
