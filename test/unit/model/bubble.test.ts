import { describe, expect, it } from 'vitest';
import { bubbleTitle, coinBubble } from '../../../src/model/bubble';
import { COINS, TROY_OUNCE_GRAMS } from '../../../src/model/coins';
import { multiplyRatio, roundRatio, toRatio } from '../../../src/format/amount';
import { decimalToString, parseDecimal } from '../../../src/format/decimal';
import type { Quote } from '../../../src/shared/types';

const quote = (symbol: string, price: string, price_toman = price): Quote => ({
  symbol,
  title: symbol,
  category: 'coin',
  unit: 'count',
  price,
  price_toman,
  change_pct: '0',
  high: price,
  low: price,
  updated_at: '2026-11-26T12:00:00+03:30',
});

// ons 2650.5 $, usd 1,045,500 rial (its price_toman, 104,550, must not be used: the units would not cancel).
const ONS = quote('ons', '2650.5', '277112');
const USD = quote('usd', '1045500', '104550');

describe('coinBubble', () => {
  /*
   * By hand, for the full coins (7.3224 g of pure gold):
   *   7.3224 × 2650.5 = 19408.0212 $·g/oz;  × 1,045,500 = 20,291,086,164.6 rial·g/oz;
   *   ÷ 31.1034768 g/oz = 652,373,568.88… rial of gold in one coin.
   * Emami at 1,100,000,000 rial: 1,100,000,000 ÷ 652,373,568.88 = 1.686150… → +68.62 %.
   * Bahar at 1,050,000,000 rial: ÷ 652,373,568.88 = 1.609507… → +60.95 %.
   * Half (3.6612 g, intrinsic 326,186,784.44) at 560,000,000: 1.716807… → +71.68 %.
   * Quarter (1.8306 g, intrinsic 163,093,392.22) at 320,000,000: 1.962066… → +96.21 %.
   * Gerami (0.909 g: 0.909 × 2650.5 × 1,045,500 ÷ 31.1034768 = 80,985,411.08) at 150,000,000:
   *   1.852185… → +85.22 %.
   */
  it.each([
    ['coin_emami', '1100000000', '68.62'],
    ['coin_bahar', '1050000000', '60.95'],
    ['coin_half', '560000000', '71.68'],
    ['coin_quarter', '320000000', '96.21'],
    ['coin_gerami', '150000000', '85.22'],
  ])('is the premium of %s over its gold at world price', (symbol, price, percent) => {
    expect(coinBubble(quote(symbol, price), ONS, USD)).toMatchObject({ percent, direction: 'up' });
  });

  it('is negative when the coin sells below its gold', () => {
    // 600,000,000 ÷ 652,373,568.88 = 0.919718… → −8.03 %
    expect(coinBubble(quote('coin_emami', '600000000'), ONS, USD)).toMatchObject({
      percent: '-8.03',
      direction: 'down',
    });
  });

  it('is computed in rial from price fields, whatever price_toman says', () => {
    const coin = quote('coin_emami', '1100000000', '1');
    expect(coinBubble(coin, ONS, USD)?.percent).toBe('68.62');
  });

  it('rounds a tie to two decimals away from zero, exactly', () => {
    // With ons = 31.1034768 $ and usd = 10,000 rial, the gold of a full coin is 7.3224 × 10,000 = 73,224 rial.
    const ons = quote('ons', TROY_OUNCE_GRAMS);
    const usd = quote('usd', '10000');
    // 73,224 × 1.00005 = 73,227.6612: +0.005 % exactly → +0.01; 73,224 × 0.99995 = 73,220.3388: −0.005 % → −0.01.
    expect(coinBubble(quote('coin_bahar', '73227.6612'), ons, usd)).toMatchObject({ percent: '0.01', direction: 'up' });
    expect(coinBubble(quote('coin_bahar', '73220.3388'), ons, usd)).toMatchObject({
      percent: '-0.01',
      direction: 'down',
    });
    // One ten-thousandth of a rial below the tie: 0.0049998… % → 0, flat.
    expect(coinBubble(quote('coin_bahar', '73227.6611'), ons, usd)).toMatchObject({ percent: '0', direction: 'flat' });
    expect(coinBubble(quote('coin_bahar', '73224'), ons, usd)).toMatchObject({ percent: '0', direction: 'flat' });
  });

  it('is exact with prices of 21 digits, where floats cannot tell the cases apart', () => {
    // Gold of a full coin: 7.3224 × 31.1034768 × 10^20 ÷ 31.1034768 = 732,240,000,000,000,000,000 rial.
    // × 1.00005 = 732,276,612,000,000,000,000: the tie +0.005 % → +0.01. One rial more is above the
    // tie (→ +0.01), one rial less below it (→ 0): the three are the same number as floats.
    const ons = quote('ons', TROY_OUNCE_GRAMS);
    const usd = quote('usd', '100000000000000000000');
    expect(coinBubble(quote('coin_emami', '732276612000000000000'), ons, usd)?.percent).toBe('0.01');
    expect(coinBubble(quote('coin_emami', '732276612000000000001'), ons, usd)?.percent).toBe('0.01');
    expect(coinBubble(quote('coin_emami', '732276611999999999999'), ons, usd)?.percent).toBe('0');
  });

  it('is undefined (an empty cell) for other symbols', () => {
    for (const symbol of ['usd', 'gold_18', 'ons', 'coin_parsian', 'toString', '__proto__']) {
      expect(coinBubble(quote(symbol, '1100000000'), ONS, USD)).toBeUndefined();
    }
  });

  it('is undefined while ons or usd is missing, or a price is unreadable or zero', () => {
    const coin = quote('coin_emami', '1100000000');
    expect(coinBubble(coin, undefined, USD)).toBeUndefined();
    expect(coinBubble(coin, ONS, undefined)).toBeUndefined();
    expect(coinBubble(undefined, ONS, USD)).toBeUndefined();
    expect(coinBubble(coin, quote('ons', '0'), USD)).toBeUndefined();
    expect(coinBubble(coin, ONS, quote('usd', '-1045500'))).toBeUndefined();
    // Two prices below zero do not make a value of gold (their signs would cancel).
    expect(coinBubble(coin, quote('ons', '-4000'), quote('usd', '-1045500'))).toBeUndefined();
    expect(coinBubble(coin, quote('ons', 'n/a'), USD)).toBeUndefined();
    expect(coinBubble(quote('coin_emami', '0'), ONS, USD)).toBeUndefined();
    expect(coinBubble(quote('coin_emami', ''), ONS, USD)).toBeUndefined();
  });
});

