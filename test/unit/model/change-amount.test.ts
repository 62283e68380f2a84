import { describe, expect, it } from 'vitest';
import { changeAmount } from '../../../src/model/change-amount';

// A quote's fields that the change amount reads; `price_toman` is `price` ÷ 10 unless a test says otherwise.
const q = (
  symbol: string,
  price: string,
  change_pct: string,
  price_toman = price.length > 1 ? price.slice(0, -1) : '0',
) => ({
  symbol,
  price,
  price_toman,
  change_pct,
});

/** A change amount that could be computed. */
const amount = (value: string, direction: 'up' | 'down' | 'flat', unit: 'toman' | 'rial' | 'dollar') => ({
  ok: true,
  value,
  direction,
  unit,
});

describe('changeAmount', () => {
  it('is the change in toman from price_toman, rounded to a whole toman', () => {
    // 1234567 × 1.23 ÷ 101.23 = 1518517.41 ÷ 101.23 = 15000.6659… → 15001
    expect(changeAmount(q('usd', '12345670', '1.23'), 'toman')).toEqual(amount('15001', 'up', 'toman'));
  });

  it('is the change in rial from price, rounded to a whole rial', () => {
    // 12345670 × 1.23 ÷ 101.23 = 15185174.1 ÷ 101.23 = 150006.659… → 150007 (not 10 × the toman figure)
    expect(changeAmount(q('usd', '12345670', '1.23'), 'rial')).toEqual(amount('150007', 'up', 'rial'));
  });

  it('reads the field of the unit, not the other one', () => {
    // price_toman says 1000 while price says 5000 rial: toman reads 1000 (1000 × 25 ÷ 125 = 200), rial 5000 (1000).
    expect(changeAmount(q('eur', '5000', '25', '1000'), 'toman')).toMatchObject({ value: '200' });
    expect(changeAmount(q('eur', '5000', '25', '1000'), 'rial')).toMatchObject({ value: '1000' });
  });

  it('is in dollars to the cent for ons and silver_ounce, whatever the unit', () => {
    // 2650.5 × −0.54 ÷ 99.46 = −1431.27 ÷ 99.46 = −14.3904… → −14.39
    const ons = { symbol: 'ons', price: '2650.5', price_toman: '999999', change_pct: '-0.54' };
    expect(changeAmount(ons, 'toman')).toEqual(amount('-14.39', 'down', 'dollar'));
    expect(changeAmount(ons, 'rial')).toEqual(amount('-14.39', 'down', 'dollar'));
    // 31.2 × 4 ÷ 104 = 1.2
    expect(
      changeAmount({ symbol: 'silver_ounce', price: '31.2', price_toman: '0', change_pct: '+4' }, 'toman'),
    ).toEqual(amount('1.2', 'up', 'dollar'));
  });

  it('is negative for a fall', () => {
    // 98765432 × −2.5 ÷ 97.5 = −2532446.974… → −2532447 toman
    expect(changeAmount(q('coin_emami', '987654320', '-2.5'), 'toman')).toEqual(amount('-2532447', 'down', 'toman'));
  });

  it('is zero and flat for a zero change, and flat when the change rounds to zero', () => {
    for (const pct of ['0', '0.00', '-0', '+0']) {
      expect(changeAmount(q('usd', '12345670', pct), 'toman')).toEqual(amount('0', 'flat', 'toman'));
    }
    // 31.25 × 0.01 ÷ 100.01 = 0.0031… → 0.00
    expect(
      changeAmount({ symbol: 'ons', price: '31.25', price_toman: '0', change_pct: '0.01' }, 'toman'),
    ).toMatchObject({ value: '0', direction: 'flat' });
  });

  it('accepts a leading plus on the percent', () => {
    // 1000 × 1.23 ÷ 101.23 = 12.150… → 12
    expect(changeAmount(q('usd', '10000', '+1.23'), 'toman')).toMatchObject({ ok: true, value: '12', direction: 'up' });
  });

  it('is exact for 20-digit prices, where a float is wrong', () => {
    // 12345678901234567890 × 2 ÷ 102 = 242072135318324860.588… → 242072135318324861
    // (in floats, 12345678901234567890 * 2 / 102 is 242072135318324832)
    expect(changeAmount(q('usd', '1', '2', '12345678901234567890'), 'toman')).toMatchObject({
      value: '242072135318324861',
    });
    // 12345678901234567891 × 100 ÷ 200 = 6172839450617283945.5 → …946 (a tie, exactly)
    expect(changeAmount(q('usd', '12345678901234567891', '100'), 'rial')).toMatchObject({
      value: '6172839450617283946',
    });
    // 99999999999999999999 × 0.000001 ÷ 100.000001 = 999999990000.0001 → 999999990000
    expect(changeAmount(q('usd', '99999999999999999999', '0.000001'), 'rial')).toMatchObject({ value: '999999990000' });
  });

  it('rounds a tie away from zero on both signs', () => {
    // Whole units: 5 × 100 ÷ 200 = +2.5 → +3; 10 × −20 ÷ 80 = −2.5 → −3; 2 × −20 ÷ 80 = −0.5 → −1
    // (half toward +∞ would give −2 and 0; banker's rounding +2 and −2).
    expect(changeAmount(q('usd', '1', '100', '5'), 'toman')).toMatchObject({ value: '3', direction: 'up' });
    expect(changeAmount(q('usd', '1', '-20', '10'), 'toman')).toMatchObject({ value: '-3', direction: 'down' });
    expect(changeAmount(q('usd', '2', '-20'), 'rial')).toMatchObject({ value: '-1', direction: 'down' });
    // Cents: 0.05 × 100 ÷ 200 = 0.025 → 0.03; 0.1 × −20 ÷ 80 = −0.025 → −0.03
    expect(changeAmount({ symbol: 'ons', price: '0.05', price_toman: '0', change_pct: '100' }, 'toman')).toMatchObject({
      value: '0.03',
    });
    expect(changeAmount({ symbol: 'ons', price: '0.1', price_toman: '0', change_pct: '-20' }, 'toman')).toMatchObject({
      value: '-0.03',
    });
  });

  it('has no previous price at −100% or below: an error value, not a number', () => {
    for (const pct of ['-100', '-100.00', '-150']) {
      const result = changeAmount(q('usd', '12345670', pct), 'toman');
      expect(result).toMatchObject({ ok: false, reason: 'no-previous' });
      expect(result.ok || result.message).toMatch(/[\u0600-\u06FF]/);
    }
    // Just above −100 there is one: 1000 × −99.99 ÷ 0.01 = −99990 ÷ 0.01 = −9999000
    expect(changeAmount(q('usd', '10000', '-99.99'), 'toman')).toMatchObject({ ok: true, value: '-9999000' });
  });

  it('is an error value for a price or percent that is not a decimal', () => {
    expect(changeAmount(q('usd', '12345670', 'abc'), 'toman')).toMatchObject({ ok: false, reason: 'invalid' });
    expect(changeAmount(q('usd', '12345670', '1e3'), 'toman')).toMatchObject({ ok: false, reason: 'invalid' });
    expect(changeAmount(q('usd', 'NaN', '1', 'NaN'), 'rial')).toMatchObject({ ok: false, reason: 'invalid' });
  });
});
