// The board's first paint is light (DESIGN.md §6): the table is one grid whose rows take its tracks,
// the column sizers only in the header; a grid and sizers per row (what live updates want: a row
// laid out apart from the others) come after that paint, and move nothing (no layout shift).
import { fixture, html } from '@open-wc/testing-helpers';
import { page } from '@vitest/browser/context';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../src/price-board';
import type { PriceBoard } from '../../src/price-board';
import { loadExtraColumns } from '../../src/board/columns';
import { base, newBoard, relay, rows, shadow, until, useSandbox } from './helpers/board';

const KEY = 'pro-key:light-form';

useSandbox();

/** What a frame shows of the table: its form, the rows' text, and the box of every row and cell. */
interface Frame {
  light: boolean;
  text: string;
  /**
   * Each row's and cell's part (or class) and box in the table: x, y, width, height (the header and
   * the first 20 rows). In the table's: the status line above it may change with the same render.
   */
  boxes: [string, number[]][];
  /** Per-row sizers (`data-w` in the first 20 rows), and rows sized as grids of their own. */
  rowSizers: number;
  ownGrids: number;
}

function frameOf(el: PriceBoard): Frame | undefined {
  const table = shadow(el).querySelector<HTMLElement>('.table');
  const shown = rows(el);
  if (!table || !shown.some((r) => /[۰-۹]/.test(r.querySelector('[part~="price"]')?.textContent ?? ''))) return;
  // The header and the first 20 rows: those past them are painted only once on screen, then with
  // their real height in place of contain-intrinsic-size's (content-visibility), in either form.
  const shownRows = '.head .row, .rows .row:nth-child(-n+20)';
  const boxes = [...table.querySelectorAll<HTMLElement>(`:is(${shownRows}), :is(${shownRows}) > *`)].map((e) => {
    const r = e.getBoundingClientRect();
    const { x, y } = table.getBoundingClientRect();
    return [e.getAttribute('part') ?? e.className, [r.x - x, r.y - y, r.width, r.height]] as [string, number[]];
  });
  return {
    light: table.classList.contains('light'),
    text: shown.map((r) => r.textContent).join('|'),
    boxes,
    rowSizers: table.querySelectorAll('.rows .row:nth-child(-n+20) [data-w]').length,
    ownGrids: shown.filter((r) => {
      const style = getComputedStyle(r);
      return style.display === 'grid' && !style.gridTemplateColumns.startsWith('subgrid');
    }).length,
  };
}

/**
 * A board in a `width` px box of a `dir` page, its table seen after each of its renders (its
 * mutations, before any paint) from its first rows with prices until its table takes the full form:
 * the first such state, the last one in the light form and the first in the full form.
 */
async function watchFirstPaint(
  width: number,
  dir: 'rtl' | 'ltr',
  columns = 'price,change,high,low,time',
  symbols = 'usd,eur,gold_18,ons',
): Promise<{ first: Frame; before: Frame | undefined; after: Frame }> {
  // The extra columns' chunk loaded first: its cells come with the first render, not with the switch.
  await loadExtraColumns();
  const box = await fixture<HTMLDivElement>(html`<div dir=${dir}></div>`);
  box.style.width = `${width}px`;
  const el = newBoard({
    'base-url': base(),
    'api-key': `${KEY}-${width}-${dir}`,
    stream: 'off',
    chart: 'none',
    columns,
    symbols,
  });
  box.append(el);
  let first: Frame | undefined;
  let before: Frame | undefined;
  let after: Frame | undefined;
  const renders = new MutationObserver(() => {
    const frame = after ? undefined : frameOf(el);
    if (!frame) return;
    first ??= frame;
    if (frame.light) before = frame;
    else after = frame;
  });
  renders.observe(shadow(el), { subtree: true, childList: true, attributes: true, characterData: true });
  await until(() => after !== undefined, 'the table did not take its full form', 10_000);
  renders.disconnect();
  return { first: first!, before, after: after! };
}

describe('the first paint is light', () => {
  for (const width of [300, 900]) {
    it(`the first frame with prices has no per-row sizer and no row sized on its own (${width}px)`, async () => {
      const { first, after } = await watchFirstPaint(width, 'rtl');
      expect(first.light).toBe(true);
      expect(first.rowSizers).toBe(0);
      expect(first.ownGrids).toBe(0);
      // and then the full form: a grid and sizers per row
      expect(after.rowSizers).toBeGreaterThan(0);
      expect(after.ownGrids).toBe(4);
    });
  }
});

