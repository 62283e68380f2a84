import { describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/shared/types';
import { makeQuote } from '../../helpers/quote';
import { convert } from '../../../src/converter/convert';

/** A dollar at 100,000 toman, unchanged today. */
const quote = (over: Partial<Quote>): Quote =>
  makeQuote({ price: '1000000', price_toman: '100000', change_pct: '0', high: '1000000', low: '1000000', ...over });

const usd = quote({});
const gold = quote({ symbol: 'gold_18', category: 'gold', unit: 'gram', price: '30000000', price_toman: '3000000' });
const ons = quote({ symbol: 'ons', category: 'global', unit: 'usd_ounce', price: '2000.5', price_toman: '0' });

describe('convert', () => {
  it('multiplies an amount by the toman price exactly', () => {
    const big = quote({ symbol: 'eur', price_toman: '12345678901234567891' });
    expect(convert('۱٫۵', 'to-money', big, usd, 'toman')).toEqual({ ok: true, value: '18518518351851851836.5' });
  });
  it('uses rials for unit=rial', () => {
    expect(convert('2', 'to-money', usd, usd, 'rial')).toEqual({ ok: true, value: '2000000' });
  });
  it('divides rounding half up to 2 digits for currencies and 3 for grams', () => {
    expect(convert('100000', 'from-money', quote({ price_toman: '300000' }), usd, 'toman')).toEqual({ ok: true, value: '0.33' });
    expect(convert('1000000', 'from-money', gold, usd, 'toman')).toEqual({ ok: true, value: '0.333' });
    expect(convert('۲۰۰۰۰۰۰', 'from-money', gold, usd, 'toman')).toEqual({ ok: true, value: '0.667' });
  });
  it('converts a dollar-priced symbol through usd and says the rate', () => {
    expect(convert('2', 'to-money', ons, usd, 'toman')).toEqual({ ok: true, value: '400100000', via: '100000' });
    expect(convert('200050000', 'from-money', ons, usd, 'toman')).toEqual({ ok: true, value: '1', via: '100000' });
  });
  it('gives a Persian message, never NaN, for bad input or no price', () => {
    for (const [text, q, reason] of [
      ['abc', usd, 'invalid'],
      ['', usd, 'empty'],
      ['1', undefined, 'waiting'],
      ['1', quote({ price_toman: '0' }), 'no-price'],
      ['1', quote({ price_toman: 'oops' }), 'no-price'],
    ] as const) {
      const out = convert(text, 'from-money', q, usd, 'toman');
      expect(out).toMatchObject({ ok: false, reason });
      expect(JSON.stringify(out)).not.toMatch(/NaN|undefined/);
      if (!out.ok) expect(out.message).toMatch(/[\u0600-\u06FF]/);
    }
    expect(convert('1', 'to-money', ons, undefined, 'toman')).toMatchObject({ ok: false, reason: 'waiting' });
  });
});
