// History under a botnet (DESIGN.md §7.1): many addresses asking for many uncached spans neither
// evict what real visitors use nor keep the history budget spent; the history cache is bounded by
// bytes (in memory and in Redis). Over real HTTP: a relay in front of a controllable upstream (a
// real node:http server counting requests), visitors from distinct loopback addresses, and the
// relay's clock injected so that minutes pass in moments.
import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryEngine } from '../../relay/engine/memory';
import { MemoryCache } from '../../relay/engine/memory-cache';
import { RedisEngine } from '../../relay/engine/redis';
import type { Engine } from '../../relay/engine/types';
import type { Relay } from '../../relay/server';
import { startRedis, stopAll, type RedisServer } from './cluster-helpers';
import { get, inWaves, until } from './helpers';
import { relayBefore } from './relay-before';
import { historyBody, startUpstream, type UpstreamDouble } from './upstream-double';

const T0 = Date.UTC(2026, 10, 23, 8, 0, 0);
const CATALOG = ['usd', 'eur', 'aed', 'gbp', 'try', 'cny', 'gold_18', 'coin_emami', 'ons'];

/** A botnet member's address: 127.1.x.y, distinct for each i (all of 127/8 answers here). */
const bot = (i: number): string => `127.1.${Math.floor(i / 250)}.${1 + (i % 250)}`;
const VISITOR = '127.0.0.9';

let clock = T0;
const opened: { close(): Promise<void> }[] = [];

async function start(
  env: Record<string, string>,
  options: { engine?: Engine; symbols?: string[] } = {},
): Promise<{ relay: Relay; upstream: UpstreamDouble }> {
  clock = T0;
  const now = (): number => clock;
  const upstream = await startUpstream({ symbols: options.symbols ?? CATALOG, now });
  opened.push(upstream);
  const relay = await relayBefore(
    upstream.url,
    { UPSTREAM_KEY: 'k-history-test-0123456789', ...env },
    { now, engine: options.engine },
  );
  opened.unshift(relay);
  return { relay, upstream };
}

afterEach(async () => {
  for (const o of opened.splice(0)) await o.close();
});

describe('history spans and symbols', () => {
  it('serves every days of the plan from its enclosing span; refuses the rest, and symbols outside the catalog, without an upstream request', async () => {
    const { relay, upstream } = await start({ PLAN: 'basic' });
    for (const [i, days] of ['0', '366', '999', '1000', '7.5', '-7', '1e1', 'abc', ''].entries()) {
      const answer = await get(relay.url, `/v1/history/usd?days=${days}`, { from: bot(i) });
      expect({ days, status: answer.status, code: JSON.parse(answer.body).error?.code }).toEqual({
        days,
        status: 400,
        code: 'bad_request',
      });
    }
    for (const [i, days] of ['31', '90', '365'].entries()) {
      const beyond = await get(relay.url, `/v1/history/usd?days=${days}`, { from: bot(50 + i) });
      expect([beyond.status, JSON.parse(beyond.body).error.code, JSON.parse(beyond.body).error.max_days]).toEqual([
        403,
        'plan_limit',
        30,
      ]);
    }
    for (const [i, symbol] of ['zzz', 'usd_', 'USD', 'bitcoin'].entries()) {
      const answer = await get(relay.url, `/v1/history/${symbol}?days=7`, { from: bot(200 + i) });
      expect([answer.status, JSON.parse(answer.body).error.code]).toEqual([404, 'unknown_symbol']);
    }
    expect(upstream.histories()).toEqual([]);
    // Every days from 2 to the plan's 30 (and `07`, as the service reads it), each from its own
    // address: that many days (the upstream's points are daily), from one request per span.
    for (const days of ['07', ...Array.from({ length: 29 }, (_, i) => String(i + 2))]) {
      const answer = await get(relay.url, `/v1/history/eur?days=${days}`, { from: bot(300 + Number(days)) });
      expect([days, answer.status, JSON.parse(answer.body).data.points.length]).toEqual([days, 200, Number(days)]);
    }
    expect(upstream.histories()).toEqual(['eur:7', 'eur:30']);
  });

  it('answers days of 2, 3, 14, 45 and 200 with that span, from one upstream request per symbol and enclosing span', async () => {
    const { relay, upstream } = await start({ PLAN: 'enterprise' });
    for (const symbol of ['usd', 'gbp'])
      for (const days of [2, 3, 14, 45, 200, 14, 2, 7, 30, 365]) {
        const answer = await get(relay.url, `/v1/history/${symbol}?days=${days}`, { from: VISITOR });
        expect([symbol, days, answer.status, JSON.parse(answer.body).data.points.length]).toEqual([
          symbol,
          days,
          200,
          days,
        ]);
      }
    expect(upstream.histories()).toEqual(['usd:7', 'usd:30', 'usd:365', 'gbp:7', 'gbp:30', 'gbp:365']);
  });
});

