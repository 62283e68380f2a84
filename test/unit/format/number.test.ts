import { describe, expect, it } from 'vitest';
import { PriceBoardError } from '../../../src/shared/errors';
import type { DisplayUnit, Quote } from '../../../src/shared/types';
import { makeQuote } from '../../helpers/quote';
import { formatAxisNumber } from '../../../src/format/axis-number';
import { formatDecimal, formatQuoteValue, rialToToman, toPersianDigits, unitLabel } from '../../../src/format/number';

const LATIN_DIGIT = /[0-9]/;
const fa = (n: number, o: Intl.NumberFormatOptions = {}) => new Intl.NumberFormat('fa-IR', o).format(n);

const quote = makeQuote;

/** Each of `shown`'s fields of `q`, in `unit`, reads as given. */
function expectShown(q: Quote, unit: DisplayUnit, shown: Partial<Record<'price' | 'high' | 'low', string>>): void {
  for (const [field, text] of Object.entries(shown) as ['price' | 'high' | 'low', string][])
    expect(formatQuoteValue(q, field, unit), field).toBe(text);
}

describe('toPersianDigits', () => {
  it('replaces every ASCII digit and keeps the rest', () => {
    expect(toPersianDigits('0123456789 a/:')).toBe('۰۱۲۳۴۵۶۷۸۹ a/:');
  });
});

describe('formatDecimal', () => {
  it('formats a 25-digit price exactly', () => {
    expect(formatDecimal('1234567890123456789012345')).toBe('۱٬۲۳۴٬۵۶۷٬۸۹۰٬۱۲۳٬۴۵۶٬۷۸۹٬۰۱۲٬۳۴۵');
  });

  it('keeps every digit of a long fraction', () => {
    expect(formatDecimal('123456.123456789012345678')).toBe('۱۲۳٬۴۵۶٫۱۲۳۴۵۶۷۸۹۰۱۲۳۴۵۶۷۸');
  });

  it('matches Intl fa-IR for numbers a float holds exactly', () => {
    for (const n of [0, 1, 12, 999, 1000, 123456.5, 1234567.25, -1.5, -1234.5, 0.5]) {
      expect(formatDecimal(String(n))).toBe(fa(n, { maximumFractionDigits: 20 }).replace('\u200E\u2212۰', '۰'));
    }
  });

  it('leads a negative number with LRM and U+2212, like Intl', () => {
    expect(formatDecimal('-1.5')).toBe('\u200E\u2212۱٫۵');
    expect(formatDecimal('-1.5')).toBe(fa(-1.5, { signDisplay: 'exceptZero' }));
  });

  it('drops a leading plus, leading zeros and trailing fraction zeros', () => {
    expect(formatDecimal('+0001234.500')).toBe('۱٬۲۳۴٫۵');
    expect(formatDecimal('  42 ')).toBe('۴۲');
  });

  it('shows zero and negative zero as an unsigned zero', () => {
    for (const z of ['0', '-0', '+0', '-0.000', '000']) expect(formatDecimal(z)).toBe('۰');
  });

  it('pads to minFractionDigits and rounds half-up to maxFractionDigits exactly', () => {
    expect(formatDecimal('12', { minFractionDigits: 2 })).toBe('۱۲٫۰۰');
    expect(formatDecimal('1.005', { maxFractionDigits: 2 })).toBe('۱٫۰۱'); // a float would give 1.00
    expect(formatDecimal('1.004999', { maxFractionDigits: 2 })).toBe('۱');
    expect(formatDecimal('999.995', { minFractionDigits: 2, maxFractionDigits: 2 })).toBe('۱٬۰۰۰٫۰۰');
    expect(formatDecimal('-0.004', { minFractionDigits: 2, maxFractionDigits: 2 })).toBe('۰٫۰۰');
    expect(formatDecimal('-2.5', { maxFractionDigits: 0 })).toBe('\u200E\u2212۳');
  });

  it('signs positives with LRM and plus under exceptZero, never zero', () => {
    expect(formatDecimal('1234567.5', { signDisplay: 'exceptZero' })).toBe(
      fa(1234567.5, { signDisplay: 'exceptZero' }),
    );
    expect(formatDecimal('0.00', { signDisplay: 'exceptZero' })).toBe('۰');
  });

  it('throws bad_response on anything but a decimal string', () => {
    for (const bad of ['', ' ', 'abc', '1,000', '1.', '.5', '1e5', '--1', '0x10', 'NaN', '۱۲۳', '1 2']) {
      expect(() => formatDecimal(bad), bad).toThrow(PriceBoardError);
    }
    expect(() => formatDecimal(12 as unknown as string)).toThrow(expect.objectContaining({ code: 'bad_response' }));
  });
});

