// A frame of live updates measures only the rows whose quote changed (templates.ts, columnWidths):
// a live price longer than any before still widens its column in every row, so the columns keep
// lining up, in the default columns and with the columns' chunk (change-amount, bubble). A coin's
// bubble also changes with ons and usd while its own row's quote stays: it widens its column too.
import { fixture, html } from '@open-wc/testing-helpers/pure';
import { describe, expect, it } from 'vitest';
import '../../src/price-board';
import type { PriceBoard } from '../../src/price-board';
import { base, cell, row, sandbox, until, untilLoaded, useSandbox } from './helpers/board';

const KEY = 'pro-key:board-live-widths';

useSandbox();

const width = (el: PriceBoard, symbol: string, part: string): number =>
  row(el, symbol)!.querySelector<HTMLElement>(`[part~="${part}"]`)!.getBoundingClientRect().width;

describe('<price-board> column widths under live updates', () => {
  it.each([
    ['the default columns', undefined],
    ['change-amount and bubble', 'price,change-amount,bubble,time'],
  ])('a longer live price widens its column in every row (%s)', async (_, columns) => {
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" stream="sse" symbols="usd,eur,coin_emami" columns=${columns ?? 'price,change,time'}></price-board>`,
    );
    await untilLoaded(el);
    await until(() => el.status === 'live', 'the stream did not go live');
    await until(() => ['usd', 'eur', 'coin_emami'].every((s) => el.quotes.has(s)), 'not every row has its price');
    const before = width(el, 'eur', 'price');
    // Two more digits than any price shown: its text is wider than the column was.
    const digits = Math.max(...[...el.quotes.values()].map((q) => q.price.split('.')[0]!.length));
    const price = '9'.repeat(digits + 2);
    const old = cell(el, 'usd', 'price');
    await sandbox.market({ set: [{ symbol: 'usd', price }] });
    await until(() => cell(el, 'usd', 'price') !== old, 'the pushed price did not reach the row');
    await until(() => width(el, 'eur', 'price') > before, 'the other rows’ price cells did not widen');
    const widths = ['usd', 'eur', 'coin_emami'].map((s) => width(el, s, 'price'));
    expect(new Set(widths.map((w) => Math.round(w))).size, `price cells: ${widths.join(', ')}`).toBe(1);
    const text = row(el, 'usd')!.querySelector<HTMLElement>('[part~="price"] .value')!.getBoundingClientRect().width;
    expect(widths[0]).toBeGreaterThan(text);
  });

  it.each([
    ['usd', '1', 'eur,coin_emami,coin_bahar'],
    ['ons', '0.001', 'coin_bahar,eur,coin_emami'],
  ])(
    'a longer bubble from a new %s price (the coins’ quotes unchanged) widens its column in every row',
    async (input, price, shown) => {
      // A world price of the usual size first (an earlier test may have left another).
      await sandbox.market({
        set: [
          { symbol: 'usd', price: '1050000' },
          { symbol: 'ons', price: '2650' },
        ],
      });
      const el = await fixture<PriceBoard>(
        html`<price-board base-url=${base()} api-key=${KEY} chart="none" stream="sse" symbols=${shown} columns="price,bubble,time"></price-board>`,
      );
      await untilLoaded(el);
      await until(() => el.status === 'live', 'the stream did not go live');
      await until(() => /[۰-۹]/.test(cell(el, 'coin_bahar', 'bubble')), 'no bubble for the coins');
      const symbols = shown.split(',');
      const coins = symbols.filter((s) => s.startsWith('coin_'));
      const before = width(el, 'eur', 'bubble');
      const old = cell(el, 'coin_emami', 'bubble');
      const quotes = coins.map((s) => el.quotes.get(s));
      // The gold in a coin at a world price this low: a bubble of many more digits than before.
      await sandbox.market({ set: [{ symbol: input, price }] });
      await until(() => cell(el, 'coin_emami', 'bubble').length > old.length + 3, 'the new bubble did not show');
      expect(coins.map((s) => el.quotes.get(s))).toEqual(quotes);
      await until(() => width(el, 'eur', 'bubble') > before, 'the other rows’ bubble cells did not widen');
      const widths = symbols.map((s) => width(el, s, 'bubble'));
      expect(new Set(widths.map((w) => Math.round(w))).size, `bubble cells: ${widths.join(', ')}`).toBe(1);
      const text = row(el, 'coin_emami')!
        .querySelector<HTMLElement>('[part~="bubble"] .value')!
        .getBoundingClientRect().width;
      expect(Math.max(...widths)).toBeGreaterThanOrEqual(text);
    },
  );
});
