/**
 * The relay's first paint in real Chromium (DESIGN.md §13), on pages of another origin:
 * - the relay's `embed.html` in an iframe shows prices with JavaScript disabled, and with it the
 *   board takes over its render and goes live with no `/v1/prices` request, posting its height;
 * - a fragment inserted server-side into a page with a strict CSP (style-src only the hashes the
 *   relay publishes at /render/csp) shows its prices with no violation, before and after going live;
 * - a fragment as served, with its own script: a frame shows its rows before the widget's module
 *   runs (takeover.js), which then takes them over; on a hidden page takeover.js loads the module at
 *   once, and a query naming no widget is said in the console.
 */
import type { Relay } from '../../relay/server';
import type { StartedSandbox } from '../../sandbox/server';
import { expect, htmlPage, persianGrouped, priceCell, rows, test, type Servers } from './support/fixtures';
import { freePort } from '../helpers/cluster-processes';
import { startRelayOnSandbox, type RelayOnSandbox } from './support/servers';

let started: RelayOnSandbox;
let sandbox: StartedSandbox;
let relay: Relay;

test.beforeAll(async () => {
  ({ sandbox, relay } = started = await startRelayOnSandbox('basic-key:e2e-relay-render'));
});
test.afterAll(async () => {
  await started.close();
});

/** The relay's toman prices of `symbols`, as the board groups them. */
async function tomanPrices(symbols: string): Promise<Map<string, string>> {
  const answer = (await (await fetch(`${relay.url}/v1/prices?symbols=${symbols}`)).json()) as {
    data: { quotes: Array<{ symbol: string; price_toman: string }> };
  };
  return new Map(answer.data.quotes.map((quote) => [quote.symbol, persianGrouped(quote.price_toman)]));
}

/** Sets a price on the relay's upstream market (pushed to its stream). */
async function setPrice(symbol: string, price: string): Promise<void> {
  await setPriceOn(sandbox, symbol, price);
}

/** Sets a price on the market of `on`. */
async function setPriceOn(on: StartedSandbox, symbol: string, price: string): Promise<void> {
  await fetch(`${on.url}/__sandbox/market`, {
    method: 'POST',
    body: JSON.stringify({ set: [{ symbol, price }] }),
  });
}

/**
 * A strict Content-Security-Policy for a page including the fragments of the relay at `relayUrl`:
 * scripts, connections and fonts from the relay only, styles only the hashes it publishes.
 */
async function strictPolicy(relayUrl: string): Promise<string> {
  const sources = (await (await fetch(`${relayUrl}/render/csp`)).json()) as { 'style-src': string };
  return [
    "default-src 'none'",
    `script-src ${relayUrl}`,
    `style-src ${sources['style-src']}`,
    `connect-src ${relayUrl}`,
    `font-src ${relayUrl}`,
    "base-uri 'none'",
  ].join('; ');
}

/** A page of the site holding the relay's iframe page of two symbols. */
function framePage(servers: Servers, path: string): string {
  const src = `${relay.url}/embed.html?symbols=usd,eur&amp;chart=none`;
  return servers.site.page(
    path,
    htmlPage(`<iframe id="board" src="${src}" title="قیمت" width="600" height="300"></iframe>`),
  );
}

test('the relay’s embed.html in a frame of another origin shows prices with JavaScript disabled', async ({
  browser,
  servers,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, locale: 'fa-IR', timezoneId: 'Asia/Tehran' });
  try {
    const page = await context.newPage();
    const url = framePage(servers, '/frame-nojs.html');
    await page.goto(url);
    const frame = page.frameLocator('#board');
    await expect(rows(frame)).toHaveCount(2);
    for (const [symbol, price] of await tomanPrices('usd,eur')) {
      await expect(priceCell(frame, symbol)).toBeVisible();
      await expect(priceCell(frame, symbol)).toContainText(price);
    }
  } finally {
    await context.close();
  }
});

