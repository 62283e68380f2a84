import { describe, expect, it } from 'vitest';
import { PriceBoardError } from '../../../src/shared/errors';
import { formatPercent } from '../../../src/format/percent';

const intlPercent = new Intl.NumberFormat('fa-IR', {
  style: 'percent',
  signDisplay: 'exceptZero',
  minimumFractionDigits: 2,
});

describe('formatPercent', () => {
  it('shows a rise with LRM and plus, as Intl fa-IR does', () => {
    expect(formatPercent('1.23')).toBe('\u200E+۱٫۲۳٪');
    expect(formatPercent('1.23')).toBe(intlPercent.format(0.0123));
  });

  it('shows a fall with LRM and U+2212, as Intl fa-IR does', () => {
    expect(formatPercent('-0.54')).toBe('\u200E\u2212۰٫۵۴٪');
    expect(formatPercent('-0.54')).toBe(intlPercent.format(-0.0054));
    expect(formatPercent('-12.5')).toBe(intlPercent.format(-0.125));
  });

  it('shows zero without a sign or fraction', () => {
    for (const z of ['0', '-0', '+0', '0.00', '-0.000']) expect(formatPercent(z)).toBe('۰٪');
  });

  it('pads to two fraction digits', () => {
    expect(formatPercent('1.2')).toBe('\u200E+۱٫۲۰٪');
    expect(formatPercent('3')).toBe('\u200E+۳٫۰۰٪');
  });

  it('shows small changes exactly, rounding half-up beyond two digits', () => {
    expect(formatPercent('0.01')).toBe('\u200E+۰٫۰۱٪');
    expect(formatPercent('-0.005')).toBe('\u200E\u2212۰٫۰۱٪');
    expect(formatPercent('0.004')).toBe('۰٪');
    expect(formatPercent('+1.235')).toBe('\u200E+۱٫۲۴٪');
  });

  it('shows large changes with grouping and never a Latin digit', () => {
    expect(formatPercent('1234.5')).toBe('\u200E+۱٬۲۳۴٫۵۰٪');
    for (const s of ['1.23', '-0.54', '0', '1234.5', '-99.999']) expect(formatPercent(s)).not.toMatch(/[0-9]/);
  });

  it('throws bad_response on a non-decimal string', () => {
    expect(() => formatPercent('1.2%')).toThrow(PriceBoardError);
    expect(() => formatPercent('')).toThrow(expect.objectContaining({ code: 'bad_response' }));
  });
});
