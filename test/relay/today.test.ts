// Today's chart (DESIGN.md §10, `days=1`): the relay records every change it relays, per symbol for
// 24 h as 5-minute bars, and answers `/v1/history/{s}?days=1` from that record with no upstream
// request. Over real HTTP: the controlled upstream serves its own event stream, the relay keeps
// its record in memory (one process) or in a real Redis; then a cluster of relay processes, where
// the record outlives the process that recorded it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRecord } from '../../relay/engine/memory-record';
import { BAR_MS, RECORD_BARS, RECORD_MS, RECORD_SYMBOLS } from '../../relay/engine/record';
import type { Engine, RecordedBar } from '../../relay/engine/types';
import { start, type StartedSandbox } from '../sandbox/helpers';
import { leaderOf, startRelayProcess, stopAll, type RelayProcess } from './cluster-helpers';
import { at, control, get, quote, Stream, until, upstreamRequests } from './helpers';
import { ownStreamRelays } from './upstream-helpers';

const relays = ownStreamRelays('today');
const openStream = relays.open;

interface Point {
  at: string;
  open: string;
  high: string;
  low: string;
  close: string;
}
const today = async (base: string, symbol: string) => {
  const answer = await get(base, `/v1/history/${symbol}?days=1`);
  const body = JSON.parse(answer.body) as { data: { symbol: string; days: number; points: Point[] } };
  return { ...answer, data: body.data };
};
/** The stream event carrying `price` for `symbol` (a `quote`, or inside a `quotes` snapshot). */
const carries = (s: Stream, symbol: string, price: string) =>
  s.event((e) => e.data.includes(`"symbol":"${symbol}"`) && e.data.includes(`"price":"${price}"`));