test('with JavaScript disabled a board with a chart shows no empty chart box under its rows; with it, the room is there', async ({
  browser,
  servers,
}) => {
  const fragment = await (await fetch(`${relay.url}/render/price-board?symbols=usd,eur&script=0`)).text();
  expect(fragment).toContain('chart-pending');
  const url = servers.site.page('/chart-nojs.html', htmlPage(`${fragment}<p id="below">زیر تابلو</p>`));
  const below = async (javaScriptEnabled: boolean) => {
    const context = await browser.newContext({ javaScriptEnabled, locale: 'fa-IR', timezoneId: 'Asia/Tehran' });
    try {
      const page = await context.newPage();
      await page.goto(url);
      await expect(rows(page)).toHaveCount(2);
      const pending = page.locator('price-board .chart-pending');
      await expect(pending).toHaveCount(1);
      return {
        pending: await pending.isVisible(),
        boardBottom: await page.locator('price-board').evaluate((el) => el.getBoundingClientRect().bottom),
        rowsBottom: await rows(page)
          .last()
          .evaluate((el) => el.getBoundingClientRect().bottom),
      };
    } finally {
      await context.close();
    }
  };
  const off = await below(false);
  expect(off.pending).toBe(false);
  // The board ends under its rows (its status line, its padding and border): no 300 px box.
  expect(off.boardBottom - off.rowsBottom).toBeLessThan(30);
  // A page that runs scripts keeps the chart's room from the first frame (the element is not defined here).
  const on = await below(true);
  expect(on.pending).toBe(true);
  expect(on.boardBottom - on.rowsBottom).toBeGreaterThan(200);
});

test('with JavaScript the framed board goes live from its render with no /v1/prices request, posting its height', async ({
  page,
  servers,
  problems,
}) => {
  const prices: string[] = [];
  const streams: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path === '/v1/prices') prices.push(request.url());
    if (path === '/v1/stream') streams.push(request.headers()['last-event-id'] ?? '');
  });
  // The frame's messages to this page (the only ones it gets), from before any script runs.
  await page.addInitScript(() => {
    const w = window as unknown as { resizes: unknown[] };
    w.resizes = [];
    addEventListener('message', (event) => w.resizes.push({ origin: event.origin, data: event.data }));
  });
  const url = framePage(servers, '/frame-js.html');
  await page.goto(url);
  const frame = page.frameLocator('#board');
  await expect(frame.locator('price-board [part~="status"]')).toHaveAttribute('data-status', 'live');
  await expect.poll(() => streams.length).toBeGreaterThan(0);
  // The stream resumes from the render's snapshot.
  expect(streams[0]).toMatch(/^\d+$/);
  await setPrice('usd', '12345670');
  await expect(priceCell(frame, 'usd')).toContainText(persianGrouped('1234567'));
  await expect
    .poll(() =>
      page.evaluate(() =>
        (
          window as unknown as { resizes: Array<{ origin: string; data: { type: string; height: number } }> }
        ).resizes.at(-1),
      ),
    )
    .toMatchObject({ origin: relay.url, data: { type: 'price-board:resize', height: expect.any(Number) } });
  expect(prices).toEqual([]);
  expect(problems.all()).toEqual([]);
});

test('a fragment inserted server-side shows its prices under a strict CSP of the published hashes, also live', async ({
  page,
  servers,
  problems,
}) => {
  const policy = await strictPolicy(relay.url);
  // The site's server includes the fragments (script=0: the page loads the modules from the relay).
  const include = async (path: string): Promise<string> => (await fetch(`${relay.url}${path}&script=0`)).text();
  const board = await include('/render/price-board?symbols=usd,eur&chart=none&theme=dark');
  const ticker = await include('/render/price-ticker?symbols=usd,eur');
  const prices: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/v1/prices') prices.push(request.url());
  });
  const url = servers.site.page(
    '/csp-fragment.html',
    htmlPage(
      board + ticker,
      `<script type="module" src="${relay.url}/price-board.js"></script><script type="module" src="${relay.url}/price-ticker.js"></script>`,
    ),
    { 'Content-Security-Policy': policy },
  );
  await page.goto(url);
  const expected = await tomanPrices('usd,eur');
  for (const [symbol, price] of expected) await expect(priceCell(page, symbol)).toContainText(price);
  await expect(page.locator('price-board [part~="status"]')).toHaveAttribute('data-status', 'live');
  await expect(page.locator('price-ticker [part~="item"]').first()).toBeVisible();
  await setPrice('eur', '23456780');
  await expect(priceCell(page, 'eur')).toContainText(persianGrouped('2345678'));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  expect(prices).toEqual([]);
  expect(problems.cspViolations).toEqual([]);
  expect(problems.all()).toEqual([]);
});

