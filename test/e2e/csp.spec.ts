/**
 * A third-party site with a strict Content-Security-Policy (no 'unsafe-inline', no 'unsafe-eval')
 * that allows only the widget's CDN for scripts and styles and the price service for connections:
 * the script-tag embed (with its lazily loaded chart) and the loader both work without a single
 * violation.
 */
import { expect, htmlPage, rows, sandboxBase, test, type Servers } from './support/fixtures';

/**
 * The smallest policy docs/embedding.md recommends: the widget's origin for scripts (and frames,
 * for the loader), the price service for connections; styles and fonts only from the site itself.
 */
function strictPolicy(servers: Servers): string {
  const cdn = servers.cdn.origin;
  return [
    "default-src 'none'",
    `script-src 'self' ${cdn}`,
    "style-src 'self'",
    "font-src 'self'",
    "img-src 'self'",
    `connect-src ${sandboxBase(servers)}`,
    `frame-src ${cdn}`,
    "base-uri 'none'",
  ].join('; ');
}

test('the script-tag embed with a chart works under a strict CSP', async ({ page, servers, key, problems }) => {
  const url = servers.site.page(
    '/csp-script.html',
    htmlPage(
      `<price-board api-key="${key}" base-url="${sandboxBase(servers)}" symbols="usd,eur,gold_18" days="7" theme="dark"></price-board>`,
      `<script type="module" src="${servers.cdn.url}price-board.js"></script>`,
    ),
    { 'Content-Security-Policy': strictPolicy(servers) },
  );
  await page.goto(url);
  await expect(rows(page)).toHaveCount(3);
  await expect(page.locator('price-board [part~="chart"] canvas').first()).toBeVisible();
  // The licence's attribution: our own visible link (the build drops lightweight-charts' logo code).
  const attribution = page.locator('price-board [part~="chart-attribution"]');
  await expect(attribution).toBeVisible();
  await expect(attribution).toHaveText('TradingView');
  await expect(attribution).toHaveAttribute('href', 'https://www.tradingview.com/');
  await expect(page.locator('price-board #tv-attr-logo')).toHaveCount(0);
  // Switch the chart's symbol and type at run time: new styles and series under the same policy.
  const eurHistory = page.waitForResponse((r) => new URL(r.url()).pathname === '/v1/history/eur');
  await rows(page).nth(1).click();
  await page.locator('price-board').evaluate((el) => el.setAttribute('chart', 'line'));
  await expect(page.locator('price-board')).toHaveAttribute('chart-symbol', 'eur');
  await eurHistory;
  await expect(page.locator('price-board [part~="chart"]')).toHaveAttribute('data-status', 'ready');
  // The line of eur is painted in the next frames; a violation would be reported by then.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  expect(problems.cspViolations).toEqual([]);
  expect(problems.all()).toEqual([]);
});

test('the loader works under a strict CSP', async ({ page, servers, key, problems }) => {
  const url = servers.site.page(
    '/csp-loader.html',
    htmlPage(
      `<div id="p" data-price-board data-symbols="usd,eur" data-key="${key}" data-base-url="${sandboxBase(servers)}" data-chart="none"></div>`,
      `<script type="module" src="${servers.cdn.url}embed.js"></script>`,
    ),
    { 'Content-Security-Policy': strictPolicy(servers) },
  );
  await page.goto(url);
  const iframe = page.locator('#p > iframe');
  await expect(rows(page.frameLocator('#p > iframe'))).toHaveCount(2);
  await expect.poll(() => iframe.evaluate((el) => el.getBoundingClientRect().height)).not.toBe(420);
  expect(problems.all()).toEqual([]);
});
