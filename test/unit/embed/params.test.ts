import { describe, expect, it } from 'vitest';
import { EMBED_PARAMETERS, readEmbedParams, readWidget } from '../../../src/embed/params';
import { BOARD_ATTRIBUTES } from '../../../src/shared/attribute-table';

describe('embed parameters of the widgets', () => {
  it('reads widget=ticker|converter, and the board for anything else', () => {
    expect(readWidget('?widget=ticker')).toBe('ticker');
    expect(readWidget('?widget=%20Converter')).toBe('converter');
    expect(readWidget('?symbols=usd')).toBe('board');
    expect(readWidget('?widget=toString')).toBe('board');
    expect(readWidget('?widget=chart')).toBe('board');
  });

  it('keeps only the shown element’s attributes, the key alias included', () => {
    const ticker = ['symbols', 'api-key', 'theme', 'speed'];
    expect(readEmbedParams('?widget=ticker&symbols=usd&key=k&speed=80&chart=none&days=7', ticker).attributes).toEqual([
      ['symbols', 'usd'],
      ['api-key', 'k'],
      ['speed', '80'],
    ]);
    expect(readEmbedParams('?key=k', ['symbols']).attributes).toEqual([]);
  });

  it('a setting given twice: a value beats an empty one, then the full name beats the alias, then the first wins', () => {
    const key = (query: string) => readEmbedParams(query).attributes.find(([name]) => name === 'api-key')?.[1];
    expect(key('?api-key=&key=abc')).toBe('abc');
    expect(key('?key=abc&api-key=%20')).toBe('abc');
    expect(key('?key=&api-key=')).toBe('');
    expect(key('?key=abc&api-key=def')).toBe('def');
    expect(key('?api-key=def&key=abc')).toBe('def');
    expect(key('?api-key=one&api-key=two')).toBe('one');
    expect(readEmbedParams('?symbols=&symbols=usd').attributes).toEqual([['symbols', 'usd']]);
  });

  it('reads the board’s attributes by default', () => {
    expect(readEmbedParams('?chart=none&speed=80').attributes).toEqual([['chart', 'none']]);
  });

  it('takes every board attribute from the one table, the columns, density and link among them', () => {
    const attributes = Object.values(BOARD_ATTRIBUTES).map((spec) => spec.attribute);
    expect(attributes).toEqual(expect.arrayContaining(['columns', 'density', 'link']));
    // The loader passes on each of them (and the page's own max-height) as a data-* setting.
    expect(EMBED_PARAMETERS.names).toEqual(expect.arrayContaining([...attributes, 'max-height']));
    const query = '?columns=price,bubble&density=compact&link=https%3A%2F%2Fexample.com%2Fp%2F%7Bsymbol%7D';
    expect(readEmbedParams(query).attributes).toEqual([
      ['columns', 'price,bubble'],
      ['density', 'compact'],
      ['link', 'https://example.com/p/{symbol}'],
    ]);
  });

  it('reads max-height as pixels or a length, and nothing else', () => {
    expect(readEmbedParams('?max-height=300').maxHeight).toBe('300px');
    expect(readEmbedParams('?max-height=%2020.5EM').maxHeight).toBe('20.5em');
    expect(readEmbedParams('?max-height=60vh').maxHeight).toBe('60vh');
    expect(readEmbedParams('?symbols=usd').maxHeight).toBeNull();
    for (const bad of ['300px;color:red', 'calc(1px)', '-5', 'url(x)', '1e3']) {
      expect(readEmbedParams(`?max-height=${encodeURIComponent(bad)}`).maxHeight, bad).toBeUndefined();
    }
  });
});