test('a fragment with a symbol the service does not have goes live asking nothing for it', async ({
  page,
  servers,
  problems,
}) => {
  const fragment = await (
    await fetch(`${relay.url}/render/price-board?symbols=usd,nosuchcoin,eur&chart=none&script=0`)
  ).text();
  const prices: string[] = [];
  const streams: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/v1/prices') prices.push(request.url());
    if (url.pathname === '/v1/stream') streams.push(url.searchParams.get('symbols') ?? '');
  });
  const url = servers.site.page(
    '/unknown-fragment.html',
    htmlPage(fragment, `<script type="module" src="${relay.url}/price-board.js"></script>`),
  );
  await page.goto(url);
  await expect(page.locator('price-board [part~="status"]')).toHaveAttribute('data-status', 'live');
  await setPrice('usd', '11223340');
  await expect(priceCell(page, 'usd')).toContainText(persianGrouped('1122334'));
  expect(await rows(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-symbol')))).toEqual([
    'usd',
    'eur',
  ]);
  expect(prices).toEqual([]);
  expect(streams).toHaveLength(1);
  expect(streams[0]!.split(',')).not.toContain('nosuchcoin');
  expect(problems.all()).toEqual([]);
});

test('a fragment with its own script paints its rows before the widget’s module runs, which then takes over and goes live', async ({
  page,
  servers,
  problems,
}) => {
  // A relay whose public address is its own: the fragment's script and preload point at it.
  const port = await freePort();
  const own = await startRelayOnSandbox('basic-key:e2e-relay-render-takeover', {
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  try {
    const fragment = await (await fetch(`${own.relay.url}/render/price-board?symbols=usd,eur&chart=none`)).text();
    const policy = await strictPolicy(own.relay.url);
    const prices: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/v1/prices') prices.push(request.url());
    });
    // Each animation frame's callbacks run before that frame is rendered: one that finds the rows
    // parsed and the element not yet defined is followed by a frame showing them before the module ran.
    await page.addInitScript(() => {
      const frames: Array<{ rows: number; defined: boolean }> = [];
      (window as unknown as { __frames: typeof frames }).__frames = frames;
      const tick = () => {
        const rows = document.querySelector('price-board')?.shadowRoot?.querySelectorAll('[part~="row"]').length ?? 0;
        frames.push({ rows, defined: customElements.get('price-board') !== undefined });
        if (!frames.some((f) => f.defined)) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const url = servers.site.page('/takeover-fragment.html', htmlPage(fragment), { 'Content-Security-Policy': policy });
    // A visitor's second page: the module is cached, ready before the rows are parsed.
    await page.goto(url);
    await expect(page.locator('price-board [part~="status"]')).toHaveAttribute('data-status', 'live');
    await page.goto(url);
    await expect(page.locator('price-board [part~="status"]')).toHaveAttribute('data-status', 'live');
    await setPriceOn(own.sandbox, 'eur', '23456780');
    await expect(priceCell(page, 'eur')).toContainText(persianGrouped('2345678'));
    const frames = await page.evaluate(
      () => (window as unknown as { __frames: Array<{ rows: number; defined: boolean }> }).__frames,
    );
    expect(frames.filter((f) => f.rows === 2 && !f.defined).length).toBeGreaterThan(0);
    expect(prices).toEqual([]);
    expect(problems.cspViolations).toEqual([]);
    expect(problems.all()).toEqual([]);
  } finally {
    await own.close();
  }
});

test('takeover.js loads the widget’s module at once on a hidden page, and says so when its query names no widget', async ({
  page,
  servers,
  problems,
}) => {
  // A page in a background tab: hidden, and it renders no frame (its animation frames never come).
  await page.addInitScript(() => {
    Object.defineProperty(document, 'visibilityState', { get: () => 'hidden' });
    window.requestAnimationFrame = () => 0;
  });
  const url = servers.site.page(
    '/takeover-hidden.html',
    htmlPage(`<script type="module" src="${relay.url}/assets/takeover.js?price-ticker"></script>`),
  );
  await page.goto(url);
  await page.waitForFunction(() => customElements.get('price-ticker') !== undefined, undefined, {
    polling: 50,
    timeout: 10_000,
  });
  expect(problems.all()).toEqual([]);

  await page.goto(
    servers.site.page(
      '/takeover-nothing.html',
      htmlPage(`<script type="module" src="${relay.url}/assets/takeover.js?price-bord"></script>`),
    ),
  );
  await expect.poll(() => problems.consoleErrors.join('\n')).toContain('takeover.js names no widget ("?price-bord")');
  expect(await page.evaluate(() => customElements.get('price-board'))).toBeUndefined();
});
