import { describe, expect, it } from 'vitest';
import { divideRatio, multiplyRatio, roundRatio, subtractRatio, toRatio } from '../../../src/format/amount';
import { decimalToString, parseDecimal } from '../../../src/format/decimal';

const r = (s: string) => toRatio(parseDecimal(s));
const round = (num: bigint, den: bigint, digits: number) => decimalToString(roundRatio({ num, den }, digits));

describe('exact fractions', () => {
  it('reads a decimal as an integer over a power of ten', () => {
    expect(r('-12.50')).toEqual({ num: -125n, den: 10n });
    expect(r('12345678901234567890.123')).toEqual({ num: 12345678901234567890123n, den: 1000n });
  });

  it('rounds half away from zero on both signs', () => {
    expect(round(5n, 2n, 0)).toBe('3');
    expect(round(-5n, 2n, 0)).toBe('-3');
    expect(round(-1n, 2n, 0)).toBe('-1');
    expect(round(-1n, 40n, 2)).toBe('-0.03');
    expect(round(1n, 3n, 2)).toBe('0.33');
    expect(round(-2n, 3n, 2)).toBe('-0.67');
    expect(round(-1n, 3n, 0)).toBe('0');
  });

  it('is exact where one unit in the last place decides', () => {
    // 10^21 + 1 and 10^21 − 1 over 2·10^21: just above and just below one half.
    expect(round(10n ** 21n + 1n, 2n * 10n ** 21n, 0)).toBe('1');
    expect(round(10n ** 21n - 1n, 2n * 10n ** 21n, 0)).toBe('0');
  });

  it('multiplies, subtracts and divides exactly', () => {
    const x = divideRatio(subtractRatio(multiplyRatio(r('0.1'), r('3')), r('0.3')), r('7'))!;
    expect(decimalToString(roundRatio(x, 30))).toBe('0'); // 0.1 × 3 − 0.3 is 0, not 5.5e-17
    expect(decimalToString(roundRatio(divideRatio(r('1'), r('-8'))!, 3))).toBe('-0.125');
    expect(divideRatio(r('1'), r('0.00'))).toBeUndefined();
  });
});
