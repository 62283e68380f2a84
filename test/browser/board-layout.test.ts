// The board's layout at the widths it is embedded at, from a phone sidebar to a full page: which
// columns show, nothing clipped or overflowing, titles readable, the chart bar and legend inside
// the chart area. Vazirmatn is loaded so the measurements are those of the demo and the docs.
import 'vazirmatn/Vazirmatn-Variable-font-face.css';
import { fixture, html } from '@open-wc/testing-helpers/pure';
import { describe, expect, it } from 'vitest';
import '../../src/price-board';
import type { PriceBoard } from '../../src/price-board';
import { base, part, rows, until, untilLoaded, useSandbox } from './helpers/board';
import { axisLabels, overlappingLabels, recordAxisLabels } from '../support/axis-labels';

const KEY = 'pro-key:layout';
const SYMBOLS = 'usd,eur,gold_18,coin_emami,coin_bahar,aed,ons';
const CELLS = ['title', 'price', 'change', 'high', 'low', 'time'] as const;
const JALALI_MONTHS = /فروردین|اردیبهشت|خرداد|تیر|مرداد|شهریور|مهر|آبان|آذر|دی|بهمن|اسفند/;

useSandbox();

/** A board in a box `width` px wide (set through the CSSOM, as a strict CSP allows). */
async function boardAt(
  width: number,
  { chart = 'none', unit = 'toman', days = '30', font = '' } = {},
): Promise<PriceBoard> {
  const box = await fixture<HTMLDivElement>(
    html`<div><price-board base-url=${base()} api-key=${KEY} stream="poll" chart=${chart} unit=${unit} days=${days} symbols=${SYMBOLS}></price-board></div>`,
  );
  box.style.width = `${width}px`;
  if (font) box.style.setProperty('--price-board-font', font);
  await document.fonts.load('600 15px Vazirmatn', 'طلای ۱۸ عیار');
  const el = box.querySelector('price-board') as PriceBoard;
  await untilLoaded(el);
  return el;
}

const shown = (cell: Element) => getComputedStyle(cell).display !== 'none';
const cellOf = (row: HTMLElement, name: string) => row.querySelector<HTMLElement>(`[part~="${name}"]`)!;
const shownCells = (el: PriceBoard) => CELLS.filter((name) => shown(cellOf(rows(el)[0]!, name)));

/** `inner` lies inside `outer` (1px of rounding allowed). */
function inside(inner: DOMRect, outer: DOMRect): boolean {
  return (
    inner.left >= outer.left - 1 &&
    inner.right <= outer.right + 1 &&
    inner.top >= outer.top - 1 &&
    inner.bottom <= outer.bottom + 1
  );
}

/** Every problem of fit: overflow of the board, cells outside their row, content clipped in a cell. */
function misfits(el: PriceBoard): string[] {
  const found: string[] = [];
  const board = part(el, 'board')!;
  if (board.scrollWidth > board.clientWidth + 1)
    found.push(`board scrolls: ${board.scrollWidth} > ${board.clientWidth}`);
  for (const row of rows(el)) {
    const box = row.getBoundingClientRect();
    for (const name of CELLS) {
      const cell = cellOf(row, name);
      if (!shown(cell)) continue;
      const where = `${row.dataset.symbol}/${name}`;
      if (!inside(cell.getBoundingClientRect(), box)) found.push(`${where} outside its row`);
      if (cell.scrollWidth > cell.clientWidth + 1)
        found.push(`${where} clipped: ${cell.scrollWidth} > ${cell.clientWidth}`);
      // The text itself, line by line (a wrapped title has one box per line).
      const range = document.createRange();
      range.selectNodeContents(cell);
      for (const line of range.getClientRects()) {
        if (line.width > 0 && !inside(line, box)) found.push(`${where} text outside its row`);
      }
    }
  }
  return found;
}

