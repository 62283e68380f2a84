// Upstream spending: whatever the number of visitors, at most BUDGET_SHARE of the plan; quotes
// before history; 429/5xx/401 from upstream honoured without a storm.
import { afterEach, describe, expect, it } from 'vitest';
import { Budget } from '../../relay/budget';
import { MemoryBudget } from '../../relay/engine/memory-budget';
import {
  control,
  get,
  inWaves,
  startPair,
  Stream,
  until,
  upstreamRequests,
  visitorAddress,
  type Pair,
} from './helpers';

const PAGE_SYMBOLS = 'usd,eur,gold_18,coin_emami,ons';

describe('budget windows (clock injected)', () => {
  it('spends at most the share per sliding minute, keeps slots for quotes, and frees them as the minute slides', async () => {
    let now = Date.UTC(2026, 10, 23, 8, 0, 0);
    const budget = new Budget(new MemoryBudget(), { perMinute: 30, perDay: 20_000 }, 0.8, () => now);
    expect(budget.perMinute).toBe(24);
    const other = [];
    for (let i = 0; i < 24; i++) other.push((await budget.take('other')).ok);
    // History and symbols stop short of the slots kept for quotes.
    expect(other.filter(Boolean)).toHaveLength(24 - budget.reserve);
    for (let i = 0; i < budget.reserve; i++) expect((await budget.take('quotes')).ok).toBe(true);
    const refused = await budget.take('quotes');
    expect(refused).toEqual({ ok: false, retryAfterMs: 60_000 });
    now += 59_999;
    expect((await budget.take('quotes')).ok).toBe(false);
    now += 1;
    expect((await budget.take('quotes')).ok).toBe(true);
  });

  it('stops at the share of the daily budget until the Tehran day turns', async () => {
    let now = Date.UTC(2026, 10, 23, 10, 0, 0);
    const budget = new Budget(new MemoryBudget(), { perMinute: 1_000_000, perDay: 10 }, 0.8, () => now);
    for (let i = 0; i < 8; i++) expect((await budget.take('quotes')).ok).toBe(true);
    expect((await budget.take('quotes')).ok).toBe(false);
    now = Date.UTC(2026, 10, 23, 20, 31, 0); // 00:01 in Tehran
    expect((await budget.take('quotes')).ok).toBe(true);
  });
});

describe('a small day budget (clock injected)', () => {
  it('keeps for quotes at most a quarter of the day: a day share of 160 still lets the catalog and history in', async () => {
    const now = Date.UTC(2026, 10, 23, 10, 0, 0);
    const budget = new Budget(new MemoryBudget(), { perMinute: 1_000_000, perDay: 200 }, 0.8, () => now);
    expect(budget.perDay).toBe(160);
    expect((await budget.take('quotes')).ok).toBe(true); // the stream's first open
    let other = 0;
    while ((await budget.take('other')).ok) other++;
    // 120 of the day for everyone but quotes (the first open included), 40 kept for quotes.
    expect(other).toBe(119);
    let quotes = 0;
    while ((await budget.take('quotes')).ok) quotes++;
    expect(quotes).toBe(40);
  });

  it.each([
    [{ perMinute: 30, perDay: 20_000 }, 21_600],
    [{ perMinute: 30, perDay: 200 }, 2_160_000],
    [{ perMinute: 600, perDay: null }, 125],
  ])('paces stream opens by the minute and the quarter of the day the poll leaves: %o → %i ms', (plan, gap) => {
    expect(new Budget(new MemoryBudget(), plan, 0.8).reopenGapMs()).toBe(gap);
  });
});

