import { describe, expect, it } from 'vitest';
import { PriceBoardError } from '../../../src/shared/errors';
import { readServiceError } from '../../../src/api/http-error-map';
import { parseSymbolsBody } from '../../../src/api/symbols';
import { parsePricesBody, parseQuote } from '../../../src/api/validate';

const good = {
  symbol: 'usd',
  title: 'دلار آمریکا',
  category: 'currency',
  unit: 'unit',
  price: '1035000',
  price_toman: '103500',
  change_pct: '-0.54',
  high: '1040000',
  low: '1030000',
  updated_at: '2026-01-01T10:00:00+03:30',
};

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof PriceBoardError ? error.code : 'not a PriceBoardError';
  }
  return undefined;
}

describe('parseQuote', () => {
  it('keeps the documented fields only', () => {
    expect(parseQuote({ ...good, extra: 1 })).toEqual(good);
  });
  it('tolerates plain JSON numbers that print as decimals', () => {
    expect(parseQuote({ ...good, price: 1035000 }).price).toBe('1035000');
  });
  it.each([
    ['a missing price', { ...good, price: undefined }],
    ['a non-decimal price', { ...good, price: '1,035,000' }],
    ['an exponent', { ...good, high: 1e21 }],
    ['a bad date', { ...good, updated_at: 'today' }],
    ['no symbol', { ...good, symbol: '' }],
    ['a non-string title', { ...good, title: 5 }],
    ['not an object', 'usd'],
  ])('rejects %s as bad_response', (_name, input) => {
    expect(code(() => parseQuote(input))).toBe('bad_response');
  });
});

describe('parsePricesBody', () => {
  const body = { data: { at: '2026-01-01T10:00:00Z', delay_seconds: 0, quotes: [good] } };
  it('reads the envelope', () => {
    expect(parsePricesBody(body)).toEqual(body.data);
  });
  it('is all-or-nothing: one malformed quote fails the answer', () => {
    const bad = { data: { ...body.data, quotes: [good, { ...good, symbol: 'eur', low: null }] } };
    expect(code(() => parsePricesBody(bad))).toBe('bad_response');
  });
  it.each([
    ['no data', { quotes: [] }],
    ['quotes not an array', { data: { ...body.data, quotes: {} } }],
    ['no at', { data: { delay_seconds: 0, quotes: [] } }],
    ['a negative delay', { data: { ...body.data, delay_seconds: -1 } }],
    ['null', null],
  ])('rejects %s', (_name, input) => {
    expect(code(() => parsePricesBody(input))).toBe('bad_response');
  });
});

describe('parseSymbolsBody', () => {
  const list = [{ symbol: 'usd', title: 'دلار', category: 'currency', unit: 'unit' }, 'eur', { title: 'no id' }];
  const expected = [{ symbol: 'usd', title: 'دلار', category: 'currency', unit: 'unit' }, { symbol: 'eur' }];
  it.each([
    ['bare', list],
    ['under data', { data: list }],
    ['under data.symbols', { data: { symbols: list } }],
  ])('accepts a list %s', (_name, body) => {
    expect(parseSymbolsBody(body)).toEqual(expected);
  });
  it('rejects a body without a list', () => {
    expect(code(() => parseSymbolsBody({ data: { count: 3 } }))).toBe('bad_response');
  });
});

describe('readServiceError', () => {
  it('reads {"error":{"code","message"}}', () => {
    expect(readServiceError('{"error":{"code":"unknown_symbol","message":"x","symbols":["zzz"]}}')).toEqual({
      code: 'unknown_symbol',
      message: 'x',
      symbols: ['zzz'],
    });
  });
  it('reads {"error","message"}', () => {
    expect(readServiceError('{"error":"rate_limited","message":"slow down"}')).toMatchObject({
      code: 'rate_limited',
      message: 'slow down',
    });
  });
  it('tolerates anything else', () => {
    expect(readServiceError('<html>502</html>')).toEqual({});
    expect(readServiceError('[1,2]')).toEqual({});
  });
});
