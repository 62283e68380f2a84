/**
 * One stream per browser, not per tab (DESIGN.md §6, §12): the pages of one browser context are
 * the tabs of one browser. The sandbox here is this file's own, so its counters are this test's.
 */
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { chromiumPath, CHROMIUM_ARGS } from '../../scripts/chromium.mjs';
import { startSandbox } from '../../sandbox/server';
import type { SandboxStats } from '../../sandbox/stats';
import type { Quote } from '../../src/shared/types';
import { expect, htmlPageFor, test } from './support/fixtures';

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
let sandbox: Sandbox;

test.beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', market: 'open', tickMs: 0 });
});
test.afterAll(() => sandbox.close());

async function stats(): Promise<SandboxStats> {
  return (await (await fetch(`${sandbox.url}/__sandbox/stats`)).json()) as SandboxStats;
}

async function streamRequests(key: string): Promise<SandboxStats['requests']> {
  return (await stats()).requests.filter((r) => r.path === '/v1/stream' && r.key === key);
}

/** Sets one price; the sandbox publishes it as one stream event with the next id. */
async function setPrice(symbol: string, price: string): Promise<void> {
  const response = await fetch(`${sandbox.url}/__sandbox/market`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ set: [{ symbol, price }] }),
  });
  expect(response.ok).toBe(true);
}

/** The service's latest prices of `symbols`, as a new visitor would get them. */
async function servicePrices(key: string, symbols: string[]): Promise<Record<string, string>> {
  const response = await fetch(`${sandbox.url}/v1/prices?symbols=${symbols.join(',')}`, {
    headers: { 'X-API-Key': key },
  });
  const body = (await response.json()) as { data: { quotes: Quote[] } };
  return Object.fromEntries(body.data.quotes.map((q) => [q.symbol, q.price]));
}