describe('history under a botnet', () => {
  it('a botnet asking every span of every symbol cannot keep the budget spent: a visitor then gets all 18 of its spans', async () => {
    const { relay, upstream } = await start({ PLAN: 'basic' });
    // Bot i asks symbol i % 9 over 1..30 days, each symbol's days in turn: 270 distinct asks.
    const botAsk = (i: number) =>
      get(relay.url, `/v1/history/${CATALOG[i % 9]}?days=${1 + ((Math.floor(i / 9) * 7) % 30)}`, { from: bot(i) });
    let sent = 0;
    // Four minutes of 600 asks a minute from 2,400 distinct addresses.
    for (let step = 0; step < 120; step++) {
      clock = T0 + step * 2_000;
      await inWaves(20, 20, (j) => botAsk(sent + j));
      sent += 20;
    }
    // The visitor's spans, while the botnet goes on.
    const answers = [];
    for (const [i, symbol] of CATALOG.entries()) {
      for (const days of [7, 30]) {
        clock += 500;
        const [answer] = await Promise.all([
          get(relay.url, `/v1/history/${symbol}?days=${days}`, { from: VISITOR }),
          inWaves(5, 5, (j) => botAsk(sent + j)),
        ]);
        sent += 5;
        answers.push(`${symbol}:${days} ${answer.status}`);
        expect(JSON.parse(answer.body).data?.points?.length, `${symbol}:${days} #${i}`).toBe(days);
      }
    }
    expect(answers).toEqual(CATALOG.flatMap((s) => [`${s}:7 200`, `${s}:30 200`]));
    // Upstream saw each of the 18 spans once: nothing else was worth a request.
    expect(upstream.histories().sort()).toEqual(CATALOG.flatMap((s) => [`${s}:7`, `${s}:30`]).sort());
  });

  it("2,500 distinct spans from distinct addresses do not evict a visitor's usd 30 days", async () => {
    const { relay, upstream } = await start(
      { PLAN: 'enterprise', UPSTREAM_RPM: '1000000' },
      { symbols: ['usd', 'eur', 'aed', 'gbp', 'try', 'cny', 'ons'] },
    );
    expect((await get(relay.url, '/v1/history/usd?days=30', { from: VISITOR })).status).toBe(200);
    const symbols = ['eur', 'aed', 'gbp', 'try', 'cny', 'ons', 'usd'];
    await inWaves(2_555, 50, (i) =>
      get(relay.url, `/v1/history/${symbols[i % 7]}?days=${1 + Math.floor(i / 7)}`, { from: bot(i) }),
    );
    clock += 60_000;
    const again = await get(relay.url, '/v1/history/usd?days=30', { from: VISITOR });
    expect(again.status).toBe(200);
    expect(upstream.histories().filter((h) => h === 'usd:30')).toHaveLength(1);
  });

  it('with a cache smaller than the spans asked for, spans asked once evict each other, not the ones visitors hit again; the bytes stay bounded', async () => {
    const symbols = Array.from({ length: 60 }, (_, i) => `s${i}`);
    // A 30-day body here is about 1.6 KB: room for about 20 entries.
    const bytes = 20 * (historyBody(30, T0).length + 130);
    const cache = new MemoryCache(bytes);
    const { relay, upstream } = await start(
      { PLAN: 'enterprise', UPSTREAM_RPM: '1000000' },
      { symbols, engine: { ...createMemoryEngine(), cache } },
    );
    // The visitor's spans, each hit again (as a board's visitors do).
    for (let k = 0; k < 2; k++)
      for (const s of ['s0', 's1'])
        expect((await get(relay.url, `/v1/history/${s}?days=30`, { from: VISITOR })).status).toBe(200);
    // Every span of every other symbol, once each, from distinct addresses.
    await inWaves(174, 29, (i) =>
      get(relay.url, `/v1/history/${symbols[2 + (i % 58)]}?days=${[7, 30, 365][Math.floor(i / 58)]}`, { from: bot(i) }),
    );
    expect(cache.bytes).toBeLessThanOrEqual(bytes);
    for (const s of ['s0', 's1'])
      expect((await get(relay.url, `/v1/history/${s}?days=30`, { from: VISITOR })).status).toBe(200);
    expect(upstream.histories().filter((h) => h === 's0:30' || h === 's1:30')).toEqual(['s0:30', 's1:30']);
  });

  it('one address cannot spend the history budget: past its share it gets 429 (or a stale copy), others still get theirs', async () => {
    // basic: 24 a minute for the relay, 18 of them for history; one address may start 5 a minute.
    const { relay, upstream } = await start({ PLAN: 'basic' });
    const greedy = [];
    for (const symbol of CATALOG)
      greedy.push((await get(relay.url, `/v1/history/${symbol}?days=7`, { from: bot(0) })).status);
    expect(greedy).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429]);
    const refused = await get(relay.url, '/v1/history/gbp?days=30', { from: bot(0) });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // What is cached costs no share; someone else is served (well within the budget).
    expect((await get(relay.url, '/v1/history/usd?days=7', { from: bot(0) })).status).toBe(200);
    expect((await get(relay.url, '/v1/history/ons?days=30', { from: bot(1) })).status).toBe(200);
    // Ten minutes on, the greedy address has a share again; its cached spans, now stale, are served
    // stale rather than refused once the share is spent again.
    clock += 10 * 60_000;
    for (const symbol of CATALOG.slice(0, 5))
      expect((await get(relay.url, `/v1/history/${symbol}?days=30`, { from: bot(0) })).status).toBe(200);
    const stale = await get(relay.url, '/v1/history/usd?days=7', { from: bot(0) });
    expect(stale.status).toBe(200);
    expect(stale.headers.warning).toContain('110');
    expect(upstream.histories()).toHaveLength(11);
  });

  it('spans asked for again and again get the budget kept for demand, while a botnet spreads one-time asks over more spans than the budget can fetch', async () => {
    const symbols = [...Array.from({ length: 300 }, (_, i) => `s${i}`), 'popular'];
    const { relay, upstream } = await start({ PLAN: 'basic' }, { symbols });
    // A span everyone reads: served from the cache, it must not raise the bar for spans missed.
    expect((await get(relay.url, '/v1/history/popular?days=30', { from: VISITOR })).status).toBe(200);
    let sent = 0;
    const served: number[] = [];
    // Every 2 s (relay time) 20 bots ask spans nobody asked before and 20 readers the popular
    // span; then the visitor asks its span.
    for (let step = 0; step < 60; step++) {
      clock = T0 + step * 2_000;
      await inWaves(20, 20, (j) =>
        get(
          relay.url,
          `/v1/history/${symbols[1 + ((sent + j) % 299)]}?days=${[7, 30][Math.floor((sent + j) / 299) % 2]}`,
          { from: bot(sent + j) },
        ),
      );
      await inWaves(20, 20, (j) => get(relay.url, '/v1/history/popular?days=30', { from: `127.4.${step}.${1 + j}` }));
      sent += 20;
      const visitor = await get(relay.url, `/v1/history/s0?days=${step < 30 ? 30 : 7}`, { from: VISITOR });
      served.push(visitor.status);
    }
    // Each of its two spans is served by its third ask at the latest, and from then on.
    expect(served.slice(2, 30).every((s) => s === 200)).toBe(true);
    expect(served.slice(32).every((s) => s === 200)).toBe(true);
    expect(upstream.histories().filter((h) => h.startsWith('s0:'))).toEqual(['s0:30', 's0:7']);
    // And the botnet had the rest of the budget, not more: at most 18 history requests a minute.
    expect(upstream.histories().length).toBeLessThanOrEqual(2 * 18 + 1);
  });
});

