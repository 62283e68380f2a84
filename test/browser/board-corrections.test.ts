// Corrections end to end (DESIGN.md §7.1, §12): a later stream event with the same `updated_at`
// and other content is the service's correction of that quote. It goes through the real stream
// (the sandbox's), the hub's one store, and reaches the row's text; a repeat of the quote held
// changes nothing.
import { fixture, html } from '@open-wc/testing-helpers/pure';
import { describe, expect, it } from 'vitest';
import '../../src/price-board';
import type { PriceBoard } from '../../src/price-board';
import { base, cell, collect, sandbox, until, untilLoaded, useSandbox } from './helpers/board';

const KEY = 'pro-key:board-corrections';

useSandbox();

async function liveBoard(symbols: string): Promise<PriceBoard> {
  const el = await fixture<PriceBoard>(
    html`<price-board base-url=${base()} api-key=${KEY} chart="none" stream="sse" symbols=${symbols}></price-board>`,
  );
  await untilLoaded(el);
  await until(() => el.status === 'live', 'the stream did not go live');
  return el;
}

describe('<price-board> corrections', () => {
  it('shows a corrected quote (same updated_at, other price) from a quote event', async () => {
    const el = await liveBoard('usd,eur');
    const usd = el.quotes.get('usd')!;
    const applied = collect<{ quotes: { symbol: string; price: string }[] }>(el, 'price-board-quotes');
    await sandbox.push({ event: 'quote', data: { ...usd, price: '555555550', price_toman: '55555555' } });
    await until(() => cell(el, 'usd', 'price') === '۵۵٬۵۵۵٬۵۵۵', 'the correction did not reach the row');
    expect(el.quotes.get('usd')).toMatchObject({ price: '555555550', updated_at: usd.updated_at });
    expect(applied.flatMap((e) => e.detail.quotes.map((q) => `${q.symbol}:${q.price}`))).toEqual(['usd:555555550']);
  });

  it('shows corrections of several rows from a snapshot, and ignores a repeat of what it holds', async () => {
    const el = await liveBoard('gold_18,coin_emami,eur');
    const [gold, coin, eur] = ['gold_18', 'coin_emami', 'eur'].map((s) => el.quotes.get(s)!);
    const eurText = cell(el, 'eur', 'price');
    await sandbox.push({
      event: 'quotes',
      data: {
        at: new Date().toISOString(),
        quotes: [
          { ...gold!, price: '123456780', price_toman: '12345678', high: '123456780' },
          { ...coin!, price: '987654320', price_toman: '98765432', low: '987654320' },
          // The same quote again: not a correction.
          { ...eur! },
        ],
      },
    });
    await until(
      () => cell(el, 'gold_18', 'price') === '۱۲٬۳۴۵٬۶۷۸' && cell(el, 'coin_emami', 'price') === '۹۸٬۷۶۵٬۴۳۲',
      'the corrections did not reach the rows',
    );
    expect(el.quotes.get('gold_18')).toMatchObject({ price: '123456780', updated_at: gold!.updated_at });
    expect(el.quotes.get('coin_emami')).toMatchObject({ price: '987654320', updated_at: coin!.updated_at });
    expect(el.quotes.get('eur')).toEqual(eur);
    expect(cell(el, 'eur', 'price')).toBe(eurText);
  });
});
