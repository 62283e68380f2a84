/**
 * A rendered board moves nothing after its first paint (DESIGN.md §13: no layout shift from the
 * first paint to live), also where it draws later what the relay could not render (the spark lines,
 * whose history comes after the rows; the chart, whose section and canvases come with its chunk),
 * in either density, past the light form's first 20 rows, at a phone's width to a desktop's.
 *
 * What is compared is what a visitor sees placed: the paragraph under the board (any change of the
 * board's height), each row's place and size, each header cell's (the columns), as painted in the
 * board's first frame and once everything is drawn, to half a pixel; and the page's layout shifts
 * after it is parsed must be none (Chromium leaves out moves under 3 px: a row 1.25 px taller is
 * only seen by the boxes).
 */
import type { Page } from '@playwright/test';
import { expect, htmlPage, test } from './support/fixtures';
import { INCLUDED_WIDGETS, watchFirstFrames } from './support/includes';
import { startRelayOnSandbox } from './support/servers';

const BOARD = INCLUDED_WIDGETS.find((w) => w.tag === 'price-board')!;

/** 26 symbols of the sandbox's catalog: gold, coins, silver and currencies, some with long titles. */
const MANY =
  'gold_18,gold_24,broken_gold_18,broken_gold_21,gold_melted,coin_emami,coin_bahar,coin_half,coin_quarter,coin_gerami,' +
  'silver_999,silver_925,broken_silver_925,ons,silver_ounce,usd,eur,aed,gbp,try,cny,iqd,afn,cad,aud,chf';

const CASES: Array<{ query: string; width: number }> = [
  { query: 'symbols=usd,eur,gold_18,coin_emami&density=compact&columns=price,change,spark&chart=none', width: 1024 },
  { query: 'symbols=usd,eur&density=compact', width: 1024 },
  { query: 'symbols=usd,coin_emami,ons&columns=price,change-amount,spark,bubble&chart=line&days=7', width: 390 },
  {
    query: 'symbols=usd,eur,gold_18&density=compact&columns=price,change,change-amount,spark,bubble&link=/p/{symbol}',
    width: 390,
  },
  // Past the light form's first 20 rows (templates.ts, LIGHT_ROWS) the rows are grids of their own.
  { query: `symbols=${MANY}&chart=none`, width: 800 },
  { query: `symbols=${MANY}&density=compact&columns=price,change,spark`, width: 600 },
  { query: `symbols=${MANY}&chart=none`, width: 390 },
  { query: `symbols=${MANY}&density=compact&chart=none`, width: 1280 },
];

type Box = { what: string; x: number; y: number; width: number; height: number };

/** What a visitor sees placed: the paragraph under the board, the rows, the header's cells. */
function boxes(): Box[] {
  const root = document.querySelector('price-board')?.shadowRoot;
  const below = document.getElementById('below');
  if (!root || !below) return [];
  const box = (el: Element, what: string) => {
    const { x, y, width, height } = el.getBoundingClientRect();
    return { what, x, y, width, height };
  };
  return [
    box(below, 'below'),
    ...[...root.querySelectorAll('[part~="row"]')].map((row) => box(row, `row ${row.getAttribute('data-symbol')}`)),
    ...[...root.querySelectorAll('.head .cell')].map((cell, i) => box(cell, `header cell ${i}`)),
  ];
}

/**
 * Records `boxes()` as the first frame that shows the paragraph under the board and `count` rows
 * with prices (the whole fragment parsed; a client-only board's first answer rendered) is painted:
 * in the first task after that frame.
 */
