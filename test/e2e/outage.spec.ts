/**
 * Back to live after an outage (stream="auto", the default): the service answers 503 to
 * everything for a while (the stream dropped and refused, polls failing), then comes back. The
 * board falls back to polling, says so honestly while polls fail, and is live again over a real
 * stream within a minute of the service's return, not after the five minutes of the no-stream
 * retry.
 */
import type { Page } from '@playwright/test';
import { expect, htmlPageFor, sandboxBase, test, type Servers } from './support/fixtures';

/** The statuses the page's boards have fired so far (recorded from the next load on). */
async function recordStatuses(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const w = window as unknown as { __statuses: string[] };
    w.__statuses = [];
    document.addEventListener('price-board-status', (e) =>
      w.__statuses.push((e as CustomEvent<{ status: string }>).detail.status),
    );
  });
  return () => page.evaluate(() => (window as unknown as { __statuses: string[] }).__statuses);
}

async function requests(servers: Servers, key: string, path: string) {
  const stats = (await (await fetch(`${sandboxBase(servers)}/__sandbox/stats`)).json()) as {
    requests: { key: string; path: string; status: number | null }[];
  };
  return stats.requests.filter((r) => r.key === key && r.path === path);
}

async function setFaults(servers: Servers, rules: unknown[]): Promise<void> {
  const response = await fetch(`${sandboxBase(servers)}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ rules }),
  });
  expect(response.ok).toBe(true);
}

/** A board on its own page, live; returns the reader of its statuses. */
async function liveBoard(page: Page, servers: Servers, key: string): Promise<() => Promise<string[]>> {
  const statuses = await recordStatuses(page);
  const board = `<price-board api-key="${key}" base-url="${sandboxBase(servers)}" symbols="usd,eur" chart="none"></price-board>`;
  await page.goto(servers.site.page(`/outage-${key}.html`, htmlPageFor(servers, board)));
  await expect.poll(async () => (await statuses()).at(-1)).toBe('live');
  return statuses;
}

/** Refuses `path` (every /v1 path by default) to the key and drops its open stream; waits for the fallback to polling. */
async function outage(servers: Servers, key: string, statuses: () => Promise<string[]>, path?: string): Promise<void> {
  await setFaults(servers, [{ key, kind: 'status', status: 503, ...(path ? { path } : {}) }]);
  const streamsBefore = (await requests(servers, key, '/v1/stream')).length;
  servers.sandbox.sandbox.streams.closeAll();
  // Three refused connections in a row: the board falls back to polling.
  await expect.poll(async () => (await statuses()).at(-1), { timeout: 30_000 }).toBe('polling');
  expect((await requests(servers, key, '/v1/stream')).length).toBeGreaterThanOrEqual(streamsBefore + 3);
}

/** Ends the outage; the board is live again within 60 s, over a stream the service answered. */
async function backLive(page: Page, servers: Servers, key: string, statuses: () => Promise<string[]>): Promise<void> {
  await setFaults(servers, []);
  const backAt = Date.now();
  await expect.poll(async () => (await statuses()).at(-1), { timeout: 60_000 }).toBe('live');
  expect(Date.now() - backAt).toBeLessThanOrEqual(60_000);
  expect((await requests(servers, key, '/v1/stream')).at(-1)!.status).toBe(200);
  expect(await page.locator('price-board').evaluate((el) => (el as HTMLElement & { status: string }).status)).toBe(
    'live',
  );
}

test('after its stream is refused for a while, the board is live over a stream again within 60 s', async ({
  page,
  servers,
  key,
}) => {
  test.setTimeout(150_000);
  const statuses = await liveBoard(page, servers, key);
  await outage(servers, key, statuses, '/v1/stream');
  await backLive(page, servers, key, statuses);
});

test('with the service down, polls failing say reconnecting, not polling; back, it is live within 60 s', async ({
  page,
  servers,
  key,
}) => {
  test.setTimeout(180_000);
  const statuses = await liveBoard(page, servers, key);
  await outage(servers, key, statuses);
  // Its polls fail too: it does not say `polling` then (DESIGN.md §2's statuses).
  await expect
    .poll(async () => (await requests(servers, key, '/v1/prices')).some((r) => r.status === 503), { timeout: 45_000 })
    .toBe(true);
  await expect.poll(async () => (await statuses()).at(-1)).toBe('reconnecting');
  await backLive(page, servers, key, statuses);
});
