import { describe, expect, it } from 'vitest';
import { compare, divideBy10, dollarsToToman, percentChange } from '../../sandbox/decimal';
import { PLANS, RateLimiter, resolveKey } from '../../sandbox/limits';
import { Market } from '../../sandbox/market';
import { SYMBOLS } from '../../sandbox/symbols';
import { isoTehran, isTradingHours, tehranDay } from '../../sandbox/tehran';
import type { Quote } from '../../sandbox/types';

// Tehran is UTC+03:30: 05:30Z is 09:00 in Tehran.
const SATURDAY_NOON = Date.parse('2026-11-21T08:30:00Z');
const FRIDAY_NOON = Date.parse('2026-11-20T08:30:00Z');

function market(mode: 'auto' | 'open' | 'closed', at: number, seed = 1) {
  let now = at;
  const m = new Market({ seed, mode, now: () => now });
  return { m, advance: (ms: number) => (now += ms), now: () => now };
}
const all = (m: Market) => SYMBOLS.map((d) => m.quote(d.symbol)!);

describe('decimal strings', () => {
  it('divides by ten exactly', () => {
    expect(divideBy10('1050000')).toBe('105000');
    expect(divideBy10('1050005')).toBe('105000.5');
    expect(divideBy10('11.70')).toBe('1.17');
    expect(divideBy10('5')).toBe('0.5');
    expect(divideBy10('0.05')).toBe('0.005');
    expect(divideBy10('0')).toBe('0');
    expect(divideBy10('98765432109876543210987654321')).toBe('9876543210987654321098765432.1');
  });

  it('computes the change in percent with two decimals, rounding half away from zero', () => {
    expect(percentChange('101', '100')).toBe('1.00');
    expect(percentChange('99.455', '100')).toBe('-0.55');
    expect(percentChange('1000', '1000')).toBe('0.00');
    expect(percentChange('999', '1000')).toBe('-0.10');
    expect(percentChange('1000001', '3')).toBe('33333266.67');
    expect(percentChange('5', '0')).toBe('0.00');
  });

  it('converts dollars at a rial rate to whole tomans and compares', () => {
    expect(dollarsToToman('4012.35', '1050000')).toBe('421296750');
    expect(dollarsToToman('0.01', '400')).toBe('0');
    expect(dollarsToToman('0.01', '500')).toBe('1');
    expect(compare('10.5', '10.50')).toBe(0);
    expect(compare('9', '10.1')).toBe(-1);
    expect(compare('100000000000000000001', '100000000000000000000')).toBe(1);
  });
});

describe('Tehran time', () => {
  it('formats with the +03:30 offset and knows the trading hours', () => {
    expect(isoTehran(Date.parse('2026-11-21T20:29:59.5Z'))).toBe('2026-11-21T23:59:59.500+03:30');
    expect(tehranDay(Date.parse('2026-11-21T20:30:00Z'))).toBe('2026-11-22');
    expect(isTradingHours(SATURDAY_NOON)).toBe(true);
    expect(isTradingHours(FRIDAY_NOON)).toBe(false);
    expect(isTradingHours(Date.parse('2026-11-21T05:29:00Z'))).toBe(false); // 08:59
    expect(isTradingHours(Date.parse('2026-11-21T05:30:00Z'))).toBe(true); // 09:00
    expect(isTradingHours(Date.parse('2026-11-21T19:30:00Z'))).toBe(false); // 23:00
  });
});

