/**
 * The board's extras (the chart section, the status text, selection and keys, announcements, the
 * price flash) are a chunk asked for once the board's first render is painted, so that its fetch
 * and compile do not compete with the rows'. Held back here: the rows do not wait for it, and the board keeps the chart section's room and the
 * status line's height meanwhile, so nothing below the board moves when they arrive.
 */
import type { Page } from '@playwright/test';
import {
  boardPageFor,
  expect,
  htmlPageFor,
  priceCell,
  recordErrorCodes,
  recordEventDetails,
  rows,
  sandboxBase,
  test,
} from './support/fixtures';

/** Refuses the chunks whose address matches `pattern` (a reset connection) until the returned function is called. */
async function refuse(page: Page, pattern: RegExp): Promise<() => void> {
  let blocked = true;
  await page.route(pattern, (route) => (blocked ? route.abort('connectionreset') : route.continue()));
  return () => (blocked = false);
}

/** Holds the extras chunk back until the returned function is called. */
async function holdExtras(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/board-extras-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('the rows do not wait for the extras chunk, and the board does not change height when it arrives', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const release = await holdExtras(page);
  const url = boardPageFor(
    servers,
    key,
    '/extras-chunk.html',
    'symbols="usd,eur" stream="off"',
    '<p id="below">below</p>',
  );
  await page.goto(url);
  await expect(rows(page)).toHaveCount(2);
  await expect(priceCell(page, 'usd')).toHaveText(/[۰-۹]/);
  await expect(page.locator('price-board .chart-pending')).toHaveCount(1);
  await expect(page.locator('price-board [part~="chart"]')).toHaveCount(0);
  const before = await page.locator('#below').boundingBox();

  release();
  await expect(page.locator('price-board [part~="chart"]')).toHaveCount(1);
  // stream="off": one answer, then refresh() only; the status line says so once the extras came.
  await expect(page.locator('price-board [part~="status"]')).toHaveText('بدون به‌روزرسانی خودکار');
  await expect(page.locator('price-board .chart-pending')).toHaveCount(0);
  const after = await page.locator('#below').boundingBox();
  expect(Math.abs(after!.y - before!.y)).toBeLessThanOrEqual(1);
  expect(problems.all()).toEqual([]);
});

