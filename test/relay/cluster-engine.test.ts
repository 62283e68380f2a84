// The Redis engine against a real redis-server, in-process: the memory engine's contract (numbering,
// resume bounds), one budget for all processes, and fencing: a leader that has lost the lock but
// not yet noticed (paused, cut off) is refused by Redis itself when it spends or numbers events.
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tehranDay } from '../../relay/budget';
import { RedisEngine } from '../../relay/engine/redis';
import { BUDGET_CLOCK } from '../../relay/engine/redis-scripts';
import { withTimeLimit } from '../../relay/time-limit';
import { startRedis, startSilentPath, stopAll, type RedisServer } from './cluster-helpers';
import { quote, until } from './helpers';

let redis: RedisServer;
let engines: RedisEngine[] = [];
let prefix = 0;
const today = (): string => tehranDay(Date.now());

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(() => stopAll());
afterEach(async () => {
  await Promise.all(engines.map((e) => e.close()));
  engines = [];
});

/** A cluster member; each test has its own key prefix, so tests share nothing. */
async function member(options: { bufferSize?: number; lockTtlMs?: number } = {}): Promise<RedisEngine> {
  const engine = await RedisEngine.connect({ url: redis.url, prefix: `t${prefix}:`, ...options });
  engines.push(engine);
  return engine;
}