describe('many visitors on a basic key', () => {
  let pair: Pair;
  afterEach(() => pair.close());

  it('serves 300 visitors from distinct addresses while upstream sees a handful of requests', async () => {
    pair = await startPair({ PLAN: 'basic' });
    const served = await inWaves(300, 50, async (i) => {
      const from = visitorAddress(i);
      const prices = await get(pair.relay.url, `/v1/prices?symbols=${PAGE_SYMBOLS}`, { from });
      const history = await get(pair.relay.url, '/v1/history/usd?days=30', { from });
      const stream = new Stream(pair.relay.url, PAGE_SYMBOLS, { from });
      const snapshot = await stream.event((e) => e.event === 'quotes');
      stream.close();
      return prices.status === 200 && history.status === 200 && JSON.parse(snapshot.data).quotes.length === 5;
    });
    expect(served.filter(Boolean)).toHaveLength(300);
    const upstream = await upstreamRequests(pair.sandbox);
    expect(upstream.length).toBeLessThanOrEqual(24);
    expect(upstream.filter((r) => r.status === 429)).toEqual([]);
  });

  it('puts quotes before history when the budget is short, and never passes it', async () => {
    pair = await startPair({ PLAN: 'basic' });
    const symbols = JSON.parse((await get(pair.relay.url, '/v1/symbols')).body).data.symbols.map(
      (s: { symbol: string }) => s.symbol,
    ) as string[];
    // 60 visitors each ask for the chart of another symbol: more histories than the budget holds.
    const answers = await inWaves(60, 20, async (i) => {
      const from = visitorAddress(i);
      const history = await get(pair.relay.url, `/v1/history/${symbols[i]}?days=7`, { from });
      const prices = await get(pair.relay.url, `/v1/prices?symbols=${PAGE_SYMBOLS}`, { from });
      return { history: history.status, prices: prices.status, retryAfter: history.headers['retry-after'] };
    });
    expect(answers.every((a) => a.prices === 200)).toBe(true);
    const refused = answers.filter((a) => a.history === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((a) => Number(a.retryAfter) >= 1 && Number(a.retryAfter) <= 60)).toBe(true);
    const upstream = await upstreamRequests(pair.sandbox);
    expect(upstream.length).toBeLessThanOrEqual(24);
    expect(upstream.filter((r) => r.status === 429)).toEqual([]);
  });
});

describe('upstream failures', () => {
  let pair: Pair;
  afterEach(() => pair.close());

  it('honours an upstream 429 with its Retry-After: no request until then', async () => {
    pair = await startPair();
    await get(pair.relay.url, '/v1/prices?symbols=usd');
    await control(pair.sandbox.url, 'faults', { rules: [{ path: '/v1/history', kind: 'rate_limit', retryAfter: 30 }] });
    const first = await get(pair.relay.url, '/v1/history/usd?days=7');
    expect(first.status).toBe(429);
    const more = await Promise.all(
      ['eur', 'aed', 'gbp', 'try'].map((s) => get(pair.relay.url, `/v1/history/${s}?days=7`)),
    );
    expect(more.map((a) => a.status)).toEqual([429, 429, 429, 429]);
    expect(Number(more[0]!.headers['retry-after'])).toBeGreaterThanOrEqual(25);
    const histories = (await upstreamRequests(pair.sandbox)).filter((r) => r.path.startsWith('/v1/history'));
    expect(histories).toHaveLength(1);
  });

  it('backs off after 5xx instead of retrying in a storm, and serves cached history stale', async () => {
    let skew = 0;
    pair = await startPair({}, { now: () => Date.now() + skew });
    expect((await get(pair.relay.url, '/v1/history/usd?days=7')).status).toBe(200);
    await control(pair.sandbox.url, 'faults', { rules: [{ path: '/v1/history', kind: 'status', status: 503 }] });
    // Six minutes on, the cached history is due again; upstream fails; the old one is served, marked.
    skew = 6 * 60_000;
    const stale = await get(pair.relay.url, '/v1/history/usd?days=7');
    expect(stale.status).toBe(200);
    expect(Number(stale.headers.age)).toBeGreaterThanOrEqual(360);
    expect(stale.headers.warning).toMatch(/^110 /);
    const failed = await inWaves(20, 5, (i) =>
      get(pair.relay.url, `/v1/history/${['eur', 'aed', 'gbp', 'try'][i % 4]}?days=7`),
    );
    expect(failed.every((a) => a.status === 503 || a.status === 429)).toBe(true);
    // The one that failed, then nothing while backing off.
    const histories = (await upstreamRequests(pair.sandbox)).filter((r) => r.path.startsWith('/v1/history'));
    expect(histories.map((r) => r.status)).toEqual([200, 503]);
  });

  it('stops upstream requests on 401, says so once, reports unhealthy, and keeps serving the last data', async () => {
    pair = await startPair();
    expect((await get(pair.relay.url, '/v1/prices?symbols=usd')).status).toBe(200);
    expect((await get(pair.relay.url, '/healthz')).status).toBe(200);
    await control(pair.sandbox.url, 'faults', { rules: [{ kind: 'status', status: 401 }] });
    await get(pair.relay.url, '/v1/history/usd?days=7');
    for (const s of ['eur', 'aed']) await get(pair.relay.url, `/v1/history/${s}?days=7`);
    const health = await get(pair.relay.url, '/healthz');
    expect(health.status).toBe(503);
    expect(JSON.parse(health.body).upstream).toBe('key_refused');
    expect((await get(pair.relay.url, '/v1/prices?symbols=usd')).status).toBe(200);
    const refusals = pair.logs.filter((l) => l.includes('upstream_key_refused'));
    expect(refusals).toHaveLength(1);
    const after401 = (await upstreamRequests(pair.sandbox)).filter((r) => r.status === 401);
    expect(after401).toHaveLength(1);
  });
});