test('the extras and the chart area are asked for once the first render is painted (the skeleton while the prices are slow), not beside the prices request', async ({
  page,
  servers,
  key,
  problems,
}) => {
  // What the page shows as each chunk is asked for (checked while its request waits).
  const shown: Record<string, { rows: number; priced: number; skeletons: number }> = {};
  await page.route(/\/assets\/(board-extras|chart-area)-[\w-]+\.js$/, async (route) => {
    const name = /(board-extras|chart-area)/.exec(route.request().url())![1]!;
    shown[name] = await page.evaluate(() => {
      const root = document.querySelector('price-board')?.shadowRoot;
      const all = [...(root?.querySelectorAll('[part~="row"]') ?? [])];
      return {
        rows: all.length,
        priced: all.filter((r) => /[۰-۹]/.test(r.querySelector('[part~="price"]')?.textContent ?? '')).length,
        skeletons: root?.querySelectorAll('[part~="row"] .skeleton').length ?? 0,
      };
    });
    await route.continue();
  });
  const board = (symbols: string) =>
    `<price-board api-key="${key}" base-url="${sandboxBase(servers)}" symbols="${symbols}" stream="off"></price-board>`;

  // A slow answer: the skeleton is the first render (what the chunks would compete with on a fast
  // network is the rows'); the chunks do not wait for the prices.
  const slow = await fetch(`${sandboxBase(servers)}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ rules: [{ path: '/v1/prices', key, kind: 'slow', delayMs: 3000, count: 1 }] }),
  });
  expect(slow.ok).toBe(true);
  await page.goto(servers.site.page('/extras-after-skeleton.html', htmlPageFor(servers, board('usd,eur'))));
  await expect(page.locator('price-board [part~="chart"]')).toHaveCount(1);
  for (const name of ['board-extras', 'chart-area']) {
    expect(shown[name]).toEqual({ rows: 2, priced: 0, skeletons: expect.any(Number) });
    expect(shown[name]!.skeletons).toBeGreaterThan(0);
  }
  await expect(priceCell(page, 'usd')).toHaveText(/[۰-۹]/, { timeout: 10_000 });
  expect(problems.all()).toEqual([]);
});

test('before the extras chunk arrives, a focused row shows its focus ring and a click selects its row for the chart', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const release = await holdExtras(page);
  const selected = await recordEventDetails(page, 'price-board-select', 'symbol');
  const url = boardPageFor(servers, key, '/extras-chunk-select.html', 'symbols="usd,eur" stream="off"');
  await page.goto(url);
  await expect(priceCell(page, 'eur')).toHaveText(/[۰-۹]/);
  await expect(page.locator('price-board [part~="chart"]')).toHaveCount(0); // the extras are still held

  await page.keyboard.press('Tab');
  const ring = await page.evaluate(() => {
    const focused = document.querySelector('price-board')!.shadowRoot!.activeElement as HTMLElement | null;
    return { symbol: focused?.dataset.symbol, outline: focused ? getComputedStyle(focused).outlineStyle : '' };
  });
  expect(ring).toEqual({ symbol: 'usd', outline: 'solid' });

  await page.locator('price-board [part~="row"][data-symbol="eur"]').click();
  await expect(page.locator('price-board [part~="row"][data-symbol="eur"]')).toHaveAttribute('aria-current', 'true');
  expect(await selected()).toEqual(['eur']);
  const eurTitle = (await page
    .locator('price-board [part~="row"][data-symbol="eur"] [part~="title"]')
    .textContent())!.trim();

  release();
  await expect(page.locator('price-board .chart-section')).toHaveAttribute('aria-label', `نمودار ${eurTitle}`);
  expect(problems.all()).toEqual([]);
});

test('when the extras chunk fails to load, the board says so where the chart goes, fires the error and loads it on a later try', async ({
  page,
  servers,
  key,
}) => {
  let failures = 0;
  await page.route(/\/assets\/board-extras-[\w-]+\.js$/, async (route) => {
    if (failures < 2) {
      failures++;
      await route.abort('connectionreset');
    } else await route.continue();
  });
  const url = boardPageFor(servers, key, '/extras-chunk-fails.html', 'symbols="usd,eur" stream="off"');
  const errorCodes = await recordErrorCodes(page);
  await page.goto(url);
  await expect(rows(page)).toHaveCount(2);
  await expect(priceCell(page, 'usd')).toHaveText(/[۰-۹]/);
  const alert = page.locator('price-board .chart-pending [role="alert"]');
  await expect(alert).toHaveAttribute('data-code', 'network');
  await expect(alert).toHaveText('بخشی از تابلو (نمودار و کلیدها) بارگیری نشد؛ دوباره تلاش می‌شود.');
  expect(await errorCodes()).toEqual(['network']);

  // Tried again by itself (after a capped backoff): the chart section replaces the message, one event in all.
  await expect(page.locator('price-board [part~="chart"]')).toHaveCount(1, { timeout: 15_000 });
  await expect(alert).toHaveCount(0);
  expect(failures).toBe(2);
  expect(await errorCodes()).toEqual(['network']);
});

test("when the chart area's chunk fails to load, the board says so where the chart goes, fires the error and loads it at its next change", async ({
  page,
  servers,
  key,
  problems,
}) => {
  // The chart's section and work are a chunk only a board with a chart loads (src/board/board-chart.ts).
  const allow = await refuse(page, /\/assets\/chart-area-[\w-]+\.js$/);
  const errorCodes = await recordErrorCodes(page);
  const url = boardPageFor(servers, key, '/chart-area-fails.html', 'symbols="usd,eur" stream="off"');
  await page.goto(url);
  await expect(priceCell(page, 'usd')).toHaveText(/[۰-۹]/);
  const alert = page.locator('price-board .chart-pending [role="alert"]');
  await expect(alert).toHaveAttribute('data-code', 'network');
  await expect(alert).toHaveText(/[\u0600-\u06ff]/);
  // The rest of the board's extras came: the status line's text.
  await expect(page.locator('price-board [part~="status"]')).toHaveText('بدون به‌روزرسانی خودکار');
  expect(await errorCodes()).toEqual(['network']);

  allow();
  await page.locator('price-board').evaluate((el) => el.setAttribute('days', '7'));
  await expect(page.locator('price-board [part~="chart"]')).toHaveAttribute('data-status', 'ready');
  await expect(page.locator('price-board [data-days="7"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(alert).toHaveCount(0);
  expect(await errorCodes()).toEqual(['network']);
  // The failed fetch is logged by the browser; nothing is thrown.
  expect(problems.pageErrors).toEqual([]);
});

test('a board waiting to retry its extras gets them as soon as another board of the page has loaded the chunk', async ({
  page,
  servers,
  key,
}) => {
  const allow = await refuse(page, /\/assets\/board-extras-[\w-]+\.js$/);
  const board = (id: string) =>
    `<price-board id="${id}" api-key="${key}" base-url="${sandboxBase(servers)}" symbols="usd,eur" stream="off"></price-board>`;
  const url = servers.site.page('/extras-chunk-wake.html', htmlPageFor(servers, board('first')));
  // Time flows until the clock is paused below; then the first board's own retry timer cannot fire.
  await page.clock.install();
  await page.goto(url);
  const alert = page.locator('#first .chart-pending [role="alert"]');
  await expect(alert).toHaveAttribute('data-code', 'network');
  // Paused just after the page's present (the chunk is still refused, so a retry due before then fails too).
  // (Asked again when the page's time passed that point before the call arrived: a loaded machine.)
  for (;;) {
    const now = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(now + 100);
      break;
    } catch (error) {
      if (!/past/i.test(String(error))) throw error;
    }
  }

  allow();
  await page.evaluate((markup) => document.body.insertAdjacentHTML('beforeend', markup), board('second'));
  // The second board asks for the chunk once its first render is painted: one frame and an idle
  // callback of the paused clock (16 ms, at most 50 ms), well before the first board's retry.
  await expect(page.locator('#second [part~="row"]')).toHaveCount(2);
  await page.clock.runFor(100);
  await expect(page.locator('#second [part~="chart"]')).toHaveCount(1);
  // The first board did not wait for its retry (its timer is frozen): the second board's chunk woke it.
  await expect(page.locator('#first [part~="chart"]')).toHaveCount(1);
  await expect(alert).toHaveCount(0);
});
