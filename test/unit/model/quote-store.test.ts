import { describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/shared/types';
import { QuoteStore } from '../../../src/model/quote-store';

function quote(symbol: string, updated_at: string, price = '100'): Quote {
  return {
    symbol,
    title: 'دلار',
    category: 'currency',
    unit: 'unit',
    price,
    price_toman: price.slice(0, -1) || '0',
    change_pct: '0',
    high: price,
    low: price,
    updated_at,
  };
}

describe('QuoteStore', () => {
  it('applies new symbols and returns them', () => {
    const store = new QuoteStore();
    const applied = store.apply([quote('usd', '2026-01-01T10:00:00Z'), quote('eur', '2026-01-01T10:00:00Z')]);
    expect(applied.map((q) => q.symbol)).toEqual(['usd', 'eur']);
    expect(store.has('usd')).toBe(true);
    expect(store.get('eur')?.price).toBe('100');
    expect(store.all()).toHaveLength(2);
  });

  it('ignores an update older than the one held', () => {
    const store = new QuoteStore();
    store.apply([quote('usd', '2026-01-01T10:00:00Z', '200')]);
    expect(store.apply([quote('usd', '2026-01-01T09:59:59Z', '100')])).toEqual([]);
    expect(store.get('usd')?.price).toBe('200');
  });

  it('ignores a duplicate, and applies equal times with other content as a correction (DESIGN.md §7.1, §12)', () => {
    const store = new QuoteStore();
    store.apply([quote('usd', '2026-01-01T10:00:00Z', '200')]);
    expect(store.apply([quote('usd', '2026-01-01T10:00:00Z', '200')])).toEqual([]);
    // The same instant written with another offset, another price: the service corrected it.
    expect(store.apply([quote('usd', '2026-01-01T13:30:00+03:30', '300')]).map((q) => q.price)).toEqual(['300']);
    expect(store.get('usd')?.price).toBe('300');
    // An older quote still never wins, whatever its content.
    expect(store.apply([quote('usd', '2026-01-01T09:59:59Z', '400')])).toEqual([]);
  });

  it('compares instants, not strings, across UTC offsets', () => {
    const store = new QuoteStore();
    store.apply([quote('usd', '2026-01-01T10:00:00Z', '200')]);
    expect(store.apply([quote('usd', '2026-01-01T13:30:01+03:30', '300')])).toHaveLength(1);
    expect(store.get('usd')?.price).toBe('300');
  });

  it('ignores a quote whose updated_at is not a date', () => {
    const store = new QuoteStore();
    expect(store.apply([quote('usd', 'yesterday')])).toEqual([]);
    // Dates Date.parse reads but the service never writes are dropped too, not passed on.
    for (const odd of ['Thu, 01 Jan 2026 10:00:00 GMT', '2026', '2026-01-01', '01/01/2026 10:00'])
      expect(store.apply([quote('usd', odd)])).toEqual([]);
    expect(store.has('usd')).toBe(false);
  });

  it('returns one applied quote per symbol when a batch holds several', () => {
    const store = new QuoteStore();
    const applied = store.apply([
      quote('usd', '2026-01-01T10:00:00Z', '100'),
      quote('usd', '2026-01-01T10:00:05Z', '101'),
      quote('usd', '2026-01-01T10:00:01Z', '99'),
    ]);
    expect(applied.map((q) => q.price)).toEqual(['101']);
    expect(store.get('usd')?.price).toBe('101');
  });
});