async function watchFirstBoxes(page: Page, count: number): Promise<() => Promise<Box[]>> {
  await page.addInitScript(`(() => {
    const boxes = ${boxes.toString()};
    const priced = () =>
      [...(document.querySelector('price-board')?.shadowRoot?.querySelectorAll('[part~="row"] [part~="price"]') ?? [])]
        .filter((cell) => /[۰-۹]/.test(cell.textContent)).length;
    const tick = () => {
      if (!document.getElementById('below') || priced() < ${count}) return requestAnimationFrame(tick);
      const channel = new MessageChannel();
      channel.port1.onmessage = () => (window.__firstBoxes = boxes());
      channel.port2.postMessage(0);
    };
    requestAnimationFrame(tick);
  })()`);
  return () => page.evaluate(() => (window as unknown as { __firstBoxes: Box[] }).__firstBoxes);
}

/** The boxes of `now` more than half a pixel away from where `first` had them (by what they are), said. */
function moved(first: Box[], now: Box[]): string[] {
  const say = (b: Box | undefined) =>
    b ? `${b.x.toFixed(2)},${b.y.toFixed(2)} ${b.width.toFixed(2)}×${b.height.toFixed(2)}` : 'none';
  const far = (a: Box, b: Box | undefined) =>
    !b || (['x', 'y', 'width', 'height'] as const).some((k) => Math.abs(a[k] - b[k]) > 0.5);
  const later = new Map(now.map((b) => [b.what, b]));
  const earlier = new Set(first.map((a) => a.what));
  return [
    ...first.filter((a) => far(a, later.get(a.what))).map((a) => `${a.what}: ${say(a)} → ${say(later.get(a.what))}`),
    ...now.filter((b) => !earlier.has(b.what)).map((b) => `${b.what}: none → ${say(b)}`),
  ];
}

for (const { query, width, clientOnly } of [
  ...CASES,
  // The same light form, rendered by the element itself (no relay render): its first paint with prices.
  ...CASES.filter((c) => c.query.includes(MANY)).map((c) => ({ ...c, clientOnly: true })),
] as Array<{ query: string; width: number; clientOnly?: boolean }>) {
  test(`at ${width}px, ${query}${clientOnly ? ', client-only' : ''}: nothing moves from the first paint until its sparks and chart are drawn`, async ({
    page,
    servers,
    problems,
  }) => {
    // A relay of its own: the history the sparks and chart ask for is never another test's budget.
    const started = await startRelayOnSandbox('enterprise-key:e2e-relay-render-shift', { PLAN: 'enterprise' });
    try {
      const params = new URLSearchParams(query);
      const symbols = params.get('symbols')!.split(',');
      const fragment = clientOnly
        ? `<price-board ${[...params].map(([name, value]) => `${name}="${value}"`).join(' ')}></price-board>`
        : await (await fetch(`${started.relay.url}/render/price-board?${query}&script=0`)).text();
      if (!clientOnly) expect(fragment).toContain('shadowrootmode');
      await page.setViewportSize({ width, height: 900 });
      const frames = await watchFirstFrames(page, [BOARD]);
      const firstBoxes = await watchFirstBoxes(page, symbols.length);
      await page.goto(
        servers.site.page(
          `/shift-${width}-${clientOnly ? 'client-' : ''}${encodeURIComponent(query)}.html`,
          htmlPage(
            `${fragment}<p id="below">زیر تابلو</p>`,
            `<script type="module" src="${started.relay.url}/price-board.js"></script>`,
          ),
        ),
      );
      const board = page.locator('price-board');
      await expect(board).toHaveJSProperty('status', 'live');
      if (params.get('columns')?.includes('spark'))
        await expect(board.locator('[part~="spark"] svg')).toHaveCount(symbols.length);
      if (params.get('chart') !== 'none') await expect(board.locator('[part~="chart"] canvas').first()).toBeVisible();
      // The frame after the last drawing is laid out.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      const first = await firstBoxes();
      expect(first.length).toBeGreaterThan(1);
      expect(moved(first, await page.evaluate(boxes))).toEqual([]);
      // A client-only board's rows come after parsing, as its first answer: from their frame on.
      if (!clientOnly) expect((await frames(true)).afterParsing).toEqual([]);
      expect(problems.all()).toEqual([]);
    } finally {
      await started.close();
    }
  });
}
