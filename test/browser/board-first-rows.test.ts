// What the first rows do not wait for (DESIGN.md §6, first paint; `npm run bench:profile` showed
// the costs): the Persian date formatters (the page's first Intl.DateTimeFormat costs tens of ms
// of ICU set-up) are built only after the rows are painted, a skeleton nobody would see is not
// rendered when the answer comes before the skeleton delay, and the first rows are laid out in
// one pass (content-visibility only further down). Order and causality, not timings.
// A file of its own: the formatters are built once per page, and this file's page is fresh.
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../src/price-board';
import type { PriceBoard } from '../../src/price-board';
import { RenderGate, SKELETON_DELAY_MS } from '../../src/board/render-gate';
import { base, cell, frameCounter, newBoard, rows, sandbox, untilLoaded, useSandbox } from './helpers/board';

const KEY = 'pro-key:first-rows';

useSandbox();

afterEach(() => vi.restoreAllMocks());

const board = (symbols: string, key: string): PriceBoard =>
  newBoard({ 'base-url': base(), 'api-key': key, symbols, chart: 'none', stream: 'off' });

const pricesShown = (el: PriceBoard): boolean =>
  rows(el).length > 0 && rows(el).every((r) => /[۰-۹]/.test(r.querySelector('[part~="price"]')?.textContent ?? ''));

describe('<price-board> first rows', () => {
  it('paints its first rows before it builds a Persian date formatter, then shows their times', async () => {
    const el = board('usd,eur', `${KEY}-dates`);
    const frames = frameCounter();
    let rowsAtFrame: number | undefined;
    const built: { rowsShown: boolean; framesSinceRows: number }[] = [];
    const Real = Intl.DateTimeFormat;
    // Only the board's formatters (fa-IR, or the Persian calendar), not the test runner's.
    Intl.DateTimeFormat = new Proxy(Real, {
      construct(target, args: [string?, Intl.DateTimeFormatOptions?]) {
        if (/fa|persian/.test(String(args[0]))) {
          built.push({
            rowsShown: rowsAtFrame !== undefined,
            framesSinceRows: rowsAtFrame === undefined ? -1 : frames.count - rowsAtFrame,
          });
        }
        return Reflect.construct(target, args) as Intl.DateTimeFormat;
      },
    });
    const observer = new MutationObserver(() => {
      if (rowsAtFrame === undefined && pricesShown(el)) rowsAtFrame = frames.count;
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
      frames.stop();
      Intl.DateTimeFormat = Real;
      observer.disconnect();
    }
  });

  it('renders the rows without a skeleton first when the answer comes before the skeleton delay', async () => {
    // Time stands still (no timer fires): the answer comes "before the skeleton delay" however
    // slow the machine is. The request itself needs no timer.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const el = board('usd,eur', `${KEY}-no-skeleton`);
    let skeletons = 0;
    let renders = 0;
    const observer = new MutationObserver(() => {
      renders++;
      skeletons += el.shadowRoot!.querySelectorAll('.skeleton').length;
    });
    try {
      document.body.append(el);
      observer.observe(el.shadowRoot!, { childList: true, subtree: true });
      await vi.waitUntil(() => pricesShown(el), { timeout: 8000 });
      expect(renders).toBeGreaterThan(0);
      expect(skeletons).toBe(0);
    } finally {
      observer.disconnect();
      vi.useRealTimers();
    }
  });

  it('shows the skeleton when the answer is later than the skeleton delay', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await sandbox.faults([{ path: '/v1/prices', kind: 'slow', delayMs: 60_000, key: `${KEY}-slow` }]);
    const el = board('usd,eur', `${KEY}-slow`);
    try {
      document.body.append(el);
      await vi.advanceTimersByTimeAsync(SKELETON_DELAY_MS - 1);
      expect(rows(el)).toHaveLength(0); // nothing rendered yet
      await vi.advanceTimersByTimeAsync(1);
      await vi.waitUntil(() => el.shadowRoot!.querySelectorAll('.skeleton').length > 0, { timeout: 8000 });
      expect(rows(el)).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets an answer already waiting in the task queue go before the skeleton when the skeleton delay runs out', async () => {
    // On a busy main thread (a slow phone) the delay can run out while the answer has arrived and
    // waits its turn: a skeleton rendered and laid out then only delays the rows (`PROFILE_CPU=4 npx tsx bench/trace.ts`
    // at 4x CPU: 300-600 ms). The answer is stood in for by a message task, queued like networking.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const order: string[] = [];
    try {
      const first = new RenderGate();
      void first.wait().then(() => order.push('render'));
      vi.advanceTimersByTime(SKELETON_DELAY_MS);
      const answer = new MessageChannel();
      answer.port1.onmessage = () => {
        order.push('answer');
        first.open();
      };
      answer.port2.postMessage(null);
      await vi.waitUntil(() => order.includes('render'), { timeout: 8000 });
      expect(order).toEqual(['answer', 'render']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('lays out its first rows in one pass: no content-visibility on them, only on rows past the 20th', async () => {
    const symbols =
      'usd,eur,aed,gbp,try,cny,iqd,afn,cad,aud,chf,jpy,gold_18,gold_24,coin_emami,coin_bahar,coin_half,coin_quarter,coin_gerami,silver_999,silver_925,ons';
    const el = board(symbols, `${KEY}-cv`);
    document.body.append(el);
    await vi.waitUntil(() => rows(el).length === 22, { timeout: 8000 });
    const cv = rows(el).map((r) => getComputedStyle(r).contentVisibility);
    expect(cv.slice(0, 20).every((v) => v === 'visible')).toBe(true);
    expect(cv.slice(20)).toEqual(['auto', 'auto']);
  });
});
