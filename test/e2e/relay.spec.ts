/**
 * A site behind the relay: the page has the script tag from the relay and the element, with no
 * base-url and no key. The board renders from the relay, a live change reaches it, and no request
 * from the page carries a key. The relay also serves a keyless embed.html.
 */
import type { Relay } from '../../relay/server';
import type { StartedSandbox } from '../../sandbox/server';
import { expect, htmlPage, persianGrouped, priceCell, rows, test } from './support/fixtures';
import { startRelayOnSandbox, type RelayOnSandbox } from './support/servers';

let started: RelayOnSandbox;
let sandbox: StartedSandbox;
let relay: Relay;

test.beforeAll(async () => {
  ({ sandbox, relay } = started = await startRelayOnSandbox('basic-key:e2e-relay'));
});
test.afterAll(async () => {
  await started.close();
});

test('a keyless board loaded from the relay renders and follows a live change', async ({ page, servers, problems }) => {
  const keys: string[] = [];
  page.on('request', (request) => {
    const key = request.headers()['x-api-key'];
    if (key) keys.push(key);
  });
  const url = servers.site.page(
    '/relay.html',
    htmlPage(
      '<price-board symbols="usd,eur,gold_18" chart="none"></price-board>',
      `<script type="module" src="${relay.url}/price-board.js"></script>`,
    ),
  );
  await page.goto(url);
  await expect(rows(page)).toHaveCount(3);
  await expect(priceCell(page, 'eur')).toHaveText(/[۰-۹]/);
  await expect(page.locator('price-board [part~="status"]')).toHaveAttribute('data-status', 'live');

  await fetch(`${sandbox.url}/__sandbox/market`, {
    method: 'POST',
    body: JSON.stringify({ set: [{ symbol: 'usd', price: '12345670' }] }),
  });
  await expect(priceCell(page, 'usd')).toContainText(persianGrouped('1234567'));
  expect(keys).toEqual([]);
  expect(problems.all()).toEqual([]);
});

test('the relay serves a keyless iframe page, with the chart from history', async ({ page, problems }) => {
  await page.goto(`${relay.url}/embed.html?symbols=usd,eur&days=7`);
  await expect(rows(page)).toHaveCount(2);
  await expect(priceCell(page, 'usd')).toHaveText(/[۰-۹]/);
  await expect(page.locator('price-board [part~="chart"] canvas').first()).toBeVisible();
  expect(problems.all()).toEqual([]);
});

test('a page with every widget loads through the relay while another client at its address uses the API at its limit', async ({
  page,
  servers,
  problems,
}) => {
  test.setTimeout(120_000);
  // Another client at the same address (a carrier's NAT: here every request comes from 127.0.0.1):
  // it spends the address's API window to its limit, then asks again with each API answer the
  // page gets, so the window stays spent while the widgets load.
  const other = `${relay.url}/v1/prices?symbols=usd`;
  while ((await fetch(other)).status !== 429);
  const otherStatuses: number[] = [];
  const otherAsks: Promise<void>[] = [];
  try {
    const files: number[] = [];
    page.on('response', (response) => {
      if (!response.url().startsWith(relay.url)) return;
      if (!new URL(response.url()).pathname.startsWith('/v1/')) files.push(response.status());
      else otherAsks.push(fetch(other).then((answer) => void otherStatuses.push(answer.status)));
    });
    const url = servers.site.page(
      '/every-widget.html',
      htmlPage(
        `<price-board symbols="usd,eur,gold_18" chart="none"></price-board>
<price-ticker symbols="usd,eur"></price-ticker>
<price-converter symbols="usd" amount="2"></price-converter>
<iframe id="frame" src="${relay.url}/embed.html?symbols=usd,gold_18&days=7" title="قیمت‌ها" style="height:420px"></iframe>
<div id="loaded" data-price-board data-symbols="eur,coin_emami"></div>`,
        `<script type="module" src="${relay.url}/price-board.js"></script>
<script type="module" src="${relay.url}/price-ticker.js"></script>
<script type="module" src="${relay.url}/price-converter.js"></script>
<script type="module" src="${relay.url}/embed.js"></script>`,
      ),
    );
    // Every widget in view (one out of view waits to be seen before it connects).
    await page.setViewportSize({ width: 1280, height: 1600 });
    await page.goto(url);
    // The widgets ask their API while the address is at its limit, read the relay's 429 (CORS
    // headers on it) and ask again when it says; their files were never refused.
    const long = { timeout: 60_000 };
    await expect(priceCell(page, 'eur')).toHaveText(/^[۰-۹٬٫]+$/, long);
    await expect(page.locator('price-ticker [part~="price"]').first()).toHaveText(/^[۰-۹٬٫]+$/, long);
    await expect(page.locator('price-converter [part~="result"]')).toContainText('تومان', long);
    const frame = page.frameLocator('#frame');
    await expect(priceCell(frame, 'gold_18')).toHaveText(/^[۰-۹٬٫]+$/, long);
    const loaded = page.frameLocator('#loaded > iframe');
    await expect(priceCell(loaded, 'coin_emami')).toHaveText(/^[۰-۹٬٫]+$/, long);
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((status) => status !== 200 && status !== 304)).toEqual([]);
    expect(otherStatuses).toContain(429);
    expect(problems.all().filter((p) => /CORS|Access-Control|module script/i.test(p))).toEqual([]);
  } finally {
    page.removeAllListeners('response');
    await Promise.all(otherAsks);
  }
});
