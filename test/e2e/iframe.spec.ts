/**
 * The iframe host page `embed.html`: settings from URL parameters (the attribute names, `key`
 * for `api-key`), applied as attributes only; a board filling the frame; resize messages to the
 * parent. The CDN serves it under a strict CSP, so any inline script or style would show up as a
 * violation.
 */
import type { Page } from '@playwright/test';
import { axisLabels, cutLabels, recordAxisLabels } from '../support/axis-labels';
import {
  expect,
  htmlPage,
  persianGrouped,
  priceCell,
  rows,
  sandboxBase,
  setPrices,
  test,
  type Servers,
} from './support/fixtures';
import { BOARD_ATTRIBUTES, LAYOUT_ATTRIBUTES } from '../helpers/design-names';

function embedUrl(servers: Servers, params: Record<string, string>): string {
  return `${servers.cdn.url}embed.html?${new URLSearchParams(params).toString()}`;
}

/** Records `price-board-error` details in every frame, from before any script runs. */
async function recordBoardErrors(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const errors: unknown[] = [];
    (window as unknown as { __boardErrors: unknown[] }).__boardErrors = errors;
    document.addEventListener('price-board-error', (event) => errors.push((event as CustomEvent).detail));
  });
}

test('renders in a frame on another site and posts its height to the parent', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const src = embedUrl(servers, { symbols: 'usd,eur,gold_18', key, 'base-url': sandboxBase(servers), chart: 'none' });
  const url = servers.site.page(
    '/iframe.html',
    htmlPage(
      `<iframe id="board" src="${src.replace(/&/g, '&amp;')}" title="قیمت" width="600" height="300"></iframe>
<script>
  window.resizes = [];
  addEventListener('message', (event) => {
    if (event.source === document.getElementById('board').contentWindow) window.resizes.push({ origin: event.origin, data: event.data });
  });
</script>`,
    ),
  );
  await page.goto(url);
  const frame = page.frameLocator('#board');
  await expect(rows(frame)).toHaveCount(3);

  await setPrices(servers, [{ symbol: 'usd', price: '98765430' }]);
  await expect(priceCell(frame, 'usd')).toContainText(persianGrouped('9876543'));

  type Resize = { origin: string; data: { type: string; height: number } };
  const resizes = () => page.evaluate(() => (window as unknown as { resizes: Resize[] }).resizes);
  const embed = page.frame({ url: /embed\.html/ })!;
  // The reported height is the board's: the frame's own document, measured from inside. The last
  // message may still be on its way (the times under the titles come with the board's extras and
  // make the rows taller), so this waits for it.
  const heights = async () => ({
    reported: (await resizes()).at(-1)?.data.height,
    inner: await embed.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height)),
  });
  await expect
    .poll(async () => {
      const h = await heights();
      return h.reported === h.inner;
    })
    .toBe(true);
  const last = (await resizes()).at(-1)!;
  expect(last.origin).toBe(servers.cdn.origin);
  expect(last.data.type).toBe('price-board:resize');
  expect(last.data.height).toBeGreaterThan(100);

  // The board fills the frame's width.
  const width = await frame.locator('price-board').evaluate((el) => el.getBoundingClientRect().width);
  expect(width).toBeGreaterThan(590);
  expect(problems.all()).toEqual([]);
});

test('takes every attribute as a parameter, `api-key` as well as `key`', async ({ page, servers, key, problems }) => {
  await page.goto(
    embedUrl(servers, {
      symbols: 'EUR, usd',
      'api-key': key,
      'base-url': sandboxBase(servers),
      unit: 'rial',
      theme: 'dark',
      chart: 'none',
      stream: 'poll',
      'poll-interval': '60',
    }),
  );
  const board = page.locator('price-board');
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).first()).toHaveAttribute('data-symbol', 'eur');
  await expect(board).toHaveAttribute('unit', 'rial');
  await expect(board).toHaveAttribute('theme', 'dark');
  await expect(board).toHaveAttribute('stream', 'poll');
  await setPrices(servers, [{ symbol: 'usd', price: '5000000' }]);
  await page.locator('price-board').evaluate((el) => (el as HTMLElement & { refresh(): Promise<void> }).refresh());
  await expect(priceCell(page, 'usd')).toContainText(persianGrouped('5000000'));
  expect(problems.all()).toEqual([]);
});

