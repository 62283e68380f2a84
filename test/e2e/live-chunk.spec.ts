/**
 * The live data layer (the hub and its driver: prices, SSE, reconnects) is in the initial module,
 * so nothing is waited for: no chunk is asked for before the first /v1/prices request (the board's
 * extras come once its first render is painted), and the stream opens without waiting for the
 * prices answer (here held back for 1.5 s). (It was a chunk of its own, `transport`, imported
 * beside the first request; one module measured smaller: DESIGN.md §6 size, `src/live/driver.ts`.)
 * Polling is a chunk loaded only when polling (tested below).
 */
import {
  boardPageFor,
  expect,
  htmlPageFor,
  priceCell,
  recordErrorCodes,
  rows,
  sandboxBase,
  test,
} from './support/fixtures';

test('no chunk is asked for before the first prices request, and the stream opens before prices answer', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const faults = await fetch(`${sandboxBase(servers)}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ rules: [{ path: '/v1/prices', key, kind: 'slow', delayMs: 1500, count: 1 }] }),
  });
  expect(faults.ok).toBe(true);

  const started = new Map<string, number>();
  const first = (name: string) => {
    if (!started.has(name)) started.set(name, Date.now());
  };
  /** Scripts asked for before the first prices request. */
  const scriptsBefore: string[] = [];
  let pricesAnswered: number | undefined;
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith('.js') && !started.has('prices')) scriptsBefore.push(path.split('/').pop()!);
    else if (path === '/v1/prices') first('prices');
    else if (path === '/v1/stream') first('stream');
  });
  const answered = (request: { url(): string }) => {
    if (new URL(request.url()).pathname === '/v1/prices') pricesAnswered ??= Date.now();
  };
  page.on('requestfinished', answered);
  page.on('requestfailed', answered);

  const url = boardPageFor(servers, key, '/live-chunk.html', 'symbols="usd,eur" stream="sse" chart="none"');
  await page.goto(url);
  await expect(rows(page)).toHaveCount(2);
  await expect(priceCell(page, 'usd')).toHaveText(/[۰-۹]/);
  // The stream's first snapshot fills the rows; the prices answer comes later.
  await expect(page.locator('price-board [part~="status"]')).toHaveAttribute('data-status', 'live');
  await expect.poll(() => pricesAnswered, { timeout: 5_000 }).toBeDefined();

  const prices = started.get('prices');
  const stream = started.get('stream');
  expect({ prices, stream }).toEqual({ prices: expect.any(Number), stream: expect.any(Number) });
  // The element's one module, then the prices request: the data layer is no chunk of its own...
  expect(scriptsBefore).toEqual(['price-board.js']);
  // ...and the stream is open long before the (slow) prices answer.
  expect(stream!).toBeLessThan(pricesAnswered! - 500);
  expect(problems.all()).toEqual([]);
});

test('the polling code is a chunk of its own: a board on the stream never asks for it, stream="poll" loads it and polls', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const scripts: string[] = [];
  let prices = 0;
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.endsWith('.js'))
      scripts.push(
        path
          .split('/')
          .pop()!
          .replace(/-[\w-]{8}\.js$/, ''),
      );
    else if (path === '/v1/prices') prices++;
  });
  const board = (attributes: string) =>
    `<price-board api-key="${key}" base-url="${sandboxBase(servers)}" symbols="usd,eur" chart="none" ${attributes}></price-board>`;
  await page.goto(servers.site.page('/live-stream.html', htmlPageFor(servers, board('stream="auto"'))));
  const status = page.locator('price-board [part~="status"]');
  await expect(status).toHaveAttribute('data-status', 'live');
  await expect(status).toHaveText('زنده'); // the extras are there too
  expect(scripts).not.toContain('poller');

  scripts.length = 0;
  prices = 0;
  await page.goto(servers.site.page('/live-poll.html', htmlPageFor(servers, board('stream="poll" poll-interval="5"'))));
  await expect(status).toHaveAttribute('data-status', 'polling');
  await expect(priceCell(page, 'usd')).toHaveText(/[۰-۹]/);
  // The first request is the hub's own; the poller asks again an interval later.
  await expect.poll(() => prices, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  expect(scripts).toContain('poller');
  expect(problems.all()).toEqual([]);
});

test('when the polling chunk fails to load, the board says so and polls once it loads, an interval later', async ({
  page,
  servers,
  key,
  problems,
}) => {
  let failures = 0;
  await page.route(/\/assets\/poller-[\w-]+\.js$/, async (route) => {
    if (failures === 0) {
      failures++;
      await route.abort('connectionreset');
    } else await route.continue();
  });
  const errorCodes = await recordErrorCodes(page);
  let prices = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/v1/prices') prices++;
  });
  await page.goto(
    boardPageFor(
      servers,
      key,
      '/live-poll-fails.html',
      'symbols="usd,eur" chart="none" stream="poll" poll-interval="5"',
    ),
  );
  await expect(priceCell(page, 'usd')).toHaveText(/[۰-۹]/);
  await expect.poll(() => errorCodes()).toEqual(['network']);
  // Tried again an interval later: it loads, and polls.
  await expect.poll(() => prices, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  await expect(page.locator('price-board [part~="status"]')).toHaveAttribute('data-status', 'polling');
  expect(failures).toBe(1);
  expect(problems.pageErrors).toEqual([]);
});