/** The id of the service's latest event: the id of the snapshot a new stream (of another key) starts with. */
async function latestEventId(): Promise<string> {
  const stop = new AbortController();
  const response = await fetch(`${sandbox.url}/v1/stream?symbols=usd`, {
    headers: { 'X-API-Key': 'pro-key:tabs-probe' },
    signal: stop.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before an id: ${text}`);
      text += value;
      const id = /^id: ?(.*)$/m.exec(text);
      if (id) return id[1]!;
    }
  } finally {
    stop.abort();
  }
}

/** A tab: a page of the context with one board; it records every quote its board applies. */
/** A new tab at `url`; `watch` is given the page before it loads (so that it sees every request). */
async function openTab(
  context: BrowserContext,
  url: string,
  init?: () => void,
  watch?: (page: Page) => void,
): Promise<Page> {
  const page = await context.newPage();
  watch?.(page);
  if (init) await page.addInitScript(init);
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __seen: string[] }).__seen = seen;
    document.addEventListener('price-board-quotes', (event) => {
      for (const q of (event as CustomEvent<{ quotes: Quote[] }>).detail.quotes) seen.push(`${q.symbol}=${q.price}`);
    });
  });
  await page.goto(url);
  return page;
}

const status = (page: Page) => page.locator('price-board [part~="status"]').getAttribute('data-status');
const boardPrices = (page: Page) =>
  page.evaluate(() => {
    const board = document.querySelector('price-board') as unknown as { quotes: ReadonlyMap<string, Quote> };
    return Object.fromEntries([...board.quotes.values()].map((q) => [q.symbol, q.price]));
  });
const seen = (page: Page) => page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);

function boardPage(servers: Parameters<typeof htmlPageFor>[0], key: string, symbols: string): string {
  return htmlPageFor(
    servers,
    `<price-board api-key="${key}" base-url="${sandbox.url}" symbols="${symbols}" stream="sse" chart="none"></price-board>`,
  );
}

test('5 tabs of one site with boards: 1 stream connection at the service', async ({ context, servers, key }) => {
  const url = servers.site.page('/tabs-five.html', boardPage(servers, key, 'usd,eur,gbp'));
  const tabs: Page[] = [];
  for (let i = 0; i < 5; i++) tabs.push(await openTab(context, url));
  for (const tab of tabs) await expect.poll(() => status(tab)).toBe('live');

  await setPrice('eur', '1357913');
  for (const tab of tabs) await expect.poll(async () => (await boardPrices(tab)).eur).toBe('1357913');
  expect((await streamRequests(key)).length).toBe(1);
  // (The service's count is of every test's streams: one that an earlier test's page closed may not have ended yet.)
  await expect.poll(async () => (await stats()).openStreams).toBe(1);
});

test('closing the leading tab: another leads within 2 s, resumes by Last-Event-ID, and no change is missed', async ({
  context,
  servers,
  key,
}) => {
  // Different symbols per tab: the leader streams their union.
  const symbols = ['usd,eur,gbp', 'usd,eur,aed', 'gbp,try', 'usd,aed,try'];
  const all = ['usd', 'eur', 'gbp', 'aed', 'try'];
  const resumedFrom = new Map<Page, string | undefined>();
  const tabs: Page[] = [];
  for (const [i, list] of symbols.entries()) {
    const tab = await openTab(
      context,
      servers.site.page(`/tabs-takeover-${i}.html`, boardPage(servers, key, list)),
      undefined,
      (page) =>
        page.on('request', (request) => {
          if (new URL(request.url()).pathname === '/v1/stream')
            resumedFrom.set(page, request.headers()['last-event-id']);
        }),
    );
    tabs.push(tab);
  }
  for (const tab of tabs) await expect.poll(() => status(tab)).toBe('live');
  await expect
    .poll(async () =>
      new URL((await streamRequests(key)).at(-1)!.url, sandbox.url).searchParams.get('symbols')?.split(',').sort(),
    )
    .toEqual([...all].sort());
  // A change every tab has seen before the leader goes.
  await setPrice('usd', '4000001');
  for (const [i, tab] of tabs.entries())
    if (symbols[i]!.includes('usd')) await expect.poll(async () => (await boardPrices(tab)).usd).toBe('4000001');

  const lastId = await latestEventId();
  // Only the leading tab has asked for a stream.
  const leaders = tabs.filter((t) => resumedFrom.has(t));
  expect(leaders).toHaveLength(1);
  const leader = leaders[0]!;
  const others = tabs.filter((t) => t !== leader);
  resumedFrom.clear();
  // The next stream is answered 1.5 s late: changes made meanwhile happen while no tab is connected.
  const held = 1_500;
  const faults = await fetch(`${sandbox.url}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ rules: [{ path: '/v1/stream', key, kind: 'slow', delayMs: held, count: 1 }] }),
  });
  expect(faults.ok).toBe(true);
  const before = (await streamRequests(key)).length;
  const closedAt = Date.now();
  await leader.close();

  // Changes while the lead passes, one per symbol (the board applies at most one batch a frame).
  const changes: [string, string][] = [
    ['gbp', '5000001'],
    ['aed', '6000001'],
    ['try', '7000001'],
    ['eur', '8000001'],
    ['usd', '4000002'],
  ];
  for (const [symbol, price] of changes) await setPrice(symbol, price);
  const changedAt = Date.now();

  await expect.poll(async () => (await streamRequests(key)).length).toBe(before + 1);
  const takeover = (await streamRequests(key)).at(-1)!;
  const tookMs = Date.parse(takeover.at) - closedAt;
  console.log(`takeover: new stream ${tookMs} ms after the leading tab closed`);
  expect(tookMs).toBeLessThan(2_000);
  // The changes were all made before that stream was answered.
  expect(changedAt).toBeLessThan(Date.parse(takeover.at) + held);
  const newLeader = others.find((t) => resumedFrom.has(t));
  expect(newLeader).toBeDefined();
  // Resumed from the last event it saw, not started afresh: the one before the leader went, or a
  // later one when the closing tab still passed on a change or two (its page may run for a moment
  // after \`close()\` returns, as CI saw); the changes below must then all have reached the boards.
  expect(Number(resumedFrom.get(newLeader!))).toBeGreaterThanOrEqual(Number(lastId));
  expect(Number(resumedFrom.get(newLeader!))).toBeLessThanOrEqual(Number(await latestEventId()));

  for (const [i, tab] of tabs.entries()) {
    if (tab === leader) continue;
    const mine = symbols[i]!.split(',');
    await expect.poll(() => boardPrices(tab)).toEqual(await servicePrices(key, mine));
    // Every change of its symbols reached the board as applied quotes.
    const expected = changes.filter(([s]) => mine.includes(s)).map(([s, p]) => `${s}=${p}`);
    expect((await seen(tab)).filter((x) => expected.includes(x)).sort()).toEqual([...expected].sort());
  }
  await expect.poll(async () => (await stats()).openStreams).toBe(1);
  expect((await streamRequests(key)).length).toBe(before + 1);
});

