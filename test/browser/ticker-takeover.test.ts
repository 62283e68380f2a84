// The client taking over a ticker the relay rendered (DESIGN.md §13): the fragment comes from the
// test relay's `/render/price-ticker` (real HTTP) and is put in the page before <price-ticker> is
// defined; then the element upgrades and renders its tape over the same place.
import { expect, it } from 'vitest';
import type { PriceTicker } from '../../src/price-ticker';
import { nextPaint, until, useSandbox } from './helpers/board';
import { watchLayoutShifts } from './helpers/layout-shifts';
import { renderedWidget, useRendered } from './helpers/rendered';
import { tickerItems } from './helpers/widgets';

useSandbox();
useRendered();

it('takes over with no layout shift: its items keep their widths from the rendered tape on', async () => {
  const el = await renderedWidget<PriceTicker>('price-ticker', 'symbols=usd,eur,gold_18&script=0');
  await nextPaint();
  const serverItems = tickerItems(el);
  const rendered = serverItems.map((item) => item.getBoundingClientRect().width);
  expect(rendered.length).toBeGreaterThan(0);

  // The query's attributes alone (and the page's base-url); the element reflects its settings once it updates.
  expect(el.getAttributeNames()).toEqual(['symbols', 'base-url']);
  const shifts = watchLayoutShifts();
  await import('../../src/price-ticker'); // defines <price-ticker>: the element upgrades now
  await until(() => el.status === 'live', 'not live');
  // The client's own tape (new nodes), measured (it moves), laid out and painted.
  await until(() => tickerItems(el)[0] !== serverItems[0], 'not rendered by the client');
  await until(() => el.shadowRoot!.querySelector('.track')!.getAnimations().length > 0, 'not moving');
  await nextPaint();
  await nextPaint();
  const first = tickerItems(el).slice(0, rendered.length);
  expect(first.map((item) => item.getBoundingClientRect().width)).toEqual(rendered);
  expect(shifts.inside(() => el.getBoundingClientRect())).toEqual([]);
  expect([el.getAttribute('speed'), el.getAttribute('stream')]).toEqual(['40', 'auto']);
  shifts.stop();
});
