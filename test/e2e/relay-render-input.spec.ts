/**
 * A fragment of a query with configuration mistakes, in real Chromium (DESIGN.md §9, §13): it paints
 * what the element would for the same attributes, and the element takes it over asking nothing.
 * - `symbols=usd,gold-18` (a piece that is no id): the usd row alone, with JavaScript off and on,
 *   in a fragment and in the relay's embed.html; no `/v1/prices` request.
 * - `symbols=btc` (every symbol unknown, the default chart): no request at all, nothing below the
 *   board moves, and it ends as the client-only board of the same symbols ends.
 */
import type { Page } from '@playwright/test';
import type { Relay } from '../../relay/server';
import { expect, htmlPage, recordWarnings, rows, test } from './support/fixtures';
import { startRelayOnSandbox, type RelayOnSandbox } from './support/servers';

let started: RelayOnSandbox;
let relay: Relay;

test.beforeAll(async () => {
  ({ relay } = started = await startRelayOnSandbox('basic-key:e2e-relay-render-input'));
});
test.afterAll(async () => {
  await started.close();
});

/** A fragment of the relay for `query`, without its script (the page loads the module). */
async function fragment(widget: string, query: string): Promise<string> {
  return (await fetch(`${relay.url}/render/${widget}?${query}&script=0`)).text();
}

const moduleScript = (): string => `<script type="module" src="${relay.url}/price-board.js"></script>`;

/** From now on, the page's requests to the relay's `/v1/` (path and query). */
function apiRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/')) seen.push(url.pathname + url.search);
  });
  return seen;
}

test('a symbols list with a piece that is no id paints the usd row alone, with JavaScript off and on, asking no /v1/prices', async ({
  browser,
  page,
  servers,
  problems,
}) => {
  const query = 'symbols=usd,gold-18&chart=none';
  const body =
    `<div id="fragment">${await fragment('price-board', query)}</div>` +
    `<iframe id="frame" src="${relay.url}/embed.html?${query.replace('&', '&amp;')}" title="قیمت" width="600" height="300"></iframe>`;
  const url = servers.site.page('/input-symbols.html', htmlPage(body, moduleScript()));
  const context = await browser.newContext({ javaScriptEnabled: false, locale: 'fa-IR', timezoneId: 'Asia/Tehran' });
  try {
    const still = await context.newPage();
    await still.goto(url);
    for (const scope of [still.locator('#fragment'), still.frameLocator('#frame')]) {
      await expect(rows(scope)).toHaveCount(1);
      await expect(rows(scope).first()).toHaveAttribute('data-symbol', 'usd');
    }
  } finally {
    await context.close();
  }
  const requests = apiRequests(page);
  await page.goto(url);
  const frame = page.frameLocator('#frame');
  for (const scope of [page.locator('#fragment'), frame]) {
    await expect(scope.locator('price-board [part~="status"]')).toHaveAttribute('data-status', 'live');
    await expect(rows(scope)).toHaveCount(1);
  }
  expect(requests.filter((path) => path.startsWith('/v1/prices'))).toEqual([]);
  expect(problems.all()).toEqual([]);
});

/**
 * Opens `url` and waits until its board has said its symbols are unknown (`console.warn`), says
 * `polling` and has rendered since, two frames after: the y of `#below` at each frame from the
 * start, and the board's parts, status and symbols.
 */
async function settle(page: Page, url: string, warnings: string[]) {
  await page.addInitScript(() => {
    const ys: number[] = [];
    (window as unknown as { __ys: number[] }).__ys = ys;
    const tick = () => {
      const below = document.getElementById('below');
      if (below) ys.push(below.getBoundingClientRect().y);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.goto(url);
  await expect.poll(() => warnings.join('\n')).toContain('unknown_symbol');
  await expect(page.locator('price-board [part~="status"]')).toHaveAttribute('data-status', 'polling');
  return page.evaluate(async () => {
    const board = document.querySelector('price-board') as HTMLElement & { updateComplete: Promise<unknown> };
    await board.updateComplete;
    await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const root = board.shadowRoot!;
    return {
      ys: [...new Set((window as unknown as { __ys: number[] }).__ys)],
      parts: [...root.querySelectorAll('[part]')].map((el) => el.getAttribute('part')),
      status: root.querySelector('[part~="status"]')!.getAttribute('data-status'),
      symbols: board.getAttribute('symbols'),
    };
  });
}

test('every symbol unknown: the takeover asks nothing, moves nothing below the board, and ends as the client-only board', async ({
  browser,
  page,
  servers,
  problems,
}) => {
  const below = '<p id="below">بعد از تابلو</p>';
  const url = servers.site.page(
    '/input-unknown.html',
    htmlPage(`${await fragment('price-board', 'symbols=btc')}${below}`, moduleScript()),
  );
  const requests = apiRequests(page);
  const warnings = recordWarnings(page);
  const taken = await settle(page, url, warnings);
  expect(requests).toEqual([]);
  expect(taken.ys).toHaveLength(1);
  expect(taken.symbols).toBe('btc');
  expect(problems.all()).toEqual([]);

  // The same board rendered in the browser alone (it asks, is told 404, and settles).
  const client = await browser.newPage();
  try {
    const plain = servers.site.page(
      '/input-unknown-client.html',
      htmlPage(`<price-board symbols="btc"></price-board>${below}`, moduleScript()),
    );
    const end = await settle(client, plain, recordWarnings(client));
    // Where it ends: the same parts, status and room (its own start moved: it had no rows yet).
    expect({ ...taken, ys: taken.ys.at(-1) }).toEqual({ ...end, ys: end.ys.at(-1) });
  } finally {
    await client.close();
  }
});
