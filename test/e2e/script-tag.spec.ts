/**
 * Script-tag embed on a third-party site: the page has nothing but the module script from the
 * "CDN" (another origin, under a versioned path prefix) and the element.
 */
import {
  boardPageFor,
  expect,
  htmlPageFor,
  persianGrouped,
  priceCell,
  rows,
  setPrices,
  test,
} from './support/fixtures';

test('renders the board from the CDN and a live price change reaches the row', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const url = boardPageFor(servers, key, '/script-tag.html', 'symbols="usd,eur,gold_18" chart="none"');
  await page.goto(url);

  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).nth(0)).toHaveAttribute('data-symbol', 'usd');
  await expect(priceCell(page, 'eur')).toHaveText(/[۰-۹]/);
  await expect(page.locator('price-board [part~="status"]')).toHaveAttribute('data-status', /live|polling/);

  // 12,345,670 rials = 1,234,567 tomans, the default unit.
  await setPrices(servers, [{ symbol: 'usd', price: '12345670' }]);
  await expect(priceCell(page, 'usd')).toContainText(persianGrouped('1234567'));

  expect(problems.all()).toEqual([]);
});

test('with the chart, the chart chunk loads from the same CDN folder', async ({ page, servers, key, problems }) => {
  const url = boardPageFor(servers, key, '/script-tag-chart.html', 'symbols="usd,eur" days="7"');
  const requestedBefore = servers.cdn.requests.length;
  await page.goto(url);
  await expect(rows(page)).toHaveCount(2);
  await expect(page.locator('price-board [part~="chart"] canvas').first()).toBeVisible();
  const requested = servers.cdn.requests.slice(requestedBefore);
  expect(requested.every((path) => path.startsWith('/cdn/price-board/0.1.0/'))).toBe(true);
  expect(requested.some((path) => path.includes('/assets/'))).toBe(true);
  expect(problems.all()).toEqual([]);
});

test('two copies of the script tag on one page do not throw', async ({ page, servers, key, base, problems }) => {
  const url = servers.site.page(
    '/script-tag-twice.html',
    htmlPageFor(
      servers,
      `<price-board api-key="${key}" base-url="${base}" symbols="usd" chart="none"></price-board>
<script type="module" src="${servers.cdn.url}price-board.js?copy=2"></script>
<price-board api-key="${key}" base-url="${base}" symbols="eur,usd" chart="none"></price-board>`,
    ),
  );
  await page.goto(url);
  await expect(rows(page)).toHaveCount(3);
  await expect(priceCell(page.locator('price-board').nth(1), 'eur')).toHaveText(/[۰-۹]/);
  expect(problems.pageErrors).toEqual([]);
  expect(problems.all()).toEqual([]);
});

test('with link, titles link to the site’s pages in the same window; extra columns come from the CDN folder', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const url = boardPageFor(
    servers,
    key,
    '/script-tag-link.html',
    'symbols="usd,coin_emami" chart="none" columns="price,change-amount,bubble" link="/price/{symbol}"',
  );
  await page.goto(url);
  await expect(rows(page)).toHaveCount(2);
  const link = page.locator('price-board [data-symbol="coin_emami"] [part~="title"] a');
  await expect(link).toHaveAttribute('href', `${new URL(url).origin}/price/coin_emami`);
  await expect(link).toHaveAttribute('rel', 'noopener');
  // A page of its own: the link opens in the same window.
  expect(await link.getAttribute('target')).toBeNull();
  await expect(page.locator('price-board [data-symbol="coin_emami"] [part~="bubble"]')).toHaveText(/٪$/);
  await expect(page.locator('price-board [data-symbol="usd"] [part~="change-amount"]')).toHaveText(/[۰-۹]/);
  expect(problems.all()).toEqual([]);
});
