/**
 * A site behind the relay: the page has the script tag from the relay and the element, with no
 * base-url and no key. The board renders from the relay, a live change reaches it, and no request
 * from the page carries a key. The relay also serves a keyless embed.html.
 */
import { readConfig } from '../../relay/config';
import { startRelay, type Relay } from '../../relay/server';
import { startSandbox, type StartedSandbox } from '../../sandbox/server';
import { expect, htmlPage, persianGrouped, priceCell, rows, test } from './support/fixtures';

let sandbox: StartedSandbox;
let relay: Relay;

test.beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, market: 'open', tickMs: 0 });
  const config = readConfig({
    UPSTREAM_URL: sandbox.url,
    UPSTREAM_KEY: 'basic-key:e2e-relay',
    PLAN: 'basic',
    PORT: '0',
  });
  relay = await startRelay({ ...config, upstreamUrl: sandbox.url }, { logSink: () => {} });
});
test.afterAll(async () => {
  await relay.close();
  await sandbox.close();
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
