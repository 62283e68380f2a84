import { describe, expect, it } from 'vitest';
import { readEmbedParams, readWidget } from '../../../src/embed/params';

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

  it('reads the board’s attributes by default', () => {
    expect(readEmbedParams('?chart=none&speed=80').attributes).toEqual([['chart', 'none']]);
  });
});
