/**
 * <price-ticker> and <price-converter> from the built dist/: by script tag on a third-party page
 * (sharing the data layer with a board: one /v1/prices request, one stream), in
 * `embed.html?widget=…`, and through the loader's `data-widget`.
 */
import type { Page } from '@playwright/test';
import {
  expect,
  htmlPage,
  persianGrouped,
  sandboxBase,
  setPrices,
  test,
  widgetScripts,
  type Servers,
} from './support/fixtures';

const ticker = (scope: Pick<Page, 'locator'>) => scope.locator('price-ticker .group:first-child [part~="item"]');
const result = (scope: Pick<Page, 'locator'>) => scope.locator('price-converter [part~="result"]');

async function sandboxRequests(servers: Servers, key: string, path: string): Promise<number> {
  const stats = (await (await fetch(`${sandboxBase(servers)}/__sandbox/stats`)).json()) as {
    requests: { key: string; path: string }[];
  };
  return stats.requests.filter((r) => r.key === key && r.path === path).length;
}

test('script tags: a board, a ticker and a converter share one /v1/prices request and one stream', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const base = sandboxBase(servers);
  const scripts = widgetScripts(servers);
  const url = servers.site.page(
    '/widgets.html',
    htmlPage(
      `<price-board api-key="${key}" base-url="${base}" symbols="usd,eur" chart="none"></price-board>
<price-ticker api-key="${key}" base-url="${base}" symbols="gold_18,coin_emami"></price-ticker>
<price-converter api-key="${key}" base-url="${base}" symbols="usd" amount="2"></price-converter>`,
      scripts,
    ),
  );
  await setPrices(servers, [{ symbol: 'usd', price: '1000000' }]);
  await page.goto(url);
  await expect(ticker(page)).toHaveCount(2);
  await expect(ticker(page).first()).toHaveAttribute('data-symbol', 'gold_18');
  await expect(ticker(page).first().locator('[part~="price"]')).toHaveText(/^[۰-۹٬٫]+$/);
  await expect(result(page)).toContainText(`${persianGrouped('200000')} تومان`);
  await expect.poll(() => sandboxRequests(servers, key, '/v1/stream')).toBe(1);
  expect(await sandboxRequests(servers, key, '/v1/prices')).toBe(1);
  // The page loaded the shared price-board.js once, beside the ticker's and the converter's files.
  const scriptsLoaded = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name).pathname.split('/').pop()!)
      .filter((f) => f.endsWith('.js')),
  );
  expect(scriptsLoaded.filter((f) => f === 'price-board.js')).toHaveLength(1);
  expect(scriptsLoaded).toEqual(expect.arrayContaining(['price-ticker.js', 'price-converter.js']));
  expect(problems.all()).toEqual([]);
});

test('settings set as properties before the module loads go with the first request of each widget', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const base = sandboxBase(servers);
  const prices: { url: string; key: string | undefined }[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/v1/prices')) prices.push({ url: request.url(), key: request.headers()['x-api-key'] });
  });
  await page.goto(servers.site.page('/properties-first.html', htmlPage('<main id="widgets"></main>')));
  // An app that makes its elements first and loads the widgets later (or lazily): the elements are
  // plain HTMLElements when their properties are set.
  const errors = await page.evaluate(
    async ({ cdn, base, key }) => {
      const errors: string[] = [];
      const make = (tag: string, symbols: string) => {
        const el = document.createElement(tag) as HTMLElement & Record<string, unknown>;
        Object.assign(el, { apiKey: key, baseUrl: base, symbols });
        el.addEventListener('price-board-error', (e) =>
          errors.push(`${tag}: ${(e as CustomEvent<{ code: string }>).detail.code}`),
        );
        document.getElementById('widgets')!.append(el);
      };
      make('price-board', 'eur,gbp');
      make('price-ticker', 'gold_18');
      make('price-converter', 'aed');
      await Promise.all(['price-board', 'price-ticker', 'price-converter'].map((name) => import(`${cdn}${name}.js`)));
      return errors;
    },
    { cdn: servers.cdn.url, base, key },
  );
  await expect(page.locator('price-board [part~="row"][data-symbol="gbp"] [part~="price"]')).toHaveText(/^[۰-۹٬٫]+$/);
  await expect(ticker(page).first()).toHaveAttribute('data-symbol', 'gold_18');
  await expect(page.locator('price-converter [part~="result"]')).toContainText('تومان');
  expect(prices.length).toBeGreaterThan(0);
  for (const request of prices) {
    expect(request.url.startsWith(`${base}/v1/prices`), request.url).toBe(true);
    expect(request.key).toBe(key);
  }
  expect(errors).toEqual([]);
  expect(problems.all()).toEqual([]);
});

