// A valid Quote for tests that need one: a US dollar quote; a test overrides the fields it is about.
import type { Quote } from '../../src/shared/types';

export function makeQuote(over: Partial<Quote> = {}): Quote {
  return {
    symbol: 'usd',
    title: 'دلار',
    category: 'currency',
    unit: 'unit',
    price: '1234567',
    price_toman: '123456.7',
    change_pct: '1.23',
    high: '1300005',
    low: '1200000',
    updated_at: '2026-03-20T10:00:00+03:30',
    ...over,
  };
}
