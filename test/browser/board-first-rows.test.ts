// What the first rows do not wait for (DESIGN.md §6, first paint; `npm run bench:profile` showed
// the costs): the Persian date formatters (the page's first Intl.DateTimeFormat costs tens of ms
// of ICU set-up) are built only after the rows are painted, and a skeleton nobody would see is
// not laid out when the answer comes before the first frame. Order and causality, not timings.
// A file of its own: the formatters are built once per page, and this file's page is fresh.
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../src/price-board';
import type { PriceBoard } from '../../src/price-board';
import { base, cell, rows, untilLoaded, useSandbox } from './helpers/board';

const KEY = 'pro-key:first-rows';

useSandbox();

let added: HTMLElement[] = [];
afterEach(() => {
  for (const el of added) el.remove();
  added = [];
  vi.restoreAllMocks();
});

function board(symbols: string, key: string): PriceBoard {
  const el = document.createElement('price-board');
  for (const [name, value] of Object.entries({ 'base-url': base(), 'api-key': key, symbols, chart: 'none', stream: 'off' })) {
    el.setAttribute(name, value);
  }
  added.push(el);
  return el;
}

const pricesShown = (el: PriceBoard): boolean =>
  rows(el).length > 0 && rows(el).every((r) => /[۰-۹]/.test(r.querySelector('[part~="price"]')?.textContent ?? ''));

describe('<price-board> first rows', () => {
  it('paints its first rows before it builds a Persian date formatter, then shows their times', async () => {
    const el = board('usd,eur', `${KEY}-dates`);
    let frames = 0;
    const countFrames = () => {
      frames++;
      if (added.includes(el)) requestAnimationFrame(countFrames);
    };
    requestAnimationFrame(countFrames);
    let rowsAtFrame: number | undefined;
    const built: { rowsShown: boolean; framesSinceRows: number }[] = [];
    const Real = Intl.DateTimeFormat;
    // Only the board's formatters (fa-IR, or the Persian calendar), not the test runner's.
    Intl.DateTimeFormat = new Proxy(Real, {
      construct(target, args: [string?, Intl.DateTimeFormatOptions?]) {
        if (/fa|persian/.test(String(args[0]))) {
          built.push({ rowsShown: rowsAtFrame !== undefined, framesSinceRows: rowsAtFrame === undefined ? -1 : frames - rowsAtFrame });
        }
        return Reflect.construct(target, args) as Intl.DateTimeFormat;
      },
    });
    const observer = new MutationObserver(() => {
      if (rowsAtFrame === undefined && pricesShown(el)) rowsAtFrame = frames;
    });
    try {
      document.body.append(el);
      observer.observe(el.shadowRoot!, { childList: true, subtree: true, characterData: true });
      await untilLoaded(el); // prices, then times
      expect(built.length).toBeGreaterThan(0);
      // Every one came after the rows were in the DOM and a frame had painted them.
      expect(built.every((b) => b.rowsShown && b.framesSinceRows >= 1)).toBe(true);
      expect(cell(el, 'usd', 'time')).toMatch(/[۰-۹]/);
    } finally {
      Intl.DateTimeFormat = Real;
      observer.disconnect();
    }
  });

  it('renders the rows without a skeleton first when the answer comes before the first frame', async () => {
    // Frames held back until the answer is shown: the answer comes "before the first frame".
    const held: FrameRequestCallback[] = [];
    vi.spyOn(window, 'requestAnimationFrame').mockImplementation((fn) => held.push(fn));
    const el = board('usd,eur', `${KEY}-no-skeleton`);
    let skeletons = 0;
    const observer = new MutationObserver(() => (skeletons += el.shadowRoot!.querySelectorAll('.skeleton').length));
    try {
      document.body.append(el);
      observer.observe(el.shadowRoot!, { childList: true, subtree: true });
      await vi.waitUntil(() => pricesShown(el), { timeout: 8000 });
      expect(skeletons).toBe(0);
    } finally {
      observer.disconnect();
      vi.restoreAllMocks();
      for (const fn of held) fn(performance.now());
    }
  });
});