describe('rialToToman', () => {
  it('divides by ten exactly', () => {
    expect(rialToToman('1234567')).toBe('123456.7');
    expect(rialToToman('1234560')).toBe('123456');
    expect(rialToToman('5')).toBe('0.5');
    expect(rialToToman('-15')).toBe('-1.5');
    expect(rialToToman('0')).toBe('0');
    expect(rialToToman('-0')).toBe('0');
    expect(rialToToman('12.5')).toBe('1.25');
    expect(rialToToman('0.05')).toBe('0.005');
    expect(rialToToman('+00120')).toBe('12');
  });

  it('keeps every digit of a 25-digit amount', () => {
    expect(rialToToman('9999999999999999999999999')).toBe('999999999999999999999999.9');
  });
});

describe('formatQuoteValue', () => {
  it('shows toman: price_toman for the price, high and low divided by ten', () => {
    expectShown(quote({}), 'toman', { price: '۱۲۳٬۴۵۶٫۷', high: '۱۳۰٬۰۰۰٫۵', low: '۱۲۰٬۰۰۰' });
  });

  it('shows a toman fraction only when it is not zero', () => {
    expectShown(quote({ price_toman: '123456.0', high: '1234560' }), 'toman', { price: '۱۲۳٬۴۵۶', high: '۱۲۳٬۴۵۶' });
  });

  it('shows rials as given', () => {
    expectShown(quote({}), 'rial', { price: '۱٬۲۳۴٬۵۶۷', high: '۱٬۳۰۰٬۰۰۵', low: '۱٬۲۰۰٬۰۰۰' });
  });

  it('shows a 25-digit toman price exactly', () => {
    const q = quote({ price: '12345678901234567890123450', price_toman: '1234567890123456789012345' });
    expect(formatQuoteValue(q, 'price', 'toman')).toBe('۱٬۲۳۴٬۵۶۷٬۸۹۰٬۱۲۳٬۴۵۶٬۷۸۹٬۰۱۲٬۳۴۵');
    expect(formatQuoteValue(q, 'price', 'rial')).toBe('۱۲٬۳۴۵٬۶۷۸٬۹۰۱٬۲۳۴٬۵۶۷٬۸۹۰٬۱۲۳٬۴۵۰');
  });

  it('always shows dollar symbols in dollars with two fraction digits', () => {
    const q = quote({ symbol: 'ons', price: '2345.5', price_toman: '2345.5', high: '2400', low: '2300.125' });
    for (const unit of ['toman', 'rial'] as const) {
      expect(formatQuoteValue(q, 'price', unit)).toBe('۲٬۳۴۵٫۵۰');
      expect(formatQuoteValue(q, 'high', unit)).toBe('۲٬۴۰۰٫۰۰');
      expect(formatQuoteValue(q, 'low', unit)).toBe('۲٬۳۰۰٫۱۳'); // half-up, in strings
    }
    expect(formatQuoteValue(quote({ symbol: 'silver_ounce', price: '31.994' }), 'price', 'toman')).toBe('۳۱٫۹۹');
  });

  it('never prints a Latin digit', () => {
    for (const unit of ['toman', 'rial'] as const) {
      for (const field of ['price', 'high', 'low'] as const) {
        expect(formatQuoteValue(quote({}), field, unit)).not.toMatch(LATIN_DIGIT);
        expect(formatQuoteValue(quote({ symbol: 'ons' }), field, unit)).not.toMatch(LATIN_DIGIT);
      }
    }
  });
});

describe('unitLabel', () => {
  it('names the unit a cell is shown in', () => {
    expect(unitLabel(quote({}), 'toman')).toBe('تومان');
    expect(unitLabel(quote({}), 'rial')).toBe('ریال');
    expect(unitLabel(quote({ symbol: 'ons' }), 'rial')).toBe('دلار');
    expect(unitLabel(quote({ symbol: 'silver_ounce' }), 'toman')).toBe('دلار');
  });
});

describe('formatAxisNumber', () => {
  it('uses fixed fraction digits so labels keep their width', () => {
    expect(formatAxisNumber(1234567.891, 2)).toBe('۱٬۲۳۴٬۵۶۷٫۸۹');
    expect(formatAxisNumber(1234567, 2)).toBe('۱٬۲۳۴٬۵۶۷٫۰۰');
    expect(formatAxisNumber(0.5, 0)).toBe('۱');
    expect(formatAxisNumber(12.3, 1)).toHaveLength(formatAxisNumber(45.6, 1).length);
  });

  it('shows a fraction up to the most digits asked only where there is one (toman)', () => {
    expect(formatAxisNumber(1357913 / 10, 0, 1)).toBe('۱۳۵٬۷۹۱٫۳');
    expect(formatAxisNumber(1357910 / 10, 0, 1)).toBe('۱۳۵٬۷۹۱');
  });

  it('signs negatives like Intl and never signs zero', () => {
    expect(formatAxisNumber(-1234.5, 1)).toBe('\u200E\u2212۱٬۲۳۴٫۵');
    expect(formatAxisNumber(-0.001, 2)).toBe('۰٫۰۰');
    expect(formatAxisNumber(-0, 0)).toBe('۰');
  });

  it('returns an empty string for a non-finite number', () => {
    expect(formatAxisNumber(NaN, 2)).toBe('');
    expect(formatAxisNumber(Infinity, 2)).toBe('');
  });
});
