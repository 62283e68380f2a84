/**
 * What visitors and site owners see (DESIGN.md section 9, "Visitors get visitor words", "The
 * market state is said"): every widget, by script tag, in embed.html and through the loader, on a
 * public page configured with mistakes (an invalid attribute, unknown symbols), a bad key and a
 * rate limit. Visitors read short Persian words and no Latin id; the developer gets the detail in
 * `price-board-error` and the console. Stale prices are marked in every widget; the status line
 * never says two contradicting things.
 */
import type { Frame, Locator, Page } from '@playwright/test';
import { startSandbox } from '../../sandbox/server';
import { expect, htmlPage, recordWarnings, sandboxBase, test, widgetScripts, type Servers } from './support/fixtures';

const TAGS = ['price-board', 'price-ticker', 'price-converter'] as const;
const VISITOR = 'قیمت‌ها فعلاً در دسترس نیست.';
/** What a visitor must never read: a Latin id or a developer's word (`usd`, `theme`, `gold_18`). */
const LATIN = /[a-z_]{2,}/i;

/** The widgets that mark stale prices themselves (the board says it in its status line). */
const MARKING = ['price-ticker', 'price-converter'] as const;
/** Widgets with prices to show: the board without a chart, the converter with an amount. */
const PRICED = 'symbols="usd,eur" chart="none" amount="2"';

/** The three widgets with `attrs` each (and each widget's own, `extra`). */
function widgets(attrs: string, extra: Partial<Record<(typeof TAGS)[number], string>> = {}): string {
  return TAGS.map((tag) => `<${tag} ${attrs} ${extra[tag] ?? ''}></${tag}>`).join('\n');
}

/** Records every `price-board-error` detail and console warning of the page (its frames' too). */
async function recordDeveloperChannel(page: Page) {
  const warnings = recordWarnings(page);
  await page.addInitScript(() => {
    const w = window as unknown as { errorDetails: unknown[] };
    w.errorDetails = [];
    document.addEventListener('price-board-error', (e) => w.errorDetails.push((e as CustomEvent).detail), true);
  });
  type Detail = { code: string; message: string; status?: number; attribute?: string; symbols?: string[] };
  return {
    warnings,
    details: (frame: Page | Frame = page) =>
      frame.evaluate(() => (window as unknown as { errorDetails: Detail[] }).errorDetails),
  };
}

/**
 * What a visitor reads of a widget: the visible text of its shadow root (the options of its
 * picker included), and its `title` and `aria-label` texts.
 */
function visitorText(widget: Locator): Promise<string> {
  return widget.evaluate((el) => {
    const root = el.shadowRoot!;
    const top = root.querySelector<HTMLElement>('[part~="board"], [part~="ticker"], [part~="converter"]')!;
    const labels = [...root.querySelectorAll('[title], [aria-label]')].map(
      (e) => `${e.getAttribute('title') ?? ''} ${e.getAttribute('aria-label') ?? ''}`,
    );
    const options = [...root.querySelectorAll('option')].map((o) => o.textContent);
    return [top.innerText, ...labels, ...options].join('\n');
  });
}

/** Opens a page of the site at `path` with the three widgets, each with `attrs`. */
async function openWidgets(page: Page, servers: Servers, path: string, attrs: string): Promise<void> {
  await page.goto(servers.site.page(path, htmlPage(widgets(attrs), widgetScripts(servers))));
}

/** Each widget of `scope` has shown a price (the rows' first answer is in). */
async function pricesShown(scope: Pick<Page, 'locator'>): Promise<void> {
  await expect(scope.locator('price-board [part~="row"] [part~="price"]').first()).toHaveText(/^[۰-۹٬٫]+$/);
  await expect(scope.locator('price-ticker [part~="price"]').first()).toHaveText(/[۰-۹]/);
  await expect(scope.locator('price-converter [part~="result"]')).toHaveAttribute('data-state', 'ok');
}

test.afterEach(async ({ servers }) => {
  await fetch(`${sandboxBase(servers)}/__sandbox/faults`, { method: 'DELETE' });
});