test('embed.html?widget=ticker and ?widget=converter show that element with its own parameters', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const base = sandboxBase(servers);
  await page.goto(
    `${servers.cdn.url}embed.html?widget=ticker&symbols=usd,eur&key=${key}&base-url=${base}&speed=80&chart=none`,
  );
  await expect(ticker(page)).toHaveCount(2);
  await expect(page.locator('price-ticker')).toHaveAttribute('speed', '80');
  await expect(page.locator('price-board')).toHaveCount(0);
  // A board-only parameter is not set on a ticker.
  expect(await page.locator('price-ticker').getAttribute('chart')).toBeNull();

  await setPrices(servers, [{ symbol: 'gold_18', price: '30000000' }]);
  await page.goto(
    `${servers.cdn.url}embed.html?widget=converter&symbols=usd,gold_18&symbol=gold_18&amount=2000000&reverse&key=${key}&base-url=${base}`,
  );
  await expect(result(page)).toContainText('۰٫۶۶۷');
  expect(problems.all()).toEqual([]);
});

test('the loader turns data-widget placeholders into sized iframes of that widget', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const base = sandboxBase(servers);
  const url = servers.site.page(
    '/loader-widgets.html',
    htmlPage(`<div id="t" data-price-board data-widget="ticker" data-symbols="usd,eur" data-key="${key}" data-base-url="${base}"></div>
<div id="c" data-price-board data-widget="converter" data-symbols="usd" data-amount="3" data-key="${key}" data-base-url="${base}"></div>
<script type="module" src="${servers.cdn.url}embed.js"></script>`),
  );
  await page.goto(url);
  for (const [id, widget] of [
    ['t', 'ticker'],
    ['c', 'converter'],
  ] as const) {
    const iframe = page.locator(`#${id} > iframe`);
    await expect(iframe).toHaveCount(1);
    expect(new URL((await iframe.getAttribute('src'))!).searchParams.get('widget')).toBe(widget);
    const frame = page.frameLocator(`#${id} > iframe`);
    await expect(frame.locator(`price-${widget}`)).toHaveCount(1);
    await expect
      .poll(async () => {
        const outer = await iframe.evaluate((el) => el.getBoundingClientRect().height);
        const inner = await frame.locator('html').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
        return outer === inner && inner > 20 ? 'sized' : `outer ${outer}, inner ${inner}`;
      })
      .toBe('sized');
  }
  await expect(ticker(page.frameLocator('#t > iframe'))).toHaveCount(2);
  await expect(result(page.frameLocator('#c > iframe'))).toContainText('تومان');
  expect(problems.all()).toEqual([]);
});

test('the demo configurator previews each widget type and its pasted code works', async ({
  page,
  servers,
  key,
  problems,
}) => {
  await page.goto(
    `${servers.cdn.url}index.html?key=${encodeURIComponent(key)}&base-url=${sandboxBase(servers)}&symbols=usd,eur`,
  );
  await expect(page.locator('#symbol-groups .symbol-option').first()).toBeVisible();
  const snippets: Record<string, string> = {};
  for (const widget of ['ticker', 'converter'] as const) {
    await page.locator(`label:has(input[name="widget"][value="${widget}"])`).click();
    await expect(page.locator(`#preview-slot > price-${widget}`)).toHaveCount(1);
    await expect(page.locator('#code-script')).toContainText(`${servers.cdn.url}price-${widget}.js`);
    await expect(page.locator('#code-script')).toContainText(`<price-${widget}`);
    await expect(page.locator('#code-script')).not.toContainText('chart=');
    await expect(page.locator('#code-loader')).toContainText(`data-widget="${widget}"`);
    expect(new URL(page.url()).searchParams.get('widget')).toBe(widget);
    snippets[widget] =
      (await page.locator('#code-script').textContent())! + (await page.locator('#code-loader').textContent())!;
  }
  await expect(ticker(page.locator('#preview-slot'))).toHaveCount(0); // the converter replaced it
  await expect(result(page.locator('#preview-slot'))).toContainText('تومان');

  const pasted = servers.site.page(
    '/pasted-widgets.html',
    htmlPage(`<section id="t">${snippets.ticker}</section><section id="c">${snippets.converter}</section>`),
  );
  await page.goto(pasted);
  await expect(ticker(page.locator('#t'))).toHaveCount(2);
  await expect(result(page.locator('#c'))).toContainText('تومان');
  await expect(ticker(page.frameLocator('#t iframe'))).toHaveCount(2);
  await expect(result(page.frameLocator('#c iframe'))).toContainText('تومان');
  expect(problems.all()).toEqual([]);
});