describe('when upstream goes away', () => {
  let pair: Pair;
  afterEach(() => pair.close());

  it('serves the last prices marked stale (Age, Warning) and reports unhealthy', async () => {
    let skew = 0;
    pair = await startPair({}, { now: () => Date.now() + skew });
    expect((await get(pair.relay.url, '/v1/prices?symbols=usd')).status).toBe(200);
    await control(pair.sandbox.url, 'faults', { rules: [{ path: '/v1/stream', kind: 'status', status: 503 }] });
    pair.sandbox.sandbox.streams.closeAll();
    await until(
      async () => (await upstreamRequests(pair.sandbox)).some((r) => r.path === '/v1/stream' && r.status === 503),
      10_000,
    );
    skew = 2 * 60_000;
    const stale = await get(pair.relay.url, '/v1/prices?symbols=usd');
    expect(stale.status).toBe(200);
    expect(Number(stale.headers.age)).toBeGreaterThanOrEqual(120);
    expect(stale.headers.warning).toMatch(/^110 /);
    const health = await get(pair.relay.url, '/healthz');
    expect([health.status, JSON.parse(health.body).status]).toEqual([503, 'unhealthy']);
  });
});

describe('without an upstream stream', () => {
  let pair: Pair;
  afterEach(() => pair.close());

  it('falls back to one batched /v1/prices poll, and changes still reach the streams', async () => {
    pair = await startPair({}, {}, (sandbox) =>
      control(sandbox.url, 'faults', { rules: [{ path: '/v1/stream', kind: 'status', status: 404 }] }),
    );
    const stream = new Stream(pair.relay.url, 'usd,eur');
    await stream.event((e) => e.event === 'quotes', 0, 20_000);
    // The first quotes may come from the poll that runs while the stream still retries, before it gives up.
    await until(() => pair.relay.feed.mode === 'poll', 15_000);
    await control(pair.sandbox.url, 'market', { set: [{ symbol: 'eur', price: '1444440' }] });
    await stream.event((e) => e.event === 'quote' && JSON.parse(e.data).price === '1444440', 0, 10_000);
    const health = JSON.parse((await get(pair.relay.url, '/healthz')).body);
    expect(health).toMatchObject({ status: 'ok', upstream: 'poll' });
    // Every poll asks for all the symbols in use at once.
    const polls = (await upstreamRequests(pair.sandbox)).filter((r) => r.path === '/v1/prices');
    expect(polls.length).toBeGreaterThan(0);
    stream.close();
  });
});

describe('SYMBOLS', () => {
  let pair: Pair;
  afterEach(() => pair.close());

  it('serves only the allowed symbols and lists only them', async () => {
    pair = await startPair({ SYMBOLS: 'usd,eur' });
    const list = JSON.parse((await get(pair.relay.url, '/v1/symbols')).body).data.symbols.map(
      (s: { symbol: string }) => s.symbol,
    );
    expect(list).toEqual(['usd', 'eur']);
    const other = await get(pair.relay.url, '/v1/prices?symbols=usd,gbp');
    expect([other.status, JSON.parse(other.body).error.symbols]).toEqual([404, ['gbp']]);
    expect((await get(pair.relay.url, '/v1/history/gbp?days=7')).status).toBe(404);
    // Not even an upstream request for it.
    expect((await upstreamRequests(pair.sandbox)).some((r) => r.url.includes('gbp'))).toBe(false);
  });
});