test('an invalid attribute and unknown symbols, by script tag, in embed.html and through the loader: the widgets work, visitors read no developer text nor a Latin id; the events and the console carry the detail', async ({
  page,
  servers,
  key,
  base,
  problems,
}) => {
  const channel = await recordDeveloperChannel(page);
  const common = `api-key="${key}" base-url="${base}" symbols="usd,dollar,bitcoin,eur"`;
  const embed = (widget: string, extra: string) =>
    `${servers.cdn.url}embed.html?widget=${widget}&key=${key}&base-url=${base}&symbols=usd,dollar,eur&theme=blue${extra}`;
  const url = servers.site.page(
    '/owner-mistakes.html',
    htmlPage(
      `<div id="tags">${widgets(`${common} theme="blue"`, {
        'price-board': 'chart="none" columns="price,colour"',
        'price-ticker': 'speed="fast"',
        'price-converter': 'amount="2" unit="euro"',
      })}</div>
<iframe id="embed-ticker" src="${embed('ticker', '&speed=fast')}" style="width:100%;height:60px;border:0"></iframe>
<iframe id="embed-converter" src="${embed('converter', '&amount=2')}" style="width:100%;height:200px;border:0"></iframe>
<div id="loaded" data-price-board data-symbols="usd,bitcoin" data-theme="blue" data-chart="none" data-key="${key}" data-base-url="${base}"></div>
<script type="module" src="${servers.cdn.url}embed.js"></script>`,
      widgetScripts(servers),
    ),
  );
  await page.goto(url);
  const tags = page.locator('#tags');
  await pricesShown(tags);
  const scopes: Array<[string, Pick<Page, 'locator'>, readonly string[]]> = [
    ['script tags', tags, TAGS],
    ['embed.html?widget=ticker', page.frameLocator('#embed-ticker'), ['price-ticker']],
    ['embed.html?widget=converter', page.frameLocator('#embed-converter'), ['price-converter']],
    ['the loader', page.frameLocator('#loaded > iframe'), ['price-board']],
  ];
  for (const [where, scope, shown] of scopes) {
    for (const tag of shown) {
      const widget = scope.locator(tag);
      // The known symbols are shown; the unknown ones have no row, item or option.
      await expect(widget.locator('[part~="row"], [part~="item"], option').first()).toBeAttached();
      await expect(widget.locator('[data-symbol="usd"] [part~="title"], option[value="usd"]').first()).toHaveText(
        /[\u0600-\u06ff]/,
      );
      await expect(
        widget.locator('[data-symbol="dollar"], [data-symbol="bitcoin"], option[value="dollar"]'),
      ).toHaveCount(0);
      await expect(widget.locator('[part~="error"]'), `${where}: ${tag} shows no banner`).toHaveCount(0);
      const text = await visitorText(widget);
      expect(text, `${where}: ${tag}`).not.toMatch(LATIN);
      expect(text, `${where}: ${tag}`).not.toContain('نامعتبر');
    }
  }
  // The attributes fell back to their defaults: the board's theme follows the visitor's preference.
  await expect(tags.locator('price-board [part~="board"]')).toHaveAttribute('data-theme', 'auto');
  await expect(tags.locator('price-converter [part~="result"]')).toContainText('تومان');
  // The developer hears of each: the attribute (never its value) and the unknown ids, in the events and once in the console.
  const details = await channel.details();
  const invalid = details.filter((d) => d.code === 'invalid_attribute').map((d) => d.attribute);
  expect(new Set(invalid)).toEqual(new Set(['theme', 'columns', 'speed', 'unit']));
  for (const d of details.filter((d) => d.code === 'invalid_attribute'))
    expect(d.message).not.toMatch(/blue|fast|euro/);
  const unknown = details.filter((d) => d.code === 'unknown_symbol');
  expect(unknown.length).toBeGreaterThanOrEqual(3);
  expect(new Set(unknown.flatMap((d) => d.symbols))).toEqual(new Set(['dollar', 'bitcoin']));
  for (const d of unknown) expect(d.message).toMatch(/[\u0600-\u06ff]/);
  // One warning per mistake in a document (the frames are documents of their own).
  expect(channel.warnings.filter((w) => w.includes('unknown_symbol') && w.includes('dollar')).length).toBeGreaterThan(
    0,
  );
  for (const attribute of ['columns', 'unit'])
    expect(channel.warnings.filter((w) => w.includes('invalid_attribute') && w.includes(attribute))).toHaveLength(1);
  // (The browser logs each 404 of an unknown symbol itself: not the widget's doing.)
  expect([...problems.pageErrors, ...problems.cspViolations]).toEqual([]);
});

