// A frame of live updates measures only the rows whose quote changed (templates.ts, columnWidths):
// a live price longer than any before still widens its column in every row, so the columns keep
// lining up, in the default columns and with the columns' chunk (change-amount, bubble).
import { fixture, html } from '@open-wc/testing/pure';
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
});
