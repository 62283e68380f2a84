/**
 * <price-board> on host pages as site owners write them (DESIGN.md section 9), from the built
 * dist/ on a third-party origin: host layouts at phone to desktop widths under hostile inherited
 * text styles, the chart's messages above its canvas, the chart refitting when the board narrows,
 * the market-closed state, visitor words for developer errors, unknown symbols (to the developer,
 * in RTL), and the chart of the first known symbol.
 */
import type { Page } from '@playwright/test';
import { expect, htmlPageFor, recordWarnings, sandboxBase, test, type Servers } from './support/fixtures';
import {
  boardTag,
  boxProblems,
  HOST_LAYOUTS,
  HOSTILE_TEXT,
  measureBoards,
  SITE_TEXT,
  textStylesOf,
} from './support/host-pages';
import { axisLabels, cutLabels, recordAxisLabels } from '../support/axis-labels';

const WIDTHS = [320, 390, 768, 1280];

/** A shadow-DOM lookup in the first board of the page. */
const inBoard = (page: Page, selector: string) => page.locator('price-board').first().locator(selector);

async function fault(servers: Servers, rules: unknown[]): Promise<void> {
  const response = await fetch(`${sandboxBase(servers)}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ rules }),
  });
  if (!response.ok) throw new Error(`sandbox faults: ${response.status} ${await response.text()}`);
}

async function market(servers: Servers, body: unknown): Promise<void> {
  const response = await fetch(`${sandboxBase(servers)}/__sandbox/market`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`sandbox market: ${response.status} ${await response.text()}`);
}

/** A page on the site with `body` under hostile inherited text styles. */
function hostilePage(servers: Servers, path: string, body: string): string {
  return servers.site.page(
    path,
    htmlPageFor(servers, `<div style="${HOSTILE_TEXT}">${body}</div>`, `<style>${SITE_TEXT}</style>`),
  );
}

test.afterEach(async ({ servers }) => {
  await fetch(`${sandboxBase(servers)}/__sandbox/faults`, { method: 'DELETE' });
});

for (const width of WIDTHS) {
  test(`at ${width}px, in a flex header, grid column, auto-sized grid track, table cell, 300px sidebar, inline-block and columns: the page keeps its width, each board a usable box, every cell whole`, async ({
    page,
    servers,
    key,
    problems,
  }) => {
    const attrs = {
      'api-key': key,
      'base-url': sandboxBase(servers),
      symbols: 'usd,gold_18,coin_emami,ons',
      chart: 'none',
    };
    // The sidebar's board and the columns' have a chart.
    const chart = (id: string): Record<string, string> =>
      id === 'sidebar' || id === 'columns' ? { chart: 'candles', days: '7' } : {};
    const body = HOST_LAYOUTS.map(
      (l) => `<section>${l.html(boardTag({ ...attrs, id: l.id, ...chart(l.id) }))}</section>`,
    ).join('\n');
    await page.setViewportSize({ width, height: 900 });
    await page.goto(hostilePage(servers, `/layouts-${width}.html`, body));
    await expect(page.locator('price-board').locator('[part~="row"][data-symbol="ons"] [part~="price"]')).toHaveText(
      Array(HOST_LAYOUTS.length).fill(/[۰-۹]/),
    );
    await expect(page.locator('price-board').locator('[part~="time"]').first()).toHaveText(/[۰-۹]/);

    for (const id of ['sidebar', 'columns']) {
      await expect(page.locator(`#${id} [part~="chart"]`)).toHaveAttribute('data-status', 'ready');
      await expect(page.locator(`#${id} [part~="chart-legend"]`)).toContainText(/[۰-۹]/);
      // the chart's canvas inside the board, the span buttons on one line inside the section
      const fits = await page.locator(`#${id}`).evaluate((el) => {
        const root = el.shadowRoot!;
        const board = root.querySelector('[part~="board"]')!.getBoundingClientRect();
        const canvas = root.querySelector('[part~="chart"] canvas')!.getBoundingClientRect();
        const bar = root.querySelector<HTMLElement>('.chart-bar')!;
        return (
          canvas.left >= board.left &&
          canvas.right <= board.right &&
          canvas.width > 100 &&
          bar.scrollWidth <= bar.clientWidth + 1
        );
      });
      expect(fits, id).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    for (const board of await measureBoards(page)) expect(boxProblems(board, width), board.id).toEqual([]);
    // The page's inherited text styles stay out of the rows.
    const price = page.locator('#sidebar [part~="row"][data-symbol="usd"] [part~="price"]');
    const style = await textStylesOf(price);
    expect(style).toBe('normal 0px none nowrap normal 15px 22.5px rtl');
    expect(problems.all()).toEqual([]);
  });
}