test('every symbol unknown: a short neutral Persian message, no ids', async ({ page, servers, key }) => {
  const channel = await recordDeveloperChannel(page);
  await openWidgets(
    page,
    servers,
    '/all-unknown.html',
    `api-key="${key}" base-url="${sandboxBase(servers)}" symbols="dollar,bitcoin"`,
  );
  for (const tag of TAGS) {
    const widget = page.locator(tag);
    await expect(widget.locator('[part~="error"]')).toHaveText(VISITOR);
    expect(await visitorText(widget), tag).not.toMatch(LATIN);
  }
  // Nothing beside it says prices are on their way.
  await expect(page.locator('price-converter [part~="result"]')).not.toContainText('در انتظار');
  await expect(page.locator('price-board [part~="status"]')).not.toContainText('در حال دریافت');
  await expect
    .poll(async () => (await channel.details()).filter((d) => d.code === 'unknown_symbol').length)
    .toBeGreaterThanOrEqual(3);
});

test('a bad key and a rate limit: visitor words in every widget, no Latin id, no plan words, no «waiting» beside a final error; the detail to the developer', async ({
  page,
  servers,
  key,
  base,
}) => {
  const limited = `${key}-limited`;
  // Every request of that key is refused as over the plan's limit.
  const response = await fetch(`${base}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ rules: [{ kind: 'rate_limit', key: limited, retryAfter: 30 }] }),
  });
  expect(response.ok).toBe(true);
  const channel = await recordDeveloperChannel(page);
  const symbols = 'symbols="usd,gold_18" chart="none" amount="2"';
  const url = servers.site.page(
    '/bad-key.html',
    htmlPage(
      `<div id="bad">${widgets(`api-key="not-a-key" base-url="${base}" ${symbols}`)}</div>
<div id="limited">${widgets(`api-key="${limited}" base-url="${base}" ${symbols}`)}</div>`,
      widgetScripts(servers),
    ),
  );
  await page.goto(url);
  for (const [id, code] of [
    ['bad', 'unauthorized'],
    ['limited', 'rate_limited'],
  ] as const) {
    for (const tag of TAGS) {
      const widget = page.locator(`#${id} ${tag}`);
      await expect(widget.locator('[part~="error"]')).toHaveAttribute('data-code', code);
      await expect(widget.locator('[part~="error"]')).toHaveText(VISITOR);
      const text = await visitorText(widget);
      expect(text, `${id}: ${tag}`).not.toMatch(LATIN);
      expect(text, `${id}: ${tag}`).not.toContain('سقف طرح');
    }
  }
  // The key is final: the converter does not wait for a price beside it.
  await expect(page.locator('#bad price-converter [part~="result"]')).not.toContainText('در انتظار');
  const details = await channel.details();
  expect(details.find((d) => d.code === 'rate_limited')?.message).toContain('سقف طرح');
  expect(details.find((d) => d.code === 'unauthorized')?.status).toBe(401);
  await expect.poll(() => channel.warnings.filter((w) => w.includes('rate_limited')).length).toBe(1);
  await expect.poll(() => channel.warnings.filter((w) => w.includes('unauthorized')).length).toBe(1);
});