describe('history cache in Redis (cluster mode)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  }, 60_000);
  afterAll(async () => {
    await stopAll();
  });

  it('is bounded by bytes and keeps the spans visitors hit again over spans asked for once', async () => {
    const symbols = Array.from({ length: 60 }, (_, i) => `s${i}`);
    const bytes = 20 * (historyBody(30, T0).length + 200);
    const engine = await RedisEngine.connect({ url: redis.url, prefix: 'abuse:', cacheBytes: bytes });
    const { relay, upstream } = await start({ PLAN: 'enterprise', UPSTREAM_RPM: '1000000' }, { symbols, engine });
    await until(() => engine.leader.isLeader, 10_000);
    for (let k = 0; k < 2; k++)
      for (const s of ['s0', 's1'])
        expect((await get(relay.url, `/v1/history/${s}?days=30`, { from: VISITOR })).status).toBe(200);
    await inWaves(174, 29, (i) =>
      get(relay.url, `/v1/history/${symbols[2 + (i % 58)]}?days=${[7, 30, 365][Math.floor(i / 58)]}`, { from: bot(i) }),
    );
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      const keys = await client.keys('abuse:cache:*');
      const held = await Promise.all(keys.map((k) => client.strLen(k)));
      expect(held.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(bytes);
      expect(keys).toEqual(expect.arrayContaining(['abuse:cache:history:s0:30', 'abuse:cache:history:s1:30']));
      // Fewer than all 176 spans asked for: something was evicted, and not the visitors'.
      expect(keys.length).toBeLessThan(100);
    } finally {
      await client.close();
    }
    for (const s of ['s0', 's1'])
      expect((await get(relay.url, `/v1/history/${s}?days=30`, { from: VISITOR })).status).toBe(200);
    expect(upstream.histories().filter((h) => h === 's0:30' || h === 's1:30')).toEqual(['s0:30', 's1:30']);
  });
});
