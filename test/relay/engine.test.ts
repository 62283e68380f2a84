// The memory engine's bounds and resume rules (the contract a Redis engine must keep too).
import { describe, expect, it } from 'vitest';
import { MemoryCache, MemoryQuoteState } from '../../relay/engine/memory';
import type { Quote } from '../../relay/from-src';

const quote = (symbol: string, minute: number): Quote => ({
  symbol,
  title: symbol,
  category: 'currency',
  unit: 'unit',
  price: String(1000 + minute),
  price_toman: String(100 + minute),
  change_pct: '0.00',
  high: '1',
  low: '1',
  updated_at: new Date(Date.UTC(2026, 10, 23, 8, minute)).toISOString(),
});

describe('MemoryQuoteState', () => {
  it('numbers only real changes, and resumes only from ids still held', async () => {
    const state = new MemoryQuoteState(3);
    expect((await state.apply([quote('usd', 1), quote('eur', 1)], 0)).map((e) => e.id)).toEqual([1, 2]);
    expect(await state.apply([quote('usd', 0), quote('usd', 1)], 0)).toEqual([]); // older or same: nothing
    await state.apply([quote('usd', 2)], 0);
    await state.apply([quote('usd', 3)], 0);
    // The buffer holds ids 2..4: resuming after 1 misses nothing; after 0 it would.
    expect((await state.since(1, new Set(['usd'])))!.map((e) => e.id)).toEqual([3, 4]);
    expect(await state.since(0, new Set(['usd']))).toBeUndefined();
    expect(await state.since(9, new Set(['usd']))).toBeUndefined();
    expect(await state.snapshot(['eur', 'usd', 'gbp'])).toMatchObject({ id: 4, quotes: [{ symbol: 'eur' }, { symbol: 'usd', price: '1003' }] });
  });
});

describe('MemoryCache', () => {
  it('drops the oldest entries past its entry or byte bound', async () => {
    const cache = new MemoryCache(3, 25);
    for (const key of ['a', 'b', 'c']) await cache.set(key, { body: '0123456789', storedAt: 0 });
    expect(await cache.get('a')).toBeUndefined(); // 30 bytes > 25
    await cache.set('b', { body: 'x', storedAt: 1 }); // re-set: now the newest
    await cache.set('d', { body: 'y', storedAt: 2 });
    await cache.set('e', { body: 'z', storedAt: 3 });
    expect(await cache.get('c')).toBeUndefined(); // 4 entries > 3
    expect((await cache.get('b'))?.body).toBe('x');
  });
});