describe('bubbleTitle', () => {
  it('says how the bubble was computed, in Persian digits, in toman', () => {
    const bubble = coinBubble(quote('coin_emami', '1100000000'), ONS, USD)!;
    expect(bubbleTitle(bubble, 'toman')).toBe(
      'حباب \u200E+۶۸٫۶۲٪ = قیمت سکه ÷ ارزش طلای آن − ۱؛ ' +
        'ارزش طلا = ۷٫۳۲۲۴ گرم طلای خالص (۸٫۱۳۶ گرم با عیار ۹۰۰) ' +
        '× انس ۲٬۶۵۰٫۵ دلار × دلار ۱۰۴٬۵۵۰ تومان ÷ ۳۱٫۱۰۳۴۷۶۸ گرم در انس ' +
        // 652,373,568.88 rial = 65,237,356.888 toman → 65,237,357
        '= ۶۵٬۲۳۷٬۳۵۷ تومان؛ قیمت سکه ۱۱۰٬۰۰۰٬۰۰۰ تومان',
    );
  });

  it('gives amounts in rial for unit=rial, and a negative bubble with its minus', () => {
    const title = bubbleTitle(coinBubble(quote('coin_gerami', '70000000'), ONS, USD)!, 'rial');
    // 70,000,000 ÷ 80,985,411.08 = 0.864353… → −13.56 %
    expect(title).toContain('حباب \u200E\u2212۱۳٫۵۶٪');
    expect(title).toContain('۰٫۹۰۹ گرم طلای خالص (۱٫۰۱ گرم با عیار ۹۰۰)');
    expect(title).toContain('دلار ۱٬۰۴۵٬۵۰۰ ریال');
    expect(title).toContain('= ۸۰٬۹۸۵٬۴۱۱ ریال؛ قیمت سکه ۷۰٬۰۰۰٬۰۰۰ ریال');
    expect(title).not.toMatch(/[0-9]/);
  });
});

describe('COINS', () => {
  it('has pure gold = gross weight × fineness, exactly, for every coin', () => {
    for (const spec of Object.values(COINS)) {
      const pure = roundRatio(
        multiplyRatio(toRatio(parseDecimal(spec.grossGrams)), toRatio(parseDecimal(spec.fineness))),
        12,
      );
      expect(decimalToString(pure)).toBe(spec.pureGrams);
    }
  });
});