for (const width of [320, 375]) {
  test(`at ${width}px, a page shared out by a grid (1fr 2fr, 1fr 1fr) or a table of two or three cells keeps its width, every digit shown`, async ({
    page,
    servers,
    key,
    problems,
  }) => {
    const board = (id: string) =>
      boardTag({
        'api-key': key,
        'base-url': sandboxBase(servers),
        symbols: 'usd,gold_18,coin_emami,ons',
        chart: 'none',
        id,
      });
    const text = '<p>متن صفحه</p>';
    const body = [
      `<div style="display:grid;grid-template-columns:1fr 2fr;gap:12px"><aside>${board('g12')}</aside><main>${text}</main></div>`,
      `<div style="display:grid;grid-template-columns:1fr 1fr;gap:12px"><aside>${board('g11')}</aside><main>${text}</main></div>`,
      `<table><tr><td>${board('t2')}</td><td>${text}</td></tr></table>`,
      `<table><tr><td>${board('t3')}</td><td>${text}</td><td>${text}</td></tr></table>`,
    ].join('\n');
    await page.setViewportSize({ width, height: 900 });
    // A plain Persian page (rtl): an overflow would go left, off the page's start.
    await page.goto(servers.site.page(`/shared-${width}.html`, htmlPageFor(servers, body)));
    await expect(page.locator('price-board').locator('[part~="row"][data-symbol="ons"] [part~="price"]')).toHaveText(
      Array(4).fill(/[۰-۹]/),
    );
    // and the times (the board's extras bring them after the first paint)
    await expect(page.locator('price-board').locator('[part~="row"][data-symbol="ons"] [part~="time"]')).toHaveText(
      Array(4).fill(/[۰-۹]/),
    );
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    const outside = await page.evaluate(
      (width) =>
        [...document.querySelectorAll('body *')]
          .map((el) => [el, el.getBoundingClientRect()] as const)
          .filter(([, r]) => r.width > 0 && (r.left < -0.5 || r.right > width + 0.5))
          .map(([el, r]) => `${el.localName}${el.id ? `#${el.id}` : ''}: ${Math.round(r.left)}–${Math.round(r.right)}`),
      width,
    );
    expect(outside).toEqual([]);
    for (const b of await measureBoards(page)) {
      expect(b.problems, b.id).toEqual([]);
      expect(b.width, b.id).toBeGreaterThanOrEqual(Math.min(140, b.container) - 0.5);
    }
    expect(problems.all()).toEqual([]);
  });
}

test('as a flex item beside a paragraph (no width given), the board takes the width there is down to 280px, never collapsing', async ({
  page,
  servers,
  key,
}) => {
  const tag = boardTag({ 'api-key': key, 'base-url': sandboxBase(servers), symbols: 'usd,eur', chart: 'none' });
  await page.goto(
    servers.site.page(
      '/flex.html',
      htmlPageFor(servers, `<div id="row" style="display:flex">${tag}<p>Text beside it.</p></div>`),
    ),
  );
  await expect(inBoard(page, '[part~="row"][data-symbol="eur"] [part~="price"]')).toHaveText(/[۰-۹]/);
  for (const width of [1280, 768, 390]) {
    await page.setViewportSize({ width, height: 800 });
    const { board, row, text } = await page.evaluate(() => ({
      board: document.querySelector('price-board')!.getBoundingClientRect().width,
      row: document.querySelector('#row')!.getBoundingClientRect().width,
      text: document.querySelector('#row p')!.getBoundingClientRect().width,
    }));
    expect(board, `at ${width}px`).toBeGreaterThanOrEqual(280);
    // like a block: the paragraph keeps no more than it needs on one line, the board the rest
    expect(board + text, `at ${width}px`).toBeCloseTo(row, 0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
});

for (const [name, rule, code] of [
  ['429', { kind: 'rate_limit', retryAfter: 60 }, 'rate_limited'],
  ['500', { kind: 'status', status: 500 }, 'server'],
  [
    '401',
    { kind: 'status', status: 401, body: JSON.stringify({ error: { code: 'unauthorized', message: 'bad key' } }) },
    'unauthorized',
  ],
  ['a slow answer', { kind: 'slow', delayMs: 60_000 }, undefined],
] as const) {
  test(`history failing with ${name}: the chart's message is drawn above the canvas`, async ({
    page,
    servers,
    key,
  }) => {
    await fault(servers, [{ path: '/v1/history', key, ...rule }]);
    const tag = boardTag({ 'api-key': key, 'base-url': sandboxBase(servers), symbols: 'usd,eur', days: '7' });
    await page.goto(servers.site.page(`/chart-${code ?? 'slow'}.html`, htmlPageFor(servers, tag)));
    const message = inBoard(page, '[part~="chart"] .chart-message');
    if (code) await expect(message).toHaveAttribute('data-code', code);
    else await expect(message).toHaveText('در حال بارگذاری نمودار…');
    // The chart is there (its canvas made) under the message.
    await expect(inBoard(page, '[part~="chart"] canvas').first()).toBeAttached();
    const hit = await page.evaluate(() => {
      const root = document.querySelector('price-board')!.shadowRoot!;
      const box = root.querySelector('.chart-message')!.getBoundingClientRect();
      const found = root.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return found?.closest('.chart-message') ? 'message' : `${found?.localName}.${found?.className}`;
    });
    expect(hit).toBe('message');
    await expect(message).toBeVisible();
  });
}

test('when the board narrows from 1280 to 320px, and widens again (a phone rotating), the chart refits: its last candle stays in view', async ({
  page,
  servers,
  key,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const tag = boardTag({ 'api-key': key, 'base-url': sandboxBase(servers), symbols: 'usd', days: '30' });
  await page.goto(servers.site.page('/resize.html', htmlPageFor(servers, tag)));
  await expect(inBoard(page, '[part~="chart"]')).toHaveAttribute('data-status', 'ready');
  await expect(inBoard(page, '[part~="chart"] figcaption')).toContainText('آخرین شمع');
  // The candle under the crosshair at the plot's right edge is the last one (the text
  // alternative names it: «آخرین شمع <date>: …»).
  const last = async () => {
    const caption = (await inBoard(page, '[part~="chart"] figcaption').textContent()) ?? '';
    return /^آخرین شمع (.+?): باز/.exec(caption)?.[1];
  };
  for (const [width, height] of [
    [320, 700],
    [844, 390],
  ] as const) {
    await page.setViewportSize({ width, height });
    await expect
      .poll(async () => {
        const plot = await page.evaluate(() => {
          const canvases = [
            ...document.querySelector('price-board')!.shadowRoot!.querySelectorAll('[part~="chart"] canvas'),
          ];
          const boxes = canvases.map((c) => c.getBoundingClientRect()).filter((b) => b.width > 0);
          const pane = boxes.sort((a, b) => b.width * b.height - a.width * a.height)[0]!;
          return {
            right: pane.right,
            top: pane.top,
            height: pane.height,
            width: document.querySelector('price-board')!.getBoundingClientRect().width,
          };
        });
        if (Math.abs(plot.width - (width - 16)) > 1) return 'not resized yet'; // (the body's 8px margins)
        await page.mouse.move(plot.right - 2, plot.top + plot.height / 2);
        const shown = await inBoard(page, '[part~="chart-legend"] > :first-child').textContent();
        return shown === (await last()) ? 'last candle' : `at ${width}px hovered ${shown}, last ${await last()}`;
      })
      .toBe('last candle');
  }
});

for (const [width, days] of [
  [390, 7],
  [390, 30],
  [1280, 365],
] as const) {
  test(`at ${width}px the ${days}-day chart's time axis dates its candles: the leftmost label is a whole date, days are named, nothing is cut`, async ({
    page,
    servers,
    key,
  }) => {
    await page.addInitScript(recordAxisLabels);
    await page.setViewportSize({ width, height: 800 });
    const tag = boardTag({ 'api-key': key, 'base-url': sandboxBase(servers), symbols: 'usd', days: String(days) });
    await page.goto(servers.site.page(`/axis-${width}-${days}.html`, htmlPageFor(servers, tag)));
    await expect(inBoard(page, '[part~="chart"]')).toHaveAttribute('data-status', 'ready');
    await expect.poll(async () => (await page.evaluate(axisLabels)).length).toBeGreaterThan(2);
    const labels = await page.evaluate(axisLabels);
    expect(cutLabels(labels)).toEqual([]);
    const leftmost = labels.reduce((a, b) => (b.left < a.left ? b : a));
    // a day, a Jalali month name and a year: never a lone «۵» or «۱۲:۰۰» at the edge
    expect(leftmost.text).toMatch(/[۰-۹]+ [آ-ی]+ [۰-۹]{4}/);
    // not only times: the days (or months) are named
    expect(labels.some((l) => !l.text.includes(':'))).toBe(true);
  });
}

test('a closed market: every row stale → status data-market="closed", «بازار بسته» and the last change, never «زنده»; a fresh quote opens it', async ({
  page,
  servers,
  key,
}) => {
  const symbols = ['coin_half', 'coin_quarter'];
  const now = Date.now();
  const at = (minutesAgo: number) => new Date(now - minutesAgo * 60_000).toISOString();
  await market(servers, {
    set: [
      { symbol: 'coin_half', price: '6000000000', updated_at: at(180) },
      { symbol: 'coin_quarter', price: '3800000000', updated_at: at(120) },
    ],
  });
  const tag = boardTag({ 'api-key': key, 'base-url': sandboxBase(servers), symbols: symbols.join(','), chart: 'none' });
  await page.goto(servers.site.page('/closed.html', htmlPageFor(servers, tag)));
  const status = inBoard(page, '[part~="status"]');
  await expect(status).toHaveAttribute('data-market', 'closed');
  const lastChange = await page.evaluate(
    (t) =>
      new Intl.DateTimeFormat('fa-IR', {
        timeZone: 'Asia/Tehran',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(t)),
    now - 120 * 60_000,
  );
  await expect(status).toContainText('بازار بسته');
  await expect(status).toContainText(lastChange);
  await expect(status).not.toContainText('زنده');
  await expect(status).toHaveAttribute('data-status', 'live');

  await market(servers, { set: [{ symbol: 'coin_half', price: '6000100000' }] });
  await expect(status).toHaveAttribute('data-market', 'open');
  await expect(status).toHaveText('زنده');
  await market(servers, { set: [{ symbol: 'coin_quarter', price: '3800000000' }] });
});

test('a bad key: visitors read «قیمت‌ها فعلاً در دسترس نیست», the developer gets the detail in the event and one console.warn', async ({
  page,
  servers,
  key,
}) => {
  await fault(servers, [
    {
      key,
      kind: 'status',
      status: 401,
      body: JSON.stringify({ error: { code: 'unauthorized', message: 'invalid key' } }),
    },
  ]);
  const warnings = recordWarnings(page);
  await page.addInitScript(() => {
    const w = window as unknown as { errors: unknown[] };
    w.errors = [];
    document.addEventListener('price-board-error', (e) => w.errors.push((e as CustomEvent).detail));
  });
  const tag = boardTag({ 'api-key': key, 'base-url': sandboxBase(servers), symbols: 'usd,eur' });
  await page.goto(servers.site.page('/bad-key.html', htmlPageFor(servers, tag)));
  const error = inBoard(page, '[part~="error"]');
  await expect(error).toHaveAttribute('data-code', 'unauthorized');
  await expect(error).toHaveText('قیمت‌ها فعلاً در دسترس نیست.');
  // The chart's history fails the same way: the same words there.
  await expect(inBoard(page, '.chart-message')).toHaveText('قیمت‌ها فعلاً در دسترس نیست.');
  const errors = (
    await page.evaluate(
      () => (window as unknown as { errors: { code: string; message: string; status?: number }[] }).errors,
    )
  ).filter((e) => e.code === 'unauthorized');
  expect(errors.length).toBeGreaterThan(0);
  for (const detail of errors) {
    expect(detail.status).toBe(401);
    expect(detail.message).toMatch(/کلید/); // the developer's words: the key is wrong
  }
  await expect.poll(() => warnings.filter((w) => w.includes('unauthorized')).length).toBe(1);
  expect(warnings.join('\n')).not.toContain(key);
});

test('unknown symbols: no row and nothing for visitors; the event names them, in their order', async ({
  page,
  servers,
  key,
}) => {
  await page.addInitScript(() => {
    const w = window as unknown as { errors: unknown[] };
    w.errors = [];
    document.addEventListener('price-board-error', (e) => w.errors.push((e as CustomEvent).detail));
  });
  const tag = boardTag({
    'api-key': key,
    'base-url': sandboxBase(servers),
    symbols: 'foo_bar,gold_19,usd',
    chart: 'none',
  });
  await page.goto(servers.site.page('/unknown.html', htmlPageFor(servers, tag)));
  await expect(inBoard(page, '[part~="row"]')).toHaveCount(1);
  await expect(inBoard(page, '[part~="row"]')).toHaveAttribute('data-symbol', 'usd');
  await expect(inBoard(page, '[part~="error"]')).toHaveCount(0);
  const detail = await page.evaluate(() =>
    (window as unknown as { errors: { code: string; message: string; symbols?: string[] }[] }).errors.find(
      (e) => e.code === 'unknown_symbol',
    )!,
  );
  expect(detail.symbols).toEqual(['foo_bar', 'gold_19']);
  expect(detail.message).toMatch(/[\u0600-\u06ff]/);
});

test('with an unknown first symbol the chart shows the first known one', async ({ page, servers, key }) => {
  const tag = boardTag({ 'api-key': key, 'base-url': sandboxBase(servers), symbols: 'foo_bar,gold_19,eur,usd' });
  await page.goto(servers.site.page('/unknown-first.html', htmlPageFor(servers, tag)));
  await expect(inBoard(page, '[part~="chart"]')).toHaveAttribute('data-status', 'ready');
  await expect(inBoard(page, '[part~="row"][data-symbol="foo_bar"]')).toHaveCount(0);
  await expect(inBoard(page, '[part~="chart"] canvas').first()).toBeVisible();
  await expect(inBoard(page, '.chart-title')).toHaveText(
    await inBoard(page, '[part~="row"][data-symbol="eur"] [part~="title"]').innerText(),
  );
  await expect(inBoard(page, '[part~="row"][data-symbol="eur"]')).toHaveAttribute('aria-current', 'true');
});

test('one unknown symbol: one console warning naming it, nothing for visitors', async ({ page, servers, key }) => {
  const warnings = recordWarnings(page);
  const tag = boardTag({ 'api-key': key, 'base-url': sandboxBase(servers), symbols: 'usd,foo_bar', chart: 'none' });
  await page.goto(servers.site.page('/unknown-one.html', htmlPageFor(servers, tag)));
  await expect.poll(() => warnings.filter((w) => w.includes('unknown_symbol')).length).toBe(1);
  expect(warnings.find((w) => w.includes('unknown_symbol'))).toContain('foo_bar');
  await expect(inBoard(page, '[part~="error"]')).toHaveCount(0);
});

/** The commonest colour of the chart plot's top-left corner (its background: grid lines are thin), as `r,g,b`. */
const plotBackground = (page: Page) =>
  page.evaluate(() => {
    const canvases = [
      ...document
        .querySelector('price-board')!
        .shadowRoot!.querySelectorAll<HTMLCanvasElement>('[part~="chart"] canvas'),
    ];
    const pane = canvases.sort((a, b) => b.width * b.height - a.width * a.height)[0]!;
    const data = pane.getContext('2d')!.getImageData(0, 0, 30, 30).data;
    const counts = new Map<string, number>();
    for (let i = 0; i < data.length; i += 4) {
      const rgb = `${data[i]},${data[i + 1]},${data[i + 2]}`;
      counts.set(rgb, (counts.get(rgb) ?? 0) + 1);
    }
    return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  });

test('printing: a dark board prints light, chart included, and the status line claims nothing live', async ({
  page,
  servers,
  key,
}) => {
  const tag = boardTag({
    'api-key': key,
    'base-url': sandboxBase(servers),
    symbols: 'usd,eur',
    theme: 'dark',
    days: '7',
  });
  await page.goto(servers.site.page('/print.html', htmlPageFor(servers, tag)));
  await expect(inBoard(page, '[part~="status"]')).toHaveAttribute('data-status', 'live');
  await expect(inBoard(page, '[part~="row"][data-symbol="eur"] [part~="price"]')).toHaveText(/[۰-۹]/);
  await expect(inBoard(page, '[part~="chart"]')).toHaveAttribute('data-status', 'ready');
  // The history is ready before the chart's own chunk may have made its canvases: the caption
  // describes the last candle once the chart has drawn it.
  await expect(inBoard(page, '[part~="chart"] figcaption')).toContainText('آخرین شمع');
  await expect.poll(() => plotBackground(page)).toBe('22,25,30'); // #16191e, the dark theme's
  await page.emulateMedia({ media: 'print' });
  const board = inBoard(page, '[part~="board"]');
  expect(await board.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 255, 255)');
  expect(await board.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(27, 31, 36)');
  await expect(inBoard(page, '[part~="status"]')).toBeHidden();
  await expect.poll(() => plotBackground(page)).toBe('255,255,255');
});
