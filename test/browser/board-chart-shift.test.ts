// The board's chart draws into the room kept for it: nothing inside `part="chart"` moves when the
// chart (lightweight-charts) first draws, on a page's own board and on one the relay rendered.
import { expect, it } from 'vitest';
import type { PriceBoard } from '../../src/price-board';
import { base, nextPaint, part, until, useSandbox } from './helpers/board';
import { watchLayoutShifts } from './helpers/layout-shifts';
import { renderedWidget, useRendered } from './helpers/rendered';

useSandbox();
useRendered();

const JALALI_MONTHS = /فروردین|اردیبهشت|خرداد|تیر|مرداد|شهریور|مهر|آبان|آذر|دی|بهمن|اسفند/;

/** The chart shows its candles (its legend says their date), and that frame was painted. */
async function untilDrawn(el: PriceBoard): Promise<void> {
  await until(
    () =>
      !!part(el, 'chart')?.querySelector('canvas')?.checkVisibility({ visibilityProperty: true }) &&
      JALALI_MONTHS.test(el.shadowRoot!.querySelector('[part~="chart-legend"]')?.textContent ?? ''),
    'the chart did not draw',
    15_000,
  );
  await nextPaint();
  await nextPaint();
}

const chartBox = (el: PriceBoard) => () => part(el, 'chart')!.getBoundingClientRect();

it('a board’s chart moves nothing in its area when it first draws', async () => {
  await import('../../src/price-board');
  const shifts = watchLayoutShifts();
  const el = document.createElement('price-board') as PriceBoard;
  el.setAttribute('base-url', base());
  el.setAttribute('api-key', 'pro-key:chart-shift');
  el.setAttribute('symbols', 'usd,eur');
  document.body.append(el);
  try {
    await untilDrawn(el);
    expect(shifts.inside(chartBox(el))).toEqual([]);
  } finally {
    shifts.stop();
    el.remove();
  }
});

it('a rendered board’s chart moves nothing in its area when it first draws, after the client takes over', async () => {
  const el = await renderedWidget<PriceBoard>('price-board', 'symbols=usd,eur&script=0');
  const shifts = watchLayoutShifts();
  await import('../../src/price-board');
  await untilDrawn(el);
  expect(shifts.inside(chartBox(el))).toEqual([]);
  shifts.stop();
});