test('takes columns, density, link and max-height; a title link opens in the top window', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const symbols =
    'usd,eur,aed,gbp,try,cny,iqd,afn,cad,aud,chf,jpy,rub,sar,kwd,qar,omr,bhd,inr,pkr,gold_18,gold_24,coin_emami,coin_bahar,coin_half,coin_quarter,coin_gerami,silver_999,ons,silver_ounce';
  const src = embedUrl(servers, {
    symbols,
    key,
    'base-url': sandboxBase(servers),
    chart: 'none',
    columns: 'price,change-amount,bubble',
    density: 'compact',
    link: 'https://example.com/price/{symbol}',
    'max-height': '300',
  });
  const url = servers.site.page(
    '/iframe-columns.html',
    htmlPage(`<iframe id="board" src="${src.replace(/&/g, '&amp;')}" title="قیمت" width="600" height="400"></iframe>`),
  );
  await page.goto(url);
  const frame = page.frameLocator('#board');
  await expect(rows(frame)).toHaveCount(30);
  const link = frame.locator('[data-symbol="usd"] [part~="title"] a');
  await expect(link).toHaveAttribute('href', 'https://example.com/price/usd');
  await expect(link).toHaveAttribute('target', '_top');
  await expect(link).toHaveAttribute('rel', 'noopener');
  await expect(frame.locator('[data-symbol="coin_emami"] [part~="bubble"]')).toHaveText(/٪$/);
  await expect(frame.locator('[part~="board"]')).toHaveAttribute('data-density', 'compact');
  // 30 rows scroll inside a board of at most 300 px (set through the CSSOM: no CSP violation).
  const height = await frame.locator('[part~="board"]').evaluate((el) => el.getBoundingClientRect().height);
  expect(height).toBeLessThanOrEqual(300);
  expect(height).toBeGreaterThan(200);
  expect(problems.all()).toEqual([]);
});

test('a bad value is left to the element, which reports invalid_attribute in Persian', async ({
  page,
  servers,
  key,
}) => {
  await recordBoardErrors(page);
  await page.goto(
    embedUrl(servers, { symbols: 'usd', key, 'base-url': sandboxBase(servers), chart: 'pie', theme: 'purple' }),
  );
  await expect(rows(page)).toHaveCount(1);
  await expect(page.locator('price-board')).toHaveAttribute('chart', 'pie');
  const errors = await page.evaluate(
    () => (window as unknown as { __boardErrors: Array<{ code: string; message: string }> }).__boardErrors,
  );
  const invalid = errors.filter((e) => e.code === 'invalid_attribute');
  expect(invalid.length).toBeGreaterThan(0);
  expect(invalid[0]!.message).toMatch(/[\u0600-\u06ff]/);
});

test('ignores unknown parameters and never parses a value as HTML', async ({ page, servers, key, problems }) => {
  await page.goto(
    embedUrl(servers, {
      symbols: 'usd',
      key,
      'base-url': sandboxBase(servers),
      chart: 'none',
      onload: 'alert(1)',
      style: 'display:none',
      html: '<img src=x onerror="window.pwned=1">',
      'chart-symbol': '"><img src=x onerror="window.pwned=1">',
    }),
  );
  await expect(rows(page)).toHaveCount(1);
  const body = await page.evaluate(() => ({
    children: [...document.body.children].map((el) => el.localName),
    attributes: document.querySelector('price-board')!.getAttributeNames().sort(),
    images: document.querySelectorAll('img').length,
    pwned: (window as unknown as { pwned?: number }).pwned,
  }));
  expect(body.children).toEqual(['price-board']);
  // What was set, plus whatever the element reflects itself: attribute names only (DESIGN.md §2).
  const known: string[] = [...BOARD_ATTRIBUTES, ...LAYOUT_ATTRIBUTES];
  expect(body.attributes.filter((name) => !known.includes(name))).toEqual([]);
  expect(body.attributes).toEqual(expect.arrayContaining(['api-key', 'base-url', 'chart', 'chart-symbol', 'symbols']));
  expect(body.images).toBe(0);
  expect(body.pwned).toBeUndefined();
  expect(problems.pageErrors).toEqual([]);
  expect(problems.cspViolations).toEqual([]);
});

test('transparent=1 removes the backgrounds', async ({ page, servers, key }) => {
  await page.goto(
    embedUrl(servers, { symbols: 'usd', key, 'base-url': sandboxBase(servers), chart: 'none', transparent: '1' }),
  );
  await expect(rows(page)).toHaveCount(1);
  const styles = await page.evaluate(() => ({
    flag: document.documentElement.hasAttribute('data-transparent'),
    page: getComputedStyle(document.documentElement).backgroundColor,
    body: getComputedStyle(document.body).backgroundColor,
    board: getComputedStyle(document.querySelector('price-board')!).getPropertyValue('--price-board-bg').trim(),
  }));
  expect(styles).toEqual({ flag: true, page: 'rgba(0, 0, 0, 0)', body: 'rgba(0, 0, 0, 0)', board: 'transparent' });
});

test('a 360 px frame draws its time-axis labels whole, in the web font too', async ({
  page,
  servers,
  key,
  problems,
}) => {
  await page.addInitScript(recordAxisLabels);
  await page.setViewportSize({ width: 360, height: 800 });
  const src = embedUrl(servers, { symbols: 'usd', key, 'base-url': sandboxBase(servers), days: '30', stream: 'off' });
  const frameHtml = `<iframe id="board" src="${src.replace(/&/g, '&amp;')}" title="قیمت" width="360" height="500"></iframe>`;
  await page.goto(servers.site.page('/iframe-narrow.html', htmlPage(frameHtml)));
  await expect(rows(page.frameLocator('#board'))).toHaveCount(1);
  const frame = page.frame({ url: /embed\.html/ })!;
  await expect.poll(async () => (await frame.evaluate(axisLabels)).filter((l) => l.webFont).length).toBeGreaterThan(2);
  expect(cutLabels(await frame.evaluate(axisLabels))).toEqual([]);
  expect(problems.all()).toEqual([]);
});
