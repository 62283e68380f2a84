import { describe, expect, it } from 'vitest';
import { call, getJson, type ErrorBody, type HistoryBody, type PricesBody, useSandbox } from './helpers';

// Saturday 2026-11-21, 14:07 in Tehran.
const NOW = Date.parse('2026-11-21T10:37:12Z');
const s = useSandbox({ now: () => NOW, seed: 7 });

const history = (symbol: string, days: number, key = 'pro-key') =>
  getJson<HistoryBody>(s.url, `/v1/history/${symbol}?days=${days}`, key);
const MIN = 60_000;

describe('GET /v1/history/{symbol}', () => {
  it.each([
    [7, 15 * MIN],
    [30, 60 * MIN],
    [365, 240 * MIN],
  ])('gives %i days on a regular grid aligned to Tehran midnight, ending at the current price', async (days, step) => {
    const body = await history('usd', days);
    expect(body.data.symbol).toBe('usd');
    expect(body.data.days).toBe(days);
    const points = body.data.points;
    const times = points.map((p) => Date.parse(p.at));
    expect(points.every((p) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+03:30$/.test(p.at))).toBe(true);
    expect(points.every((p) => /^\d+$/.test(p.price))).toBe(true);
    expect(times[0]).toBeGreaterThanOrEqual(NOW - days * 86_400_000);
    expect(times[0]! - (NOW - days * 86_400_000)).toBeLessThan(step);
    for (let i = 1; i < times.length - 1; i++) expect(times[i]! - times[i - 1]!).toBe(step);
    // Grid points are on Tehran wall-clock multiples of the step (Tehran is UTC+03:30).
    expect((times[0]! + 210 * MIN) % step).toBe(0);
    const last = points.at(-1)!;
    const quote = (await getJson<PricesBody>(s.url, '/v1/prices?symbols=usd')).data.quotes[0]!;
    expect(last.price).toBe(quote.price);
    expect(last.at).toBe('2026-11-21T14:00:00.000+03:30');
    expect(points.length).toBeCloseTo((days * 86_400_000) / step, -1);
  });

  it('gives the same points for the same request', async () => {
    const a = await call(s.url, '/v1/history/coin_emami?days=30', { key: 'pro-key' });
    const b = await call(s.url, '/v1/history/coin_emami?days=30', { key: 'pro-key' });
    expect(await a.text()).toBe(await b.text());
  });

  it('agrees between spans where they overlap, and stays plausible over a year', async () => {
    const week = (await history('gold_18', 7)).data.points;
    const month = new Map((await history('gold_18', 30)).data.points.map((p) => [p.at, p.price]));
    const shared = week.slice(0, -1).filter((p) => month.has(p.at));
    expect(shared.length).toBeGreaterThan(100);
    for (const p of shared) expect(month.get(p.at)).toBe(p.price);
    const year = (await history('gold_18', 365)).data.points.map((p) => Number(p.price));
    const ratio = year[0]! / year.at(-1)!;
    expect(ratio).toBeGreaterThan(0.4);
    expect(ratio).toBeLessThan(1.2);
    expect(new Set(year).size).toBeGreaterThan(year.length / 3);
  });

  it('stands still outside trading hours', async () => {
    const points = (await history('usd', 30)).data.points;
    // Friday 2026-11-20 in Tehran: closed all day.
    const friday = points.filter((p) => p.at.startsWith('2026-11-20T'));
    expect(friday).toHaveLength(24);
    expect(new Set(friday.map((p) => p.price)).size).toBe(1);
  });

  it('prices the dollar symbols in dollars with cents', async () => {
    const points = (await history('ons', 7)).data.points;
    expect(points.every((p) => /^\d+\.\d\d$/.test(p.price))).toBe(true);
    expect(Number(points[0]!.price)).toBeGreaterThan(3000);
  });

  it('differs from symbol to symbol', async () => {
    const eur = (await history('eur', 7)).data.points.map((p) => Number(p.price) / 1_218_000);
    const gbp = (await history('gbp', 7)).data.points.map((p) => Number(p.price) / 1_396_000);
    expect(eur).not.toEqual(gbp);
  });

  it('limits the span to the plan: demo 7, basic 30, professional and enterprise 365', async () => {
    expect((await call(s.url, '/v1/history/usd?days=7', { key: 'demo-key' })).status).toBe(200);
    const demo = await call(s.url, '/v1/history/usd?days=30', { key: 'demo-key' });
    expect(demo.status).toBe(403);
    expect(((await demo.json()) as ErrorBody).error).toMatchObject({ code: 'plan_limit', max_days: 7 });
    expect((await call(s.url, '/v1/history/usd?days=8', { key: 'demo-key' })).status).toBe(403);
    expect((await call(s.url, '/v1/history/usd?days=30', { key: 'basic-key' })).status).toBe(200);
    expect((await call(s.url, '/v1/history/usd?days=31', { key: 'basic-key' })).status).toBe(403);
    expect((await call(s.url, '/v1/history/usd?days=365', { key: 'pro-key' })).status).toBe(200);
    expect((await call(s.url, '/v1/history/usd?days=365', { key: 'enterprise-key' })).status).toBe(200);
  });

  it.each(['', '?days=0', '?days=366', '?days=abc', '?days=1.5', '?days=-3', '?days=%207'])(
    'answers 400 bad_request for %s',
    async (query) => {
      const res = await call(s.url, `/v1/history/usd${query}`, { key: 'pro-key' });
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error.code).toBe('bad_request');
    },
  );

  it('answers 404 unknown_symbol for an unknown symbol', async () => {
    const res = await call(s.url, '/v1/history/gold_99?days=7', { key: 'pro-key' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as ErrorBody).error).toMatchObject({ code: 'unknown_symbol', symbols: ['gold_99'] });
  });
});