relays.eachEngine('days=1 from the record, %s engine', (name) => {
  async function relayOnOwnStream() {
    const engine = await relays.engine(name);
    return { setup: await relays.start(engine), engine };
  }

  it('answers the changes it relayed as 5-minute bars (exact decimal strings), with no upstream history request', async () => {
    const { upstream, relay } = (await relayOnOwnStream()).setup;
    const visitor = openStream(relay.url, 'usd,eur');
    const t0 = Math.floor(Date.now() / BAR_MS) * BAR_MS - 2 * 60 * 60_000;
    const big = '123456789012345678901.25';
    const changes: [string, string, number][] = [
      ['usd', '1000', t0 + 10_000],
      ['eur', '50000', t0 + 20_000],
      ['usd', '1300', t0 + 60_000],
      ['usd', '900', t0 + 120_000],
      ['usd', '1100', t0 + 180_000],
      ['usd', big, t0 + 60 * 60_000 + 1_000],
    ];
    for (const [symbol, price, time] of changes)
      upstream.send('quote', { ...quote(symbol, 1), price, updated_at: at(time) });
    await carries(visitor, 'usd', big);

    const usd = await today(relay.url, 'usd');
    expect(usd.status).toBe(200);
    expect(usd.data).toEqual({
      symbol: 'usd',
      days: 1,
      points: [
        { at: at(t0), open: '1000', high: '1300', low: '900', close: '1100' },
        { at: at(t0 + 60 * 60_000), open: big, high: big, low: big, close: big },
      ],
    });
    expect(usd.headers['cache-control']).toBe('public, max-age=5, stale-while-revalidate=30');
    expect(
      (await get(relay.url, '/v1/history/usd?days=1', { headers: { 'If-None-Match': usd.headers.etag! } })).status,
    ).toBe(304);
    expect((await today(relay.url, 'eur')).data.points).toEqual([
      { at: at(t0), open: '50000', high: '50000', low: '50000', close: '50000' },
    ]);
    // A later change moves the answer: it is not cached as the other spans are.
    upstream.send('quote', { ...quote('usd', 1), price: '1200', updated_at: at(t0 + 60 * 60_000 + 2_000) });
    await carries(visitor, 'usd', '1200');
    expect((await today(relay.url, 'usd')).data.points[1]).toEqual({
      at: at(t0 + 60 * 60_000),
      open: big,
      high: big,
      low: '1200',
      close: '1200',
    });
    expect(upstream.count(/^\/v1\/history\//)).toBe(0);
  });

  it('refuses what the service refuses, answers a symbol not carried yet once its first change comes, and answers one unchanged for a day with its price now', async () => {
    const { upstream, relay } = (await relayOnOwnStream()).setup;
    const unknown = await get(relay.url, '/v1/history/bitcoin?days=1');
    expect([unknown.status, JSON.parse(unknown.body).error.code]).toEqual([404, 'unknown_symbol']);
    for (const days of ['0', '1.0', '1e0', '-1']) {
      const bad = await get(relay.url, `/v1/history/usd?days=${days}`);
      expect([bad.status, JSON.parse(bad.body).error.code]).toEqual([400, 'bad_request']);
    }
    // Quotes come only from the test's stream (a poll of the sandbox would bring newer ones).
    upstream.fail(/^\/v1\/prices/, 503, 'unavailable');
    // A symbol the relay does not carry yet: 503 at once (no connection held), and it joins the
    // upstream stream; once its first change is relayed, it is answered.
    const first = await get(relay.url, '/v1/history/aed?days=1');
    expect([first.status, first.headers['retry-after']]).toEqual([503, '5']);
    await until(() => upstream.openStreams >= 2 || upstream.count(/^\/v1\/prices/) > 0, 10_000);
    upstream.send('quote', { ...quote('aed', 1), price: '15000', updated_at: at(Date.now() - 60_000) });
    await until(async () => (await get(relay.url, '/v1/history/aed?days=1')).status === 200, 10_000);
    expect((await today(relay.url, 'aed')).data.points.map((p) => p.close)).toEqual(['15000']);

    const visitor = openStream(relay.url, 'gbp');
    // Its last change was 30 hours ago: nothing of it falls in the last 24 h.
    upstream.send('quote', { ...quote('gbp', 1), price: '777', updated_at: at(Date.now() - 30 * 60 * 60_000) });
    await carries(visitor, 'gbp', '777');
    const before = Date.now();
    const gbp = await today(relay.url, 'gbp');
    const after = Date.now();
    expect(gbp.status).toBe(200);
    expect(gbp.data.points).toHaveLength(1);
    expect(gbp.data.points[0]).toMatchObject({ open: '777', high: '777', low: '777', close: '777' });
    // The bar of the moment it answered (a 5-minute bar may turn while it does).
    const bar = (t: number): number => Math.floor(t / BAR_MS) * BAR_MS;
    expect([bar(before), bar(after)]).toContain(Date.parse(gbp.data.points[0]!.at));
    expect(upstream.count(/^\/v1\/history\//)).toBe(0);
  });

  it('keeps at most one bar per 5 minutes and one day per symbol, however many changes come', async () => {
    const { setup, engine } = await relayOnOwnStream();
    const { upstream, relay } = setup;
    const visitor = openStream(relay.url, 'usd');
    // 26 hours of changes in one burst: one in each 5-minute period, five in the last one.
    const lastBar = Math.floor(Date.now() / BAR_MS) * BAR_MS - BAR_MS;
    const times: number[] = [];
    for (let k = 311; k >= 1; k--) times.push(lastBar - k * BAR_MS + 1_000);
    for (let j = 1; j <= 5; j++) times.push(lastBar + j * 1_000);
    let frames = '';
    for (const [i, time] of times.entries()) {
      const q = { ...quote('usd', 1), price: String(10_000 + i), updated_at: at(time) };
      frames += `event: quote\ndata: ${JSON.stringify(q)}\n\n`;
    }
    upstream.sendRaw(frames);
    const lastPrice = String(10_000 + times.length - 1);
    await visitor.event((e) => e.data.includes(`"price":"${lastPrice}"`), 0, 30_000);
    const askedAt = Date.now();
    const points = (await today(relay.url, 'usd')).data.points;
    const answeredAt = Date.now();
    // The last 24 h: from the bar that holds the moment 24 h before the answer (a bar may turn
    // since `lastBar` was taken, or while it answers): one bar per 5 minutes from there to the last.
    const dayAgoBar = (t: number): number => Math.floor((t - RECORD_MS) / BAR_MS) * BAR_MS;
    const first = Date.parse(points[0]!.at);
    expect([dayAgoBar(askedAt), dayAgoBar(answeredAt)]).toContain(first);
    expect(points.length).toBe((lastBar - first) / BAR_MS + 1);
    // The last bar holds its five changes: open the first, close the last, the extremes of all.
    expect(points.at(-1)).toEqual({
      at: at(lastBar),
      open: String(10_000 + times.length - 5),
      high: lastPrice,
      low: String(10_000 + times.length - 5),
      close: lastPrice,
    });
    const held = await engine.record.bars('usd', 0);
    expect(held.length).toBeLessThanOrEqual(RECORD_BARS);
    expect(upstream.count(/^\/v1\/history\//)).toBe(0);
  });
});

describe('the record in memory and in Redis: bounds', () => {
  let id = 0;
  /** Symbols `s{from}`… `s{to - 1}` in turn, each changing every `step` ms for `hours` hours up to `end`. */
  function flood(record: Engine['record'], [from, to]: [number, number], hours: number, step: number, end: number) {
    const events = [];
    for (let s = from; s < to; s++)
      for (let m = (hours * 3_600_000) / step - 1; m >= 0; m--)
        events.push({
          id: ++id,
          receivedAt: end,
          quote: { ...quote(`s${s}`, 1), price: String(100_000 + id), updated_at: at(end - m * step) },
        });
    return record.add(events);
  }

  it('holds at most RECORD_SYMBOLS symbols of at most RECORD_BARS bars in memory', async () => {
    const record = new MemoryRecord();
    const end = Date.now();
    await flood(record, [0, RECORD_SYMBOLS + 44], 25, BAR_MS, end);
    expect(record.entries()).toHaveLength(RECORD_SYMBOLS);
    expect(record.size).toBe(RECORD_SYMBOLS * RECORD_BARS);
    // The least recently changed went first: the last symbols are held, the first ones not.
    expect(await record.bars('s0', 0)).toEqual([]);
    expect((await record.bars(`s${RECORD_SYMBOLS + 43}`, 0)).length).toBe(RECORD_BARS);
  });

  it('holds the same bounds in Redis, merged by the same rules', { timeout: 60_000 }, async () => {
    const engine = await relays.redisEngine('bounds');
    try {
      await until(() => engine.leader.isLeader);
      const end = Date.now();
      const memory = new MemoryRecord();
      // Two symbols with more than a day of bars, then more symbols than the bound with one bar each.
      for (const record of [memory, engine.record]) {
        id = 0;
        await flood(record, [0, 2], 25, BAR_MS, end - 60_000);
        await flood(record, [2, RECORD_SYMBOLS + 4], 1 / 12, BAR_MS, end);
      }
      expect(await engine.cmd.zCard(engine.keys('record-symbols'))).toBe(RECORD_SYMBOLS);
      const keys = await engine.cmd.keys(engine.keys('record:*'));
      expect(keys).toHaveLength(RECORD_SYMBOLS);
      const one: RecordedBar[] = await engine.record.bars(`s${RECORD_SYMBOLS + 3}`, 0);
      expect(one).toHaveLength(1);
      expect(one).toEqual(await memory.bars(`s${RECORD_SYMBOLS + 3}`, 0));
      // The least recently changed went first: the two with a day of bars.
      expect(await engine.record.bars('s0', 0)).toEqual([]);
      expect(await memory.bars('s1', 0)).toEqual([]);
      expect(await engine.cmd.zCard(engine.keys('record:s1'))).toBe(0);
      // The decimal extremes are compared exactly, not as floats or as text.
      await engine.record.add([
        { id: 1e6, receivedAt: end, quote: { ...quote('x', 1), price: '99.5', updated_at: at(end) } },
        { id: 1e6 + 1, receivedAt: end, quote: { ...quote('x', 1), price: '100', updated_at: at(end) } },
        { id: 1e6 + 2, receivedAt: end, quote: { ...quote('x', 1), price: '99.50001', updated_at: at(end) } },
      ]);
      expect(await engine.record.bars('x', 0)).toMatchObject([
        { open: '99.5', high: '100', low: '99.5', close: '99.50001' },
      ]);
    } finally {
      await engine.close();
    }
  });
});

describe('the record while Redis is away', { timeout: 60_000 }, () => {
  // It stops and restarts the Redis the other tests share: the cluster below starts after it.
  it('is served from memory while Redis is away, and written back when Redis returns empty', async () => {
    const redis = await relays.redis();
    const engine = await relays.redisEngine('away');
    const { upstream, relay } = await relays.start(engine);
    const visitor = openStream(relay.url, 'usd');
    const t0 = Math.floor(Date.now() / BAR_MS) * BAR_MS - 60 * 60_000;
    for (const [i, price] of ['5000', '5100', '4900'].entries())
      upstream.send('quote', { ...quote('usd', 1), price, updated_at: at(t0 + i * BAR_MS) });
    await carries(visitor, 'usd', '4900');
    const points = (await today(relay.url, 'usd')).data.points;
    expect(points.map((p) => p.close)).toEqual(['5000', '5100', '4900']);

    await redis.stop();
    await until(() => !engine.connected, 10_000);
    expect((await today(relay.url, 'usd')).data.points).toEqual(points);

    await until(() => !engine.leader.isLeader, 10_000);
    await redis.restart();
    await until(() => engine.leader.isLeader, 20_000);
    expect(await engine.cmd.zCard(engine.keys('record:usd'))).toBe(3);
    expect((await today(relay.url, 'usd')).data.points).toEqual(points);
    expect(upstream.count(/^\/v1\/history\//)).toBe(0);
  });
});

describe('a cluster: the record outlives the process that recorded it', { timeout: 120_000 }, () => {
  let sandbox: StartedSandbox;
  let processes: RelayProcess[];

  beforeAll(async () => {
    await relays.redis();
    sandbox = await start();
  }, 90_000);
  afterAll(async () => {
    await stopAll();
    await sandbox.close();
  });

  it('records on the leader, answers on a follower, and still after the leader is gone', async () => {
    const redis = await relays.redis();
    processes = await Promise.all(
      ['a', 'b'].map((name) =>
        startRelayProcess({
          REDIS_URL: redis.url,
          UPSTREAM_URL: sandbox.url,
          UPSTREAM_KEY: `enterprise-key:today-${name}`,
        }),
      ),
    );
    const leader = await leaderOf(processes);
    const follower = processes.find((r) => r !== leader)!;
    // The leader's upstream stream carries usd; a visitor of the follower sees the changes.
    const visitor = openStream(follower.url, 'usd');
    await visitor.event((e) => e.event === 'quotes');
    for (const price of ['2000001', '1500300', '999001']) {
      await control(sandbox.url, 'market', { set: [{ symbol: 'usd', price }] });
      await carries(visitor, 'usd', price);
    }
    const points = (await today(follower.url, 'usd')).data.points;
    expect(points.at(-1)).toMatchObject({ close: '999001' });
    // The extremes of the day are the changes made: the highest and the lowest.
    expect(Math.max(...points.map((p) => Number(p.high)))).toBe(2_000_001);
    expect(Math.min(...points.map((p) => Number(p.low)))).toBe(999_001);

    leader.kill('SIGKILL');
    const answer = await today(follower.url, 'usd');
    expect(answer.status).toBe(200);
    expect(answer.data.points).toEqual(points);
    // Once it leads, it records on top of what the dead leader recorded.
    expect(await leaderOf([follower], 30_000)).toBe(follower);
    // A process started now never saw those changes: it answers them from Redis.
    const late = await startRelayProcess({
      REDIS_URL: redis.url,
      UPSTREAM_URL: sandbox.url,
      UPSTREAM_KEY: 'enterprise-key:today-c',
    });
    expect((await today(late.url, 'usd')).data.points).toEqual(points);
    await control(sandbox.url, 'market', { set: [{ symbol: 'usd', price: '1000777' }] });
    await until(async () => (await today(follower.url, 'usd')).data.points.at(-1)!.close === '1000777', 30_000);
    const after = (await today(follower.url, 'usd')).data.points;
    const before = points.at(-1)!;
    expect(after.find((p) => p.at === before.at)).toMatchObject({ open: before.open, low: before.low });
    const history = (await upstreamRequests(sandbox)).filter((r) => r.path.startsWith('/v1/history/'));
    expect(history).toEqual([]);
  });
});
