import { describe, expect, it } from 'vitest';
import type { Quote } from '../../../src/shared/types';
import { makeQuote } from '../../helpers/quote';
import { convert, quantityName } from '../../../src/converter/convert';

/** A dollar at 100,000 toman, unchanged today. */
const quote = (over: Partial<Quote>): Quote =>
  makeQuote({ price: '1000000', price_toman: '100000', change_pct: '0', high: '1000000', low: '1000000', ...over });

const usd = quote({});
const gold = quote({ symbol: 'gold_18', category: 'gold', unit: 'gram', price: '30000000', price_toman: '3000000' });
const ons = quote({ symbol: 'ons', category: 'global', unit: 'usd_ounce', price: '2000.5', price_toman: '0' });

describe('convert', () => {
  // Money in whole toman (DESIGN §9): 1.5 × 12345678901234567891 = …836.5, half-up to …837.
  it('multiplies an amount by the toman price exactly and rounds money to whole toman, half-up', () => {
    const big = quote({ symbol: 'eur', price_toman: '12345678901234567891' });
    expect(convert('۱٫۵', 'to-money', big, usd, 'toman')).toEqual({ ok: true, value: '18518518351851851837' });
    expect(convert('0.5', 'to-money', quote({ price_toman: '3' }), usd, 'toman')).toEqual({ ok: true, value: '2' });
    expect(convert('0.49', 'to-money', quote({ price_toman: '1' }), usd, 'toman')).toEqual({ ok: true, value: '0' });
  });
  it('rounds a dollar-priced result to whole toman or rial: 2 ounces at 2000.37 dollars, a dollar at 100,000.5', () => {
    const ounce = quote({ symbol: 'ons', unit: 'usd_ounce', price: '2000.37', price_toman: '0' });
    const dollar = quote({ price: '1000005', price_toman: '100000.5' });
    // 2 × 2000.37 × 100000.5 = 400076000.37 toman; × 1000005 rial = 4000760003.7 rial
    expect(convert('2', 'to-money', ounce, dollar, 'toman')).toEqual({ ok: true, value: '400076000', via: '100000.5' });
    expect(convert('2', 'to-money', ounce, dollar, 'rial')).toEqual({ ok: true, value: '4000760004', via: '1000005' });
  });
  it('keeps two significant digits of a small quotient: a million toman of gold ounces is not 0', () => {
    const ounce = quote({ symbol: 'ons', unit: 'usd_ounce', price: '4012.35', price_toman: '0' });
    const dollar = quote({ price_toman: '105000' });
    // 1,000,000 / (4012.35 × 105000 = 421296750) = 0.0023736…
    expect(convert('۱۰۰۰۰۰۰', 'from-money', ounce, dollar, 'toman')).toMatchObject({ ok: true, value: '0.0024' });
    expect(convert('1', 'from-money', quote({ price_toman: '3000000000' }), usd, 'toman')).toMatchObject({
      ok: true,
      value: '0.00000000033',
    });
    expect(convert('5', 'from-money', gold, usd, 'toman')).toMatchObject({ ok: true, value: '0.0000017' });
    // What the fixed digits do not round to 0 keeps them (2 for a currency: 0.0549 is 0.05, not
    // 0.055; 3 for grams); at one or more, the fixed digits; zero stays zero.
    expect(convert('0.0549', 'from-money', quote({ price_toman: '1' }), usd, 'toman')).toMatchObject({
      ok: true,
      value: '0.05',
    });
    expect(convert('0.0999', 'from-money', quote({ price_toman: '1' }), usd, 'toman')).toMatchObject({
      ok: true,
      value: '0.1',
    });
    expect(convert('0.0006', 'from-money', quote({ price_toman: '1' }), usd, 'toman')).toMatchObject({
      ok: true,
      value: '0.0006',
    });
    expect(convert('16470', 'from-money', gold, usd, 'toman')).toMatchObject({ ok: true, value: '0.005' });
    expect(convert('3100000', 'from-money', gold, usd, 'toman')).toMatchObject({ ok: true, value: '1.033' });
    expect(convert('0', 'from-money', gold, usd, 'toman')).toMatchObject({ ok: true, value: '0' });
  });
  it('names the unit of the symbol side: گرم، مثقال، عدد; none where the title is the unit', () => {
    expect(quantityName(gold)).toBe('گرم');
    expect(quantityName(quote({ unit: 'mesghal' }))).toBe('مثقال');
    expect(quantityName(quote({ unit: 'count' }))).toBe('عدد');
    expect(quantityName(usd)).toBe('');
    expect(quantityName(ons)).toBe('');
  });
  it('uses rials for unit=rial', () => {
    expect(convert('2', 'to-money', usd, usd, 'rial')).toEqual({ ok: true, value: '2000000' });
  });
  it('divides rounding half up to 2 digits for currencies and 3 for grams', () => {
    expect(convert('100000', 'from-money', quote({ price_toman: '300000' }), usd, 'toman')).toEqual({
      ok: true,
      value: '0.33',
    });
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
      ['1', quote({ price_toman: '-0.5' }), 'no-price'],
    ] as const) {
      const out = convert(text, 'from-money', q, usd, 'toman');
      expect(out).toMatchObject({ ok: false, reason });
      expect(JSON.stringify(out)).not.toMatch(/NaN|undefined/);
      if (!out.ok) expect(out.message).toMatch(/[\u0600-\u06FF]/);
    }
    expect(convert('1', 'to-money', ons, undefined, 'toman')).toMatchObject({ ok: false, reason: 'waiting' });
    expect(convert('1', 'to-money', quote({ price_toman: '-0.5' }), usd, 'toman')).toMatchObject({
      ok: false,
      reason: 'no-price',
    });
  });
});
