// Reading the board's columns, density and link attributes (DESIGN.md section 10): what a value
// means, and which values fall back to the default with invalid_attribute.
import { describe, expect, it } from 'vitest';
import { BOARD_ATTRIBUTES, type BoardProperty } from '../../../src/shared/attribute-table';
import { linkFor, readSettings } from '../../../src/widget/settings';

type BoardAttributes = Record<BoardProperty, unknown>;

const read = (attrs: Partial<BoardAttributes>) =>
  readSettings(BOARD_ATTRIBUTES, { symbols: 'usd', ...attrs } as BoardAttributes, 'https://prices.example');

describe('columns', () => {
  it('keeps the order given, tolerates spaces and case, drops repeats', () => {
    expect(read({ columns: ' Bubble ,price,, spark,price' }).settings.columns).toEqual(['bubble', 'price', 'spark']);
    expect(read({}).settings.columns).toEqual(['price', 'change', 'high', 'low', 'time']);
    expect(read({ columns: ' ' }).invalid).toEqual([]);
  });

  it('an unknown name is invalid: today’s columns', () => {
    for (const columns of ['price,volume', 'title', 'change_amount', ',,x']) {
      const { settings, invalid } = read({ columns });
      expect(invalid, columns).toEqual(['columns']);
      expect(settings.columns).toEqual(['price', 'change', 'high', 'low', 'time']);
    }
  });
});

describe('density', () => {
  it('comfortable by default, compact, anything else invalid', () => {
    expect(read({}).settings.density).toBe('comfortable');
    expect(read({ density: ' COMPACT' }).settings.density).toBe('compact');
    expect(read({ density: 'dense' })).toMatchObject({ settings: { density: 'comfortable' }, invalid: ['density'] });
  });
});

describe('link', () => {
  it('takes an http(s) template with {symbol}; the symbol goes in URL-encoded, every time it appears', () => {
    const template = 'https://example.com/p/{symbol}?s={symbol}#x';
    expect(read({ link: ` ${template} ` }).settings.link).toBe(template);
    expect(linkFor(template, 'gold_18')).toBe('https://example.com/p/gold_18?s=gold_18#x');
    expect(linkFor('https://example.com/p/{symbol}', 'a b/c?')).toBe('https://example.com/p/a%20b%2Fc%3F');
  });

  it('refuses other schemes, credentials and a template without {symbol}', () => {
    for (const link of [
      'javascript:alert(1)//{symbol}',
      'data:text/html,{symbol}',
      'https://user:pw@example.com/{symbol}',
      'https://example.com/price',
      '{symbol}:alert(1)',
    ]) {
      expect(read({ link }), link).toMatchObject({ settings: { link: undefined }, invalid: ['link'] });
    }
  });

  it('checks each symbol: a symbol standing for the scheme gives no link', () => {
    // Whatever the template, the address of each symbol is checked again.
    expect(linkFor('{symbol}://example.com/x', 'javascript')).toBeUndefined();
    expect(linkFor('java{symbol}:alert(1)', 'script')).toBeUndefined();
  });
});