describe('the switch to the full form moves nothing', () => {
  // No time column: the times may come with the extras, in the switch's render (the relay's board
  // below has its extras from the first render on).
  const cases: [number, string][] = [
    [200, 'price,change,high,low'],
    [300, 'price,change,high,low'],
    [420, 'price,change'],
    [520, 'price,change,high,low'],
    [650, 'price,change,change-amount,high,low'],
    [900, 'price,change,high,low'],
    [1200, 'price,change'],
  ];
  for (const [width, columns] of cases)
    for (const dir of ['rtl', 'ltr'] as const)
      it(`at ${width}px in a ${dir} page (${columns}): every row and cell keeps its box`, async () => {
        const { before, after } = await watchFirstPaint(width, dir, columns);
        expect(before, 'no render in the light form').toBeDefined();
        // The same rows and text on both sides of the switch: what differs is the form only.
        expect(after.text).toBe(before!.text);
        expect(after.boxes.map(([name]) => name)).toEqual(before!.boxes.map(([name]) => name));
        // The same boxes (a light row may end 1/64 px short: its tracks' sum, rounded).
        const moved = after.boxes.filter(([, box], i) =>
          box.some((v, j) => Math.abs(v - before!.boxes[i]![1][j]!) > 1 / 32),
        );
        expect(moved).toEqual([]);
      });
});

describe('more than 20 rows', () => {
  // Those past the 20th are painted only once on screen (content-visibility): grids of their own
  // with sizers from the first render on, as after it; the first 20 on the table's tracks. A
  // viewport tall enough for all of them.
  beforeAll(() => page.viewport(1000, 1800));
  afterAll(() => page.viewport(1000, 800));
  const SYMBOLS =
    'usd,eur,aed,gbp,try,cny,iqd,afn,cad,aud,chf,jpy,gold_18,gold_24,coin_emami,coin_bahar,coin_half,coin_quarter,coin_gerami,silver_999,silver_925,ons';
  for (const width of [300, 900])
    it(`at ${width}px, 22 rows: the first 20 light, and the switch moves none of them`, async () => {
      const { first, before, after } = await watchFirstPaint(width, 'rtl', 'price,change,high,low', SYMBOLS);
      expect(first.light).toBe(true);
      expect(first.rowSizers).toBe(0);
      expect(first.ownGrids).toBe(2);
      expect(after.text).toBe(before!.text);
      const moved = after.boxes.filter(([, box], i) =>
        box.some((v, j) => Math.abs(v - before!.boxes[i]![1][j]!) > 1 / 32),
      );
      expect(moved).toEqual([]);
    });
});

describe("the relay's board, taken over", () => {
  // Rendered in the light form, which the client's first render keeps (its extras are there: the
  // same text); the full form, of the same rows, follows that render's paint.
  for (const width of [200, 300, 520, 900])
    for (const dir of ['rtl', 'ltr'] as const)
      it(`at ${width}px in a ${dir} page: the full form moves no row or cell of the rendered one`, async () => {
        const res = await fetch(`${relay.url()}/render/price-board?symbols=usd,eur,gold_18,ons&chart=none&script=0`);
        expect(res.status).toBe(200);
        const box = await fixture<HTMLDivElement>(html`<div dir=${dir}></div>`);
        box.style.width = `${width}px`;
        const host = document.createElement('div');
        host.setHTMLUnsafe(await res.text());
        const el = host.querySelector('price-board') as PriceBoard;
        el.setAttribute('base-url', relay.url());
        el.setAttribute('stream', 'off');
        box.append(host);
        const rendered = frameOf(el)!;
        expect(rendered.light).toBe(true);
        await el.updateComplete; // its first update
        const first = frameOf(el)!;
        // The full form follows the first update's paint by itself.
        await until(() => frameOf(el)?.light === false, 'the full form after the first paint');
        const full = frameOf(el)!;
        expect([first.light, full.light]).toEqual([true, false]);
        expect([first.text, full.text]).toEqual([rendered.text, rendered.text]);
        expect(first.boxes).toEqual(rendered.boxes);
        const moved = full.boxes.filter(([, b], i) =>
          b.some((v, j) => Math.abs(v - rendered.boxes[i]![1][j]!) > 1 / 32),
        );
        expect(moved).toEqual([]);
        host.remove();
      });
});