test('a frozen leading tab is replaced; woken, it follows', async ({ context, servers, key }) => {
  const url = servers.site.page('/tabs-frozen.html', boardPage(servers, key, 'usd,eur'));
  const asked = new Set<Page>();
  const tabs: Page[] = [];
  for (let i = 0; i < 3; i++) {
    const tab = await openTab(context, url, undefined, (page) =>
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/v1/stream') asked.add(page);
      }),
    );
    tabs.push(tab);
  }
  for (const tab of tabs) await expect.poll(() => status(tab)).toBe('live');
  await setPrice('usd', '1111112');
  for (const tab of tabs) await expect.poll(async () => (await boardPrices(tab)).usd).toBe('1111112');
  expect(asked.size).toBe(1);
  const leader = [...asked][0]!;
  asked.clear();

  // Frozen (paused in the debugger at its next task): no task runs; its lock and connection stay.
  const cdp = await context.newCDPSession(leader);
  await cdp.send('Debugger.enable');
  await cdp.send('Debugger.pause');
  const frozenAt = Date.now();
  // A follower finds it silent, takes the lock and streams.
  await expect.poll(() => asked.size, { timeout: 30_000 }).toBe(1);
  console.log(`frozen leader: a follower streams ${Date.now() - frozenAt} ms after the freeze`);
  const others = tabs.filter((t) => t !== leader);
  await setPrice('usd', '1111113');
  for (const tab of others) await expect.poll(async () => (await boardPrices(tab)).usd).toBe('1111113');

  await cdp.send('Debugger.resume');
  // Woken, it has lost the lock: it closes its stream and follows the new leader.
  await expect.poll(async () => (await stats()).openStreams).toBe(1);
  await setPrice('usd', '1111114');
  for (const tab of tabs) await expect.poll(async () => (await boardPrices(tab)).usd).toBe('1111114');
  expect(asked.has(leader)).toBe(false);
});

test('without BroadcastChannel each tab still shows live prices on a stream of its own', async ({
  context,
  servers,
  key,
}) => {
  const url = servers.site.page('/tabs-no-channel.html', boardPage(servers, key, 'usd,eur'));
  const noChannel = () => {
    // @ts-expect-error: a browser without BroadcastChannel
    delete window.BroadcastChannel;
  };
  const tabs = [await openTab(context, url, noChannel), await openTab(context, url, noChannel)];
  for (const tab of tabs) await expect.poll(() => status(tab)).toBe('live');
  await setPrice('usd', '9090909');
  for (const tab of tabs) await expect.poll(async () => (await boardPrices(tab)).usd).toBe('9090909');
  expect((await streamRequests(key)).length).toBe(2);
});

test('a leading tab whose page cannot open the stream (its CSP) hands the lead to a tab that can', async ({
  context,
  servers,
  key,
}) => {
  // The first tab's site allows the prices request but not the stream (a connect-src with paths).
  const blocked = servers.site.page('/tabs-csp-blocked.html', boardPage(servers, key, 'usd,eur'), {
    'Content-Security-Policy': `connect-src ${sandbox.url}/v1/prices`,
  });
  const open = servers.site.page('/tabs-csp-open.html', boardPage(servers, key, 'usd,gbp'));
  const first = await openTab(context, blocked);
  await expect(first.locator('price-board [part~="row"]')).toHaveCount(2);
  // It leads and cannot connect: no stream reaches the service, and its board says so.
  await expect.poll(() => status(first)).toMatch(/^(reconnecting|offline)$/);
  expect(await streamRequests(key)).toEqual([]);

  const second = await openTab(context, open);
  for (const tab of [first, second]) await expect.poll(() => status(tab)).toBe('live');
  await setPrice('usd', '2468024');
  for (const tab of [first, second]) await expect.poll(async () => (await boardPrices(tab)).usd).toBe('2468024');
  // One stream, the second tab's, for both tabs' symbols.
  const streams = await streamRequests(key);
  expect(streams).toHaveLength(1);
  expect(new URL(streams[0]!.url, sandbox.url).searchParams.get('symbols')?.split(',').sort()).toEqual([
    'eur',
    'gbp',
    'usd',
  ]);
});

