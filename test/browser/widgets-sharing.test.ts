// A board, a ticker and a converter on one page with the same service and key share one hub:
// one stream connection and one /v1/prices request at start, for the union of their symbols.
import { fixture, html } from '@open-wc/testing-helpers/pure';
import { describe, expect, it } from 'vitest';
import '../../src/price-board';
import '../../src/price-ticker';
import '../../src/price-converter';
import type { PriceBoard } from '../../src/price-board';
import { base, collect, sandbox, until, useSandbox } from './helpers/board';

const KEY = 'pro-key:widgets-sharing';

useSandbox();

describe('widgets sharing the board’s data layer', () => {
  it('one stream and one /v1/prices request for a board, a ticker and a converter', async () => {
    const statuses = collect<{ status: string }>(document, 'price-board-status');
    const page = await fixture<HTMLElement>(html`<div>
      <price-board base-url=${base()} api-key=${KEY} chart="none" symbols="usd,eur"></price-board>
      <price-ticker base-url=${base()} api-key=${KEY} symbols="gold_18,coin_emami"></price-ticker>
      <price-converter base-url=${base()} api-key=${KEY} symbols="ons,eur"></price-converter>
    </div>`);
    const board = page.querySelector<PriceBoard>('price-board')!;
    const widgets = [...page.children] as (HTMLElement & { quotes: ReadonlyMap<string, unknown> })[];
    await until(() => widgets.every((w) => w.quotes.size >= 2), 'not every widget got its quotes');
    await until(async () => (await sandbox.requests(KEY, '/v1/stream')).length > 0, 'no stream');
    await until(
      () => new Set(statuses.filter((e) => e.detail.status === 'live').map((e) => e.target)).size === 3,
      'not all live',
    );
    const prices = await sandbox.requests(KEY, '/v1/prices');
    expect(prices).toHaveLength(1);
    expect(new URL(prices[0]!.url, 'http://x').searchParams.get('symbols')!.split(',').sort()).toEqual([
      'coin_emami',
      'eur',
      'gold_18',
      'ons',
      'usd',
    ]);
    expect(await sandbox.requests(KEY, '/v1/stream')).toHaveLength(1);
    expect(board.quotes.size).toBe(2);
  });
});
