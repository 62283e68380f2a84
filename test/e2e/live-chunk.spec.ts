/**
 * The live transport (SSE, reconnects, polling) is a chunk of its own, out of the initial module.
 * It must cost nothing in time: its import starts with the first /v1/prices request, and the
 * stream opens without waiting for the prices answer (here held back for 1.5 s).
 */
import { expect, htmlPageFor, priceCell, rows, sandboxBase, test } from './support/fixtures';

test('the transport chunk loads with the first prices request, and the stream opens before prices answer', async ({
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
  let pricesAnswered: number | undefined;
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (/\/assets\/transport-[\w-]+\.js$/.test(path)) first('chunk');
    else if (path === '/v1/prices') first('prices');
    else if (path === '/v1/stream') first('stream');
  });
  const answered = (request: { url(): string }) => {
    if (new URL(request.url()).pathname === '/v1/prices') pricesAnswered ??= Date.now();
  };
  page.on('requestfinished', answered);
  page.on('requestfailed', answered);

  const url = servers.site.page(
    '/live-chunk.html',
    htmlPageFor(
      servers,
      `<price-board api-key="${key}" base-url="${sandboxBase(servers)}" symbols="usd,eur" stream="sse" chart="none"></price-board>`,
    ),
  );
  await page.goto(url);
  await expect(rows(page)).toHaveCount(2);
  await expect(priceCell(page, 'usd')).toHaveText(/[۰-۹]/);
  // The stream's first snapshot fills the rows; the prices answer comes later.
  await expect(page.locator('price-board [part~="status"]')).toHaveAttribute('data-status', 'live');
  await expect.poll(() => pricesAnswered, { timeout: 5_000 }).toBeDefined();

  const prices = started.get('prices');
  const chunk = started.get('chunk');
  const stream = started.get('stream');
  expect({ prices, chunk, stream }).toEqual({
    prices: expect.any(Number),
    chunk: expect.any(Number),
    stream: expect.any(Number),
  });
  // Started together: the chunk's request goes out in the same moment as the prices request...
  expect(Math.abs(chunk! - prices!)).toBeLessThan(500);
  // ...and the stream is open long before the (slow) prices answer.
  expect(stream!).toBeLessThan(pricesAnswered! - 500);
  expect(problems.all()).toEqual([]);
});
