/**
 * <price-ticker> and <price-converter> from the built dist/: by script tag on a third-party page
 * (sharing the data layer with a board: one /v1/prices request, one stream), in
 * `embed.html?widget=…`, and through the loader's `data-widget`.
 */
import type { Page } from '@playwright/test';
import { expect, htmlPage, openDemoIn, setPrices, test } from './support/fixtures';

const ticker = (scope: Pick<Page, 'locator'>) => scope.locator('price-ticker .group:first-child [part~="item"]');
const result = (scope: Pick<Page, 'locator'>) => scope.locator('price-converter [part~="result"]');

/**
 * The three scripts by their own tags, in either order, as a site pastes them: by the addresses the
 * widgets' scripts import (`price-board.js`) or by others (`?ver=2`, as a CMS adds to every script
 * it enqueues: the browser then runs two copies of price-board.js). Either way the page's widgets
 * share one hub: one `/v1/prices` and one stream for the union. A loader's frame on the same page
 * is another document with its own connection: its requests are not the page's.
 */
for (const [order, query] of [
  [['price-board', 'price-ticker', 'price-converter'], ''],
  [['price-converter', 'price-ticker', 'price-board'], ''],
  [['price-board', 'price-ticker', 'price-converter'], '?ver=2'],
  [['price-converter', 'price-ticker', 'price-board'], '?ver=2'],
] as const) {
  test(`script tags ${order.join(', ')}${query}: 3 widgets, 1 /v1/prices and 1 stream`, async ({
    page,
    servers,
    key,
    base,
    problems,
  }) => {
    const widgets: Record<string, string> = {
      'price-board': `<price-board api-key="${key}" base-url="${base}" symbols="usd,eur" chart="none"></price-board>`,
      'price-ticker': `<price-ticker api-key="${key}" base-url="${base}" symbols="gold_18,coin_emami"></price-ticker>`,
      'price-converter': `<price-converter api-key="${key}" base-url="${base}" symbols="ons" amount="2"></price-converter>`,
    };
    const pasted = order.map(
      (name) => `<script type="module" src="${servers.cdn.url}${name}.js${query}"></script>
${widgets[name]}`,
    );
    const loader = `<div data-price-board data-symbols="aed" data-key="${key}" data-base-url="${base}" data-chart="none"></div>
<script async src="${servers.cdn.url}embed.js"></script>`;
    const own: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (request.frame() === page.mainFrame() && path.startsWith('/v1/')) own.push(request.url());
    });
    await page.goto(
      servers.site.page(`/scripts-${order[0]}${query.length}.html`, htmlPage(pasted.join('\n') + loader)),
    );
    const statuses = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('price-board, price-ticker, price-converter')].map(
          (el) => (el as HTMLElement & { status: string }).status,
        ),
      );
    await expect.poll(statuses).toEqual(['live', 'live', 'live']);
    await expect(page.frameLocator('iframe').locator('[part~="row"][data-symbol="aed"]')).toHaveCount(1);
    const prices = own.filter((url) => url.includes('/v1/prices'));
    const streams = own.filter((url) => url.includes('/v1/stream'));
    expect(prices, own.join('\n')).toHaveLength(1);
    expect(streams, own.join('\n')).toHaveLength(1);
    // That one stream covers every widget's symbols (the converter's ons through usd): no reopening for more.
    const streamed = new URL(streams[0]!).searchParams.get('symbols')!.split(',');
    expect(streamed.sort()).toEqual(['coin_emami', 'eur', 'gold_18', 'ons', 'usd']);
    await expect(ticker(page)).toHaveCount(2);
    await expect(ticker(page).first().locator('[part~="price"]')).toHaveText(/^[۰-۹٬٫]+$/);
    await expect(result(page)).toContainText('تومان');
    // The page loaded the shared price-board.js once (twice under two names), beside the others' files.
    const loaded = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname.split('/').pop()!),
    );
    expect(loaded.filter((f) => f === 'price-board.js')).toHaveLength(query ? 2 : 1);
    expect(problems.all()).toEqual([]);
  });
}

test('settings set as properties before the module loads go with the first request of each widget', async ({
  page,
  servers,
  key,
  base,
  problems,
}) => {
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
  base,
  problems,
}) => {
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
  base,
  problems,
}) => {
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
  await openDemoIn(page, servers, key, '&symbols=usd,eur');
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