describe('the Redis engine', () => {
  it('numbers only real changes cluster-wide, and resumes on any member only from ids still held', async () => {
    prefix += 1;
    const a = await member({ bufferSize: 3 });
    await until(() => a.leader.isLeader);
    const b = await member({ bufferSize: 3 });
    expect((await a.state.apply([quote('usd', 1), quote('eur', 1)], 0)).map((e) => e.id)).toEqual([1, 2]);
    expect(await a.state.apply([quote('usd', 0), quote('usd', 1)], 0)).toEqual([]);
    await a.state.apply([quote('usd', 2)], 0);
    await a.state.apply([quote('usd', 3)], 0);
    // b never saw these: it reads them from Redis.
    expect((await b.state.since(1, new Set(['usd'])))!.map((e) => e.id)).toEqual([3, 4]);
    expect(await b.state.since(0, new Set(['usd']))).toBeUndefined();
    expect(await b.state.since(9, new Set(['usd']))).toBeUndefined();
    expect(await b.state.snapshot(['eur', 'usd', 'gbp'])).toMatchObject({
      id: 4,
      quotes: [{ symbol: 'eur' }, { symbol: 'usd', price: '1003' }],
    });
    // A follower numbers nothing.
    await expect(b.state.apply([quote('usd', 9)], 0)).rejects.toThrow(/leader/);
  });

  it('writes back what a member holds without undoing a correction it missed', async () => {
    prefix += 1;
    const a = await member();
    await until(() => a.leader.isLeader);
    const b = await member();
    const first = quote('usd', 5);
    await a.state.apply([first], 0);
    await a.state.apply([{ ...first, price: '2005' }], 0); // the same time, other content: a correction
    // b's copy is the one before the correction (it missed it, cut off), and it writes it back.
    await until(async () => (await b.state.snapshot(['usd'])).quotes[0]?.price === '2005');
    b.state.remember([{ id: 1, quote: first, receivedAt: 0 }]);
    await b.state.seed();
    expect((await a.state.snapshot(['usd'])).quotes[0]?.price).toBe('2005');
  });

  it('hears an event whose message was lost: read from the resume buffer a tick later', async () => {
    prefix += 1;
    const a = await member();
    await until(() => a.leader.isLeader);
    const b = await member();
    const heard: number[] = [];
    b.broker.subscribe((events) => heard.push(...events.map((e) => e.id)));
    // Numbered in Redis and never published, as when the leader's connection drops as it publishes.
    const [event] = await a.state.apply([quote('usd', 7)], 0);
    await until(() => heard.includes(event!.id));
    expect(heard).toEqual([event!.id]);
  });

  it('closes at once when Redis has gone silent with a command waiting on it', async () => {
    prefix += 1;
    const path = await startSilentPath(redis.port);
    try {
      const engine = await RedisEngine.connect({ url: path.url, prefix: `t${prefix}:` });
      path.silence();
      const waiting = engine.cmd.get(engine.keys('anything')).catch(() => 'failed');
      // Closing does not wait for an answer that will never come (the relay's shutdown).
      expect(await withTimeLimit(engine.close(), 10_000)).not.toBe('late');
      expect(await waiting).toBe('failed');
    } finally {
      await path.close();
    }
  });

  it('counts one budget for every member', async () => {
    prefix += 1;
    const a = await member();
    await until(() => a.leader.isLeader);
    const b = await member();
    const limits = { perMinute: 3, perDay: null };
    for (let i = 0; i < 3; i++) expect(await a.budget.take(Date.now(), today(), limits)).toEqual({ ok: true });
    const refused = await a.budget.take(Date.now(), today(), limits);
    expect(refused).toMatchObject({ ok: false });
    expect(refused.ok || refused.retryAfterMs).toBeGreaterThan(55_000);
    expect(await b.budget.spent(Date.now(), today())).toEqual({ minute: 3, day: 3 });
  });

  it("counts by Redis's clock, whatever the members' clocks say", async () => {
    prefix += 1;
    const a = await member();
    await until(() => a.leader.isLeader);
    const limits = { perMinute: 3, perDay: null };
    // Clocks 90 s ahead, a day behind, at the epoch: one minute, one day, Redis's.
    for (const now of [Date.now() + 90_000, Date.now() - 86_400_000, 0])
      expect(await a.budget.take(now, tehranDay(now), limits)).toEqual({ ok: true });
    expect(await a.budget.take(Date.now() + 90_000, 'any', limits)).toMatchObject({ ok: false });
    expect(await a.budget.spent(Date.now() + 3_600_000, 'any')).toEqual({ minute: 3, day: 3 });
    const day = await a.cmd.hGet(a.keys('budget:day'), 'day');
    expect([tehranDay(Date.now() - 1_000), tehranDay(Date.now() + 1_000)]).toContain(day);
  });

  it("names the plan's day in Redis as the relay does (the Tehran calendar day)", async () => {
    prefix += 1;
    const a = await member();
    const times = [
      Date.UTC(2026, 2, 20, 20, 29, 59, 999),
      Date.UTC(2026, 2, 20, 20, 30),
      Date.UTC(2024, 1, 28, 20, 30),
      Date.UTC(2024, 1, 29, 20, 29, 59),
      Date.UTC(2023, 11, 31, 20, 30),
      Date.UTC(2100, 1, 28, 20, 30),
      Date.UTC(2000, 1, 29, 12),
      0,
    ];
    // BUDGET_CLOCK's day, with TIME's answer replaced by each time.
    const script = BUDGET_CLOCK.replace(
      "local t = redis.call('TIME')",
      'local t = {math.floor(tonumber(ARGV[1]) / 1000), (tonumber(ARGV[1]) % 1000) * 1000}',
    );
    for (const t of times)
      expect(await a.cmd.eval(`${script} local _, day = clock() return day`, { arguments: [String(t)] })).toBe(
        tehranDay(t),
      );
  });

  it('refuses the spend and the events of a leader whose lock another holds now (fencing)', async () => {
    prefix += 1;
    const stale = await member({ lockTtlMs: 5_000 });
    await until(() => stale.leader.isLeader);
    const next = await member({ lockTtlMs: 5_000 });
    // As if `stale` were paused past its TTL: the lock expires and `next` takes it, while `stale`'s
    // own lease has not run out yet, so only Redis can stop it.
    await next.cmd.del(`t${prefix}:leader`);
    await until(() => next.leader.isLeader);
    expect(stale.leader.isLeader).toBe(true);

    expect(await stale.budget.take(Date.now(), today(), { perMinute: 10, perDay: null })).toMatchObject({
      ok: false,
      fenced: true,
    });
    expect(stale.leader.isLeader).toBe(false);
    expect(await next.budget.spent(Date.now(), today())).toEqual({ minute: 0, day: 0 });
    expect(await next.budget.take(Date.now(), today(), { perMinute: 10, perDay: null })).toEqual({ ok: true });
  });

  it('refuses quotes numbered by a stale leader', async () => {
    prefix += 1;
    const stale = await member({ lockTtlMs: 5_000 });
    await until(() => stale.leader.isLeader);
    const lost: boolean[] = [];
    stale.leader.onChange((isLeader) => lost.push(isLeader));
    await stale.cmd.set(`t${prefix}:leader`, '99:someone-else');
    await expect(stale.state.apply([quote('usd', 1)], 0)).rejects.toThrow(/FENCED/);
    expect(lost).toEqual([false]);
    expect((await stale.state.snapshot(['usd'])).quotes).toEqual([]);
  });

  // Last: it stops and restarts the Redis the other tests share.
  it('keeps the budget across a FLUSHALL, even when a member joins the emptied Redis before the others notice', async () => {
    prefix += 1;
    const a = await member();
    await until(() => a.leader.isLeader);
    const limits = { perMinute: 3, perDay: 5 };
    for (let i = 0; i < 3; i++) expect(await a.budget.take(Date.now(), today(), limits)).toEqual({ ok: true });
    const admin = createClient({ url: redis.url });
    await admin.connect();
    await admin.flushAll();
    await admin.close();
    // A member that joins now has nothing to write back, and marks only itself: the member that
    // spent still finds its own mark gone and writes back what it holds.
    const b = await member();
    await until(async () => (await b.budget.spent(Date.now(), today())).minute === 3, 10_000);
    expect(await b.budget.spent(Date.now(), today())).toEqual({ minute: 3, day: 3 });
  });

  it('keeps the budget across a Redis restart that lost everything, even when only a follower knew it', async () => {
    prefix += 1;
    const a = await member();
    await until(() => a.leader.isLeader);
    const b = await member();
    const limits = { perMinute: 6, perDay: 5 };
    for (let i = 0; i < 3; i++) expect(await a.budget.take(Date.now(), today(), limits)).toEqual({ ok: true });
    // The member that spent is gone; Redis then restarts empty.
    await a.close();
    engines = engines.filter((e) => e !== a);
    await redis.stop();
    // While Redis is away, b reports what it learned of a's spends as they were counted.
    await until(async () => (await b.budget.spent(Date.now(), today())).minute === 3);
    expect(await b.budget.spent(Date.now(), today())).toEqual({ minute: 3, day: 3 });
    await until(() => !b.leader.isLeader, 10_000);
    await redis.restart();
    await until(() => b.leader.isLeader, 10_000);
    // b wrote the counts back before it could lead: the minute and the day hold a's 3 spends.
    expect(await b.budget.spent(Date.now(), today())).toEqual({ minute: 3, day: 3 });
    expect(await b.budget.take(Date.now(), today(), limits)).toEqual({ ok: true });
    expect(await b.budget.take(Date.now(), today(), limits)).toEqual({ ok: true });
    expect(await b.budget.take(Date.now(), today(), limits)).toEqual({ ok: false, retryAfterMs: 3_600_000 });
  });
});