test('the ticker and the converter mark stale prices while the service is stopped, and offline', async ({
  page,
  servers,
  key,
}) => {
  // A service of this test's own, to stop.
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', market: 'open', tickMs: 0 });
  try {
    const base = new URL(sandbox.url).origin;
    await openWidgets(page, servers, '/stopped.html', `api-key="${key}" base-url="${base}" ${PRICED}`);
    await pricesShown(page);
    const marked = (tag: string) => page.locator(`${tag} .stale`);
    for (const tag of MARKING) await expect(marked(tag)).toHaveCount(0);
    await sandbox.close();
    for (const tag of MARKING) {
      await expect(marked(tag)).toContainText('به‌روز نیستند', { timeout: 30_000 });
      // When they were read: a Tehran time in Persian digits.
      await expect(marked(tag)).toContainText(/[۰-۹]{2}:[۰-۹]{2}/);
      await expect(page.locator(`${tag} [part~="ticker"], ${tag} [part~="converter"]`)).toHaveAttribute(
        'data-stale',
        '',
      );
    }
    // The prices are still shown, marked.
    await expect(page.locator('price-ticker [part~="price"]').first()).toHaveText(/[۰-۹]/);
    await expect(page.locator('price-converter [part~="result"]')).toHaveAttribute('data-state', 'ok');
  } finally {
    await sandbox.close().catch(() => {});
  }
});

test('offline: the ticker and the converter mark their prices at once', async ({ page, context, servers, key }) => {
  await openWidgets(page, servers, '/offline.html', `api-key="${key}" base-url="${sandboxBase(servers)}" ${PRICED}`);
  await pricesShown(page);
  await context.setOffline(true);
  try {
    for (const tag of MARKING) await expect(page.locator(`${tag} .stale`)).toContainText('به‌روز نیستند');
    await expect(page.locator('price-board [part~="status"]')).toHaveAttribute('data-status', 'offline');
  } finally {
    await context.setOffline(false);
  }
  for (const tag of MARKING) await expect(page.locator(`${tag} .stale`)).toHaveCount(0);
});

test('market closed: «بازار بسته» with no live dot beside it', async ({ page, servers, key }) => {
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', market: 'open', tickMs: 0 });
  try {
    const base = new URL(sandbox.url).origin;
    // Every shown quote last changed two hours ago: the market is closed.
    const at = new Date(Date.now() - 120 * 60_000).toISOString();
    await fetch(`${base}/__sandbox/market`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ set: ['usd', 'eur'].map((symbol) => ({ symbol, price: '1000000', updated_at: at })) }),
    });
    await page.goto(
      servers.site.page(
        '/closed.html',
        htmlPage(
          `<price-board api-key="${key}" base-url="${base}" symbols="usd,eur" chart="none"></price-board>`,
          widgetScripts(servers),
        ),
      ),
    );
    const status = page.locator('price-board [part~="status"]');
    await expect(status).toHaveAttribute('data-market', 'closed');
    await expect(status).toContainText('بازار بسته');
    const colours = await status.evaluate((el) => {
      // The board's own up colour, resolved as the browser resolves it.
      const probe = document.createElement('span');
      probe.style.color = getComputedStyle(el).getPropertyValue('--_up');
      document.body.append(probe);
      const up = getComputedStyle(probe).color;
      probe.remove();
      return { up, dot: getComputedStyle(el.querySelector('.dot')!).backgroundColor };
    });
    expect(colours.up).toMatch(/^rgb/);
    expect(colours.dot).not.toBe(colours.up);
  } finally {
    await sandbox.close();
  }
});

test('the status line never contradicts the error shown: no poll period beside «could not connect»', async ({
  page,
  servers,
  key,
  base,
}) => {
  await page.goto(
    servers.site.page(
      '/poll-failing.html',
      htmlPage(
        `<price-board api-key="${key}" base-url="${base}" symbols="usd" stream="poll" chart="none"></price-board>`,
        widgetScripts(servers),
      ),
    ),
  );
  const status = page.locator('price-board [part~="status"]');
  await expect(status).toContainText('به‌روزرسانی هر');
  // The service stops answering: the next poll gets no answer at all.
  await page.route('**/v1/prices**', (route) => route.abort('connectionrefused'));
  await page
    .locator('price-board')
    .evaluate((el) => (el as HTMLElement & { refresh(): Promise<void> }).refresh().catch(() => {}));
  await expect(page.locator('price-board [part~="error"]')).toHaveAttribute('data-code', 'network');
  await expect(status).not.toContainText('به‌روزرسانی هر');
  await expect(status).not.toContainText('زنده');
});