describe('layout by container width', () => {
  for (const width of [300, 480, 520, 900]) {
    it(`nothing overflows or is clipped at ${width}px, in toman and in rial`, async () => {
      for (const unit of ['toman', 'rial']) {
        const el = await boardAt(width, { unit });
        expect(misfits(el), unit).toEqual([]);
      }
    });
  }

  // Each row is a grid of its own (so rows off screen cost nothing): the columns must still line up.
  for (const width of [300, 520, 900]) {
    it(`columns line up across the rows and with the header at ${width}px, in toman and in rial`, async () => {
      for (const unit of ['toman', 'rial']) {
        const el = await boardAt(width, { unit });
        const head = el.shadowRoot!.querySelector('.head')!;
        for (const name of CELLS) {
          const cells = rows(el).map((row) => cellOf(row, name));
          if (!shown(cells[0]!)) continue;
          const edges = new Set(cells.map((c) => Math.round(c.getBoundingClientRect().right)));
          expect(edges.size, `${unit}/${name}: ${[...edges]}`).toBe(1);
          const header = head.querySelector<HTMLElement>(`.col-${name}`)!;
          if (header.getBoundingClientRect().width > 1 && getComputedStyle(header).gridRowStart !== '2') {
            expect(Math.round(header.getBoundingClientRect().right), `${unit}/${name} header`).toBe([...edges][0]);
          }
        }
      }
    });
  }

  it('wide (900px): one line per row with title, price, change, high, low and time', async () => {
    const el = await boardAt(900);
    expect(shownCells(el)).toEqual(['title', 'price', 'change', 'high', 'low', 'time']);
    for (const row of rows(el)) {
      const tops = CELLS.map((name) => Math.round(cellOf(row, name).getBoundingClientRect().top));
      expect(new Set(tops).size, row.dataset.symbol).toBe(1);
    }
  });

  for (const width of [480, 520]) {
    it(`medium (${width}px): high and low go, the time goes under the title`, async () => {
      const el = await boardAt(width);
      expect(shownCells(el)).toEqual(['title', 'price', 'change', 'time']);
      const row = rows(el)[0]!;
      const [title, price, change, time] = ['title', 'price', 'change', 'time'].map((n) =>
        cellOf(row, n).getBoundingClientRect(),
      );
      expect(time!.top).toBeGreaterThanOrEqual(title!.bottom - 1);
      expect(Math.abs(time!.right - title!.right)).toBeLessThanOrEqual(1);
      // price and change side by side, left of the title (RTL)
      expect(change!.right).toBeLessThanOrEqual(price!.left + 1);
      expect(price!.right).toBeLessThanOrEqual(title!.left + 1);
    });
  }

  it('compact (300px): title over time, price over change', async () => {
    const el = await boardAt(300);
    expect(shownCells(el)).toEqual(['title', 'price', 'change', 'time']);
    for (const row of rows(el)) {
      const [title, price, change, time] = ['title', 'price', 'change', 'time'].map((n) =>
        cellOf(row, n).getBoundingClientRect(),
      );
      expect(time!.top).toBeGreaterThanOrEqual(title!.bottom - 1);
      expect(change!.top).toBeGreaterThanOrEqual(price!.bottom - 1);
      expect(price!.right).toBeLessThanOrEqual(title!.left + 1);
    }
  });

  it('titles are never cut: at 300px each word of every title shows whole', async () => {
    const el = await boardAt(300);
    for (const row of rows(el)) {
      const title = cellOf(row, 'title');
      expect(getComputedStyle(title).textOverflow).not.toBe('ellipsis');
      expect(title.scrollWidth).toBeLessThanOrEqual(title.clientWidth + 1);
    }
    const titles = rows(el).map((r) => cellOf(r, 'title').textContent!.trim());
    expect(titles).toContain('سکه بهار آزادی');
    expect(titles).toContain('طلای ۱۸ عیار');
    expect(titles).toContain('درهم امارات');
    expect(misfits(el)).toEqual([]);
  });

  it('the table headers of moved cells stay for screen readers', async () => {
    const el = await boardAt(300);
    const head = (name: string) => el.shadowRoot!.querySelector<HTMLElement>(`.col-${name}`)!;
    for (const name of ['change', 'time']) {
      expect(shown(head(name)), name).toBe(true);
      expect(head(name).getBoundingClientRect().width, name).toBeLessThanOrEqual(1);
    }
  });

  it('the sign of a percent stays left of its digits (RTL)', async () => {
    const el = await boardAt(300);
    for (const row of rows(el)) {
      const value = cellOf(row, 'change').querySelector('.value')!.firstChild as Text;
      const text = value.data;
      const sign = text.search(/[+\u2212-]/);
      if (sign < 0) continue; // flat
      const box = (from: number, to: number) => {
        const range = document.createRange();
        range.setStart(value, from);
        range.setEnd(value, to);
        return range.getBoundingClientRect();
      };
      const digit = text.search(/[۰-۹]/);
      expect(box(sign, sign + 1).right, row.dataset.symbol).toBeLessThanOrEqual(box(digit, digit + 1).left + 1);
    }
  });
});

