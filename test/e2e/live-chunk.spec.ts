/**
 * The live data layer (the hub and its driver: prices, SSE, reconnects, polling) is in the initial
 * module, so nothing is waited for: no chunk is asked for before the first /v1/prices request (the
 * board's extras come once its first render is painted), and the stream opens without waiting for the prices answer (here
 * held back for 1.5 s). (It was a chunk of its own, `transport`, imported beside the first
 * request; one module measured smaller: DESIGN.md §6 size, `src/live/driver.ts`.)
 */
import { expect, htmlPageFor, priceCell, rows, sandboxBase, test } from './support/fixtures';

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
  const stream = started.get('stream');
  expect({ prices, stream }).toEqual({ prices: expect.any(Number), stream: expect.any(Number) });
  // The element's one module, then the prices request: the data layer is no chunk of its own...
  expect(scriptsBefore).toEqual(['price-board.js']);
  // ...and the stream is open long before the (slow) prices answer.
  expect(stream!).toBeLessThan(pricesAnswered! - 500);
  expect(problems.all()).toEqual([]);
});
