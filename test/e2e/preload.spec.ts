/**
 * The keyless relay snippet with its preload (DESIGN.md §12, README): the page's
 * `<link rel="preload" as="fetch" crossorigin>` starts the board's first `/v1/prices` from the
 * HTML, and the board takes that response: the relay answers exactly one `/v1/prices` request.
 * A counting proxy (a real node:http server) in front of the relay counts what the browser sends.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { firstPricesUrl } from '../../src/live/connection';
import { forward } from '../helpers/forward';
import { expect, htmlPage, priceCell, rows, test } from './support/fixtures';
import { startRelayOnSandbox, type RelayOnSandbox } from './support/servers';

let started: RelayOnSandbox;
let proxy: Server;
let origin: string;
/** Requests the browser sent through the proxy, by path and query. */
const seen: string[] = [];

test.beforeAll(async () => {
  started = await startRelayOnSandbox('basic-key:e2e-preload');
  const { relay } = started;
  const target = new URL(relay.url);
  proxy = createServer((req, res) => {
    seen.push(req.url ?? '');
    forward(req, res, target);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await started.close();
});

for (const symbols of [
  ['usd', 'eur', 'gold_18'],
  ['coin_emami', 'usd'],
]) {
  test(`the board takes the page's preloaded prices: one /v1/prices request (${symbols.join(',')})`, async ({
    page,
    servers,
    problems,
  }) => {
    seen.length = 0;
    const href = firstPricesUrl(origin, symbols);
    expect(href).toBe(`${origin}/v1/prices?symbols=${symbols.join(',')}`);
    const url = servers.site.page(
      `/preload-${symbols.length}.html`,
      htmlPage(
        `<price-board symbols="${symbols.join(',')}" chart="none"></price-board>`,
        `<link rel="preload" as="fetch" crossorigin href="${href}">` +
          `<script type="module" src="${origin}/price-board.js"></script>`,
      ),
    );
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (/preload/i.test(message.text())) warnings.push(message.text());
    });
    await page.goto(url);
    await expect(rows(page)).toHaveCount(symbols.length);
    for (const symbol of symbols) await expect(priceCell(page, symbol)).toHaveText(/[۰-۹]/);
    await expect(page.locator('price-board [part~="status"]')).toHaveAttribute('data-status', 'live');
    expect(seen.filter((u) => u.startsWith('/v1/prices'))).toEqual([`/v1/prices?symbols=${symbols.join(',')}`]);
    // Chromium warns of a preload the page did not use; none here.
    expect(warnings).toEqual([]);
    expect(problems.all()).toEqual([]);
  });
}