describe('numbers at the narrowest widths', () => {
  // One column below 240 px: a unit may go under its number, a number never breaks inside itself.
  for (const width of [90, 110, 140]) {
    it(`at ${width}px, in toman and in rial, every number stays on one line and inside the board`, async () => {
      for (const unit of ['toman', 'rial']) {
        const el = await boardAt(width, { unit });
        const board = part(el, 'board')!.getBoundingClientRect();
        const found: string[] = [];
        for (const row of rows(el)) {
          for (const value of row.querySelectorAll<HTMLElement>('[role=cell] .value')) {
            if (!value.textContent?.trim() || !shown(value.parentElement!)) continue;
            const range = document.createRange();
            range.selectNodeContents(value);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.bottom)));
            const where = `${unit} ${row.dataset.symbol}/${value.parentElement!.getAttribute('part')} «${value.textContent}»`;
            if (lines.size !== 1) found.push(`${where} on ${lines.size} lines`);
            if (!inside(range.getBoundingClientRect(), board)) found.push(`${where} outside the board`);
          }
        }
        expect(found).toEqual([]);
      }
    });
  }
});

describe('chart area by container width', () => {
  // The narrowest boards (a phone's column): the axis labels apart, the span buttons on one line.
  for (const width of [280, 300, 320]) {
    it(`at ${width}px the time-axis labels never overlap (1, 7, 30 and 365 days; Vazirmatn and a wider fallback font) and the span buttons stay on one line beside the title`, async () => {
      const restore = recordAxisLabels();
      try {
        for (const [days, font] of ['1', '7', '30', '365'].flatMap((d) => [
          [d, ''],
          [d, '"DejaVu Sans", sans-serif'],
        ])) {
          axisLabels().length = 0;
          const el = await boardAt(width, { chart: 'candles', days, font });
          await until(
            () => part(el, 'chart')?.dataset.status === 'ready' && axisLabels().length > 1,
            `the ${days}-day chart did not draw`,
          );
          // A paint draws all its labels in one task, so the one seen here is whole.
          expect({ days, font, overlapping: overlappingLabels(axisLabels()) }).toEqual({ days, font, overlapping: [] });
          const buttons = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.spans button')];
          const line = parseFloat(getComputedStyle(buttons[0]!).lineHeight);
          for (const b of buttons) expect(b.getBoundingClientRect().height, b.textContent!).toBeLessThan(line * 2);
          expect(new Set(buttons.map((b) => Math.round(b.getBoundingClientRect().top))).size).toBe(1);
          // one bar, the title beside the buttons (the chart's room is reserved for one line of it)
          const bar = el.shadowRoot!.querySelector('.chart-bar')!.getBoundingClientRect();
          expect(bar.height).toBeLessThan(buttons[0]!.getBoundingClientRect().height * 1.5);
          // the next chart's labels alone: this one draws no more
          el.parentElement!.remove();
        }
      } finally {
        restore();
      }
    });
  }

  for (const width of [300, 520, 900]) {
    it(`at ${width}px the span buttons, title, legend and attribution fit in the chart area`, async () => {
      const el = await boardAt(width, { chart: 'candles' });
      const legend = () => el.shadowRoot!.querySelector<HTMLElement>('[part~="chart-legend"]');
      await until(
        () =>
          part(el, 'chart')?.dataset.status === 'ready' &&
          // shown once its first draw is painted (chart-area.ts)
          !!part(el, 'chart')!.querySelector('canvas')?.checkVisibility({ visibilityProperty: true }) &&
          JALALI_MONTHS.test(legend()?.textContent ?? ''),
        'the chart did not draw',
      );
      const section = el.shadowRoot!.querySelector<HTMLElement>('.chart-section')!.getBoundingClientRect();
      for (const node of el.shadowRoot!.querySelectorAll('.chart-title, .spans button')) {
        expect(inside(node.getBoundingClientRect(), section)).toBe(true);
      }
      const bar = el.shadowRoot!.querySelector<HTMLElement>('.chart-bar')!;
      expect(bar.scrollWidth).toBeLessThanOrEqual(bar.clientWidth + 1);

      const chart = part(el, 'chart')!.getBoundingClientRect();
      const box = legend()!.getBoundingClientRect();
      expect(inside(box, chart)).toBe(true);
      // one line, clear of the price axis (at least 72px wide) on the right
      expect(box.height).toBeLessThan(30);
      expect(box.right).toBeLessThanOrEqual(chart.right - 72);
      const parts = [...legend()!.children].filter(shown).map((s) => s.textContent);
      expect(parts.at(-1)).toMatch(/^پایانی [۰-۹]/);
      if (width >= 720) expect(parts).toHaveLength(5);
      else expect(parts.length).toBeLessThanOrEqual(2);

      const attribution = el.shadowRoot!.querySelector<HTMLElement>('[part~="chart-attribution"]')!;
      const link = attribution.getBoundingClientRect();
      expect(link.width).toBeGreaterThan(0);
      expect(inside(link, chart)).toBe(true);
      expect(getComputedStyle(attribution).visibility).toBe('visible');
    });
  }
});