test('a tab that adds and removes boards without pause: the shared stream is reopened at most every 2 s', async ({
  context,
  servers,
  key: proKey,
}) => {
  // A plan that allows the busy tab's prices requests (one per board it mounts): only the stream is looked at.
  const key = proKey.replace(/^pro-key/, 'enterprise-key');
  const steady = await openTab(context, servers.site.page('/tabs-steady.html', boardPage(servers, key, 'usd')));
  await expect.poll(() => status(steady)).toBe('live');
  const busy = await openTab(context, servers.site.page('/tabs-busy.html', boardPage(servers, key, 'eur')));
  await expect.poll(() => status(busy)).toBe('live');
  const before = (await streamRequests(key)).length;
  // For 4 s the second tab mounts a board of another symbol, and removes it in the frame after it
  // shows its price (or an error), then mounts the next.
  const churn = busy.evaluate(
    async ({ base, apiKey }) => {
      const symbols = ['gbp', 'aed', 'try', 'gold_18', 'coin_emami', 'cny', 'chf'];
      const until = Date.now() + 4_000;
      for (let i = 0; Date.now() < until; i++) {
        const board = document.createElement('price-board');
        Object.entries({
          'api-key': apiKey,
          'base-url': base,
          symbols: symbols[i % symbols.length]!,
          stream: 'sse',
          chart: 'none',
        }).forEach(([name, value]) => board.setAttribute(name, value));
        const shown = new Promise((resolve) => {
          board.addEventListener('price-board-quotes', resolve, { once: true });
          board.addEventListener('price-board-error', resolve, { once: true });
        });
        document.body.append(board);
        await shown;
        await new Promise((resolve) => requestAnimationFrame(resolve));
        board.remove();
      }
    },
    { base: sandbox.url, apiKey: key },
  );
  // Meanwhile the steady tab's board keeps getting every change.
  for (let i = 1; i <= 5; i++) {
    await setPrice('usd', `135790${i}`);
    await expect.poll(async () => (await boardPrices(steady)).usd).toBe(`135790${i}`);
  }
  await churn;
  const reopened = (await streamRequests(key)).slice(before - 1).map((r) => Date.parse(r.at));
  expect(reopened.length).toBeGreaterThan(1);
  // A reopen comes 2 s after the connection it replaces was made, or later (less a little for the network).
  for (const [i, at] of reopened.slice(1).entries()) expect(at - reopened[i]!).toBeGreaterThan(1_800);
  expect((await streamRequests(key)).filter((r) => r.status !== 200)).toEqual([]);
});

/**
 * Chrome keeps pages in its back/forward cache (Playwright's Chromium does not, unless asked); a
 * cached page runs nothing. `caching`: its context, pages that may be cached, and a page to go away to.
 */
interface CachingBrowser {
  context: BrowserContext;
  page: (path: string, html: string) => string;
  away: string;
}

const bfcacheTest = test.extend<{ caching: CachingBrowser }>({
  caching: async ({ servers }, use) => {
    const browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
      ignoreDefaultArgs: ['--disable-back-forward-cache'],
    });
    const cacheable = { 'Cache-Control': 'max-age=0' };
    await use({
      context: await browser.newContext(),
      page: (path, html) => servers.site.page(path, html, cacheable),
      away: servers.site.page('/tabs-bfcache-away.html', '<!doctype html><title>away</title><p>away</p>', cacheable),
    });
    await browser.close();
  },
});

/** A page kept in the cache comes back with its script's state (a new load would not have the mark). */
const markKept = (page: Page) => page.evaluate(() => ((window as { kept?: boolean }).kept = true));
const kept = (page: Page) => page.evaluate(() => (window as { kept?: boolean }).kept === true);

