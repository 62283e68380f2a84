import { describe, expect, it } from 'vitest';
import { decimalToString, parseDecimal } from '../../../src/format/decimal';
import { divideDecimal, multiplyDecimal, readAmount, toLatinDigits } from '../../../src/format/amount';

const mul = (a: string, b: string) => decimalToString(multiplyDecimal(parseDecimal(a), parseDecimal(b)));
const div = (a: string, b: string, digits: number) =>
  decimalToString(divideDecimal(parseDecimal(a), parseDecimal(b), digits));

describe('multiplyDecimal', () => {
  it('is exact for a 20-digit price', () => {
    expect(mul('1.5', '12345678901234567891')).toBe('18518518351851851836.5');
    expect(mul('99999999999999999999.99', '99999999999999999999.99')).toBe(
      '9999999999999999999998000000000000000000.0001',
    );
  });
  it('keeps signs and drops trailing zeros', () => {
    expect(mul('-2.50', '4')).toBe('-10');
    expect(mul('0.1', '0.2')).toBe('0.02');
    expect(mul('-0', '5')).toBe('0');
  });
});

describe('divideDecimal', () => {
  it('rounds half up exactly to the asked digits', () => {
    expect(div('1', '3', 2)).toBe('0.33');
    expect(div('2', '3', 2)).toBe('0.67');
    expect(div('1', '8', 2)).toBe('0.13'); // 0.125: half goes up
    expect(div('1', '8', 3)).toBe('0.125');
    expect(div('10', '4', 0)).toBe('3'); // 2.5
  });
  it('rounds half away from zero for negatives', () => {
    expect(div('-1', '8', 2)).toBe('-0.13');
    expect(div('1', '-3', 2)).toBe('-0.33');
  });
  it('is exact with long operands', () => {
    expect(div('100000000000000000000000000', '3', 2)).toBe('33333333333333333333333333.33');
    expect(div('1', '123456789012345678901', 3)).toBe('0');
    expect(div('12345678901234567890.5', '0.5', 2)).toBe('24691357802469135781');
  });
  it('refuses zero', () => {
    expect(() => div('1', '0.00', 2)).toThrow(RangeError);
  });
});

describe('readAmount', () => {
  it('takes Persian, Arabic and Latin digits', () => {
    expect(readAmount('۱۲۳')).toBe('123');
    expect(readAmount('١٢٣')).toBe('123');
    expect(readAmount('12۳٤')).toBe('1234');
    expect(toLatinDigits('۰۹٠٩')).toBe('0909');
  });
  it('takes both decimal separators and ignores grouping', () => {
    expect(readAmount('۱٫۵')).toBe('1.5');
    expect(readAmount('1.50')).toBe('1.5');
    expect(readAmount('۱٬۲۳۴٫۵')).toBe('1234.5');
    expect(readAmount(' 1,234.5 ')).toBe('1234.5');
    expect(readAmount('.5')).toBe('0.5');
    expect(readAmount('5.')).toBe('5');
  });
  it('rejects what is not a non-negative number', () => {
    for (const bad of ['', 'abc', '1.2.3', '-5', '1e5', 'NaN', '۱٫۲٫۳', '.']) expect(readAmount(bad)).toBeUndefined();
  });
});