describe('the simulated market', () => {
  it('changes only some prices on a read, rare currencies seldom', () => {
    const { m, advance } = market('open', SATURDAY_NOON);
    const counts = new Map<string, number>();
    for (let i = 0; i < 200; i++) {
      advance(5000);
      const changed = m.tick();
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.length).toBeLessThan(SYMBOLS.length / 2);
      for (const id of changed) counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    const count = (id: string) => counts.get(id) ?? 0;
    expect(count('usd')).toBeGreaterThan(40);
    expect(count('gold_18')).toBeGreaterThan(40);
    expect(count('ang')).toBeLessThan(20);
    expect(count('bam')).toBeLessThan(20);
  });

  it('moves updated_at only for the changed symbols, and high/low with the price', () => {
    const { m, advance, now } = market('open', SATURDAY_NOON);
    const before = new Map(all(m).map((q) => [q.symbol, q]));
    advance(5000);
    const changed = new Set(m.tick());
    for (const q of all(m)) {
      const old = before.get(q.symbol)!;
      if (changed.has(q.symbol)) {
        expect(q.updated_at).toBe(isoTehran(now()));
        expect(q.price).not.toBe(old.price);
        expect(compare(q.high, q.price)).toBeGreaterThanOrEqual(0);
        expect(compare(q.low, q.price)).toBeLessThanOrEqual(0);
        expect(Math.abs(Number(q.price) / Number(old.price) - 1)).toBeLessThan(0.02);
      } else {
        expect(q).toBe(old);
      }
    }
  });

  it('changes nothing outside trading hours in auto mode, and nothing when closed', () => {
    const friday = market('auto', FRIDAY_NOON);
    expect(friday.m.open).toBe(false);
    const before = all(friday.m);
    for (let i = 0; i < 20; i++) expect(friday.m.tick()).toEqual([]);
    expect(all(friday.m)).toEqual(before);
    // The last change was before Thursday 23:00, when the market closed.
    for (const q of before)
      expect(Date.parse(q.updated_at)).toBeLessThanOrEqual(Date.parse('2026-11-19T23:00:00+03:30'));

    const closed = market('closed', SATURDAY_NOON);
    expect(closed.m.tick()).toEqual([]);
    closed.m.mode = 'open';
    expect(closed.m.tick().length).toBeGreaterThan(0);
    closed.m.mode = 'auto';
    expect(closed.m.open).toBe(true);
  });

  it('starts a new day from the last price: change_pct against the previous close', () => {
    const { m, advance } = market('open', Date.parse('2026-11-21T19:00:00Z')); // 22:30 Saturday
    m.set([{ symbol: 'usd', price: '1000000' }]);
    m.set([{ symbol: 'usd', price: '1020000' }]);
    advance(2 * 3_600_000); // 00:30 Sunday: a new Tehran day
    const [q] = m.set([{ symbol: 'usd', price: '1030200' }]);
    expect(q).toMatchObject({ price: '1030200', change_pct: '1.00', high: '1030200', low: '1020000' });
  });

  it('keeps updated_at strictly rising even when the clock stands still', () => {
    const { m } = market('open', SATURDAY_NOON);
    const quotes: Quote[] = [];
    m.onChange((q) => quotes.push(q));
    m.set([{ symbol: 'eur', price: '1' }]);
    m.set([{ symbol: 'eur', price: '2' }]);
    m.tick();
    const eur = quotes.filter((q) => q.symbol === 'eur').map((q) => Date.parse(q.updated_at));
    for (let i = 1; i < eur.length; i++) expect(eur[i]).toBeGreaterThan(eur[i - 1]!);
  });

  it('is reproducible from its seed and returns to its seed state on reset', () => {
    const a = market('open', SATURDAY_NOON, 42);
    const b = market('open', SATURDAY_NOON, 42);
    const c = market('open', SATURDAY_NOON, 43);
    expect(all(a.m)).toEqual(all(b.m));
    expect(all(a.m)).not.toEqual(all(c.m));
    const start = all(a.m);
    a.m.tick();
    a.m.set([{ symbol: 'usd', price: '5' }]);
    a.m.reset();
    expect(all(a.m)).toEqual(start);
  });
});

describe('plans and limits', () => {
  it('resolves the fixed keys and their suffixed forms', () => {
    expect(resolveKey('pro-key:x')).toMatchObject({ key: 'pro-key:x', plan: PLANS.professional });
    expect(resolveKey('restricted-key')).toMatchObject({
      plan: PLANS.enterprise,
      origins: ['https://allowed.example'],
    });
    expect(resolveKey('toString')).toBeUndefined();
    expect(resolveKey(undefined)).toBeUndefined();
  });

  it('caps a day at the plan limit until Tehran midnight; enterprise has no cap', () => {
    let now = Date.parse('2026-11-21T18:30:00Z'); // 22:00 in Tehran
    const limiter = new RateLimiter(() => now);
    const demo = resolveKey('demo-key')!;
    const enterprise = resolveKey('enterprise-key')!;
    for (let i = 0; i < 1000; i++) {
      expect(limiter.take(demo).ok).toBe(true);
      if (i % 10 === 9) now += 60_000;
    }
    expect(limiter.take(demo)).toEqual({ ok: false, scope: 'day', retryAfter: 2 * 3600 - 100 * 60 });
    now = Date.parse('2026-11-21T20:30:00Z'); // midnight
    expect(limiter.take(demo).ok).toBe(true);
    for (let i = 0; i < 3000; i++) {
      expect(limiter.take(enterprise).ok).toBe(true);
      if (i % 600 === 599) now += 60_000;
    }
  });
});