bfcacheTest(
  'a tab that goes into the back/forward cache lets another lead at once, and comes back from it following, leader or not',
  async ({ servers, key, caching: { context, page, away } }) => {
    const url = page('/tabs-bfcache.html', boardPage(servers, key, 'usd,eur'));
    const asked = new Map<Page, number>();
    const tabs: Page[] = [];
    for (let i = 0; i < 3; i++) {
      tabs.push(
        await openTab(context, url, undefined, (page) =>
          page.on('request', (request) => {
            if (new URL(request.url()).pathname === '/v1/stream') asked.set(page, (asked.get(page) ?? 0) + 1);
          }),
        ),
      );
    }
    for (const tab of tabs) await expect.poll(() => status(tab)).toBe('live');
    expect(asked.size).toBe(1);
    const leader = [...asked.keys()][0]!;
    const others = tabs.filter((t) => t !== leader);
    const before = (await streamRequests(key)).length;

    for (const tab of tabs) await markKept(tab);

    const leftAt = Date.now();
    await leader.goto(away);
    await expect.poll(async () => (await streamRequests(key)).length).toBeGreaterThan(before);
    const tookMs = Date.parse((await streamRequests(key))[before]!.at) - leftAt;
    console.log(`back/forward cache: another tab streams ${tookMs} ms after the leader left`);
    expect(tookMs).toBeLessThan(2_000);
    await setPrice('usd', '3141592');
    for (const tab of others) await expect.poll(async () => (await boardPrices(tab)).usd).toBe('3141592');

    // Back from the cache (its channel closed while there, so no message of the new leader evicted
    // it), it follows: the leader's latest prices at once, then the next change.
    await leader.goBack({ waitUntil: 'commit' });
    expect(await kept(leader)).toBe(true);
    await expect.poll(async () => (await boardPrices(leader)).usd).toBe('3141592');
    await setPrice('usd', '3141593');
    for (const tab of tabs) await expect.poll(async () => (await boardPrices(tab)).usd).toBe('3141593');
    // A follower goes into the cache and comes back the same way.
    const follower = others.find((tab) => tab !== [...asked.keys()][1])!;
    await follower.goto(away);
    await setPrice('usd', '3141594');
    await follower.goBack({ waitUntil: 'commit' });
    expect(await kept(follower)).toBe(true);
    for (const tab of tabs) await expect.poll(async () => (await boardPrices(tab)).usd).toBe('3141594');
    await expect.poll(async () => (await stats()).openStreams).toBe(1);
    // The pages asked for two streams in all: the first leader's and the next one's. (The service
    // may log one more: Chromium, seldom, sends a page's request again on a new connection around
    // a page going into its cache, and drops the first a few seconds later.)
    expect([...asked.values()].reduce((a, b) => a + b)).toBe(2);
    expect(asked.get(leader)).toBe(1);
  },
);

bfcacheTest(
  'a page back from the back/forward cache shows the current prices at once, of its own symbols too',
  async ({ servers, key, caching: { context, page, away } }) => {
    const prices = new Map<Page, number>();
    const watch = (tab: Page) =>
      tab.on('request', (request) => {
        if (new URL(request.url()).pathname === '/v1/prices') prices.set(tab, (prices.get(tab) ?? 0) + 1);
      });
    const leader = await openTab(
      context,
      page('/tabs-back-a.html', boardPage(servers, key, 'usd,eur')),
      undefined,
      watch,
    );
    await expect.poll(() => status(leader)).toBe('live');
    // gbp is followed by this tab alone: the leader's stream carries it for this tab only.
    const own = await openTab(context, page('/tabs-back-b.html', boardPage(servers, key, 'usd,gbp')), undefined, watch);
    await expect.poll(() => status(own)).toBe('live');
    await setPrice('gbp', '2718281');
    await expect.poll(async () => (await boardPrices(own)).gbp).toBe('2718281');
    await markKept(own);
    const asked = prices.get(own);

    await own.goto(away);
    await setPrice('gbp', '2718282');
    await setPrice('usd', '1414213');
    await expect.poll(async () => (await boardPrices(leader)).usd).toBe('1414213');
    await own.goBack({ waitUntil: 'commit' });
    expect(await kept(own)).toBe(true);
    // What changed while it was away shows without waiting for the next change.
    await expect.poll(async () => boardPrices(own)).toEqual({ usd: '1414213', gbp: '2718282' });
    expect(await status(own)).toBe('live');
    // It cost one /v1/prices request (a new load would have loaded the module, the prices and a stream).
    expect(prices.get(own)).toBe(asked! + 1);
    await setPrice('gbp', '2718283');
    await expect.poll(async () => (await boardPrices(own)).gbp).toBe('2718283');
  },
);
