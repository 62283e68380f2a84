/**
 * The demo page, built and served from the CDN folder under its strict CSP: the configurator
 * drives the preview (attribute by attribute) and the embed code, and the code pasted into a
 * third-party page works.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, htmlPage, openDemoIn, rows, sandboxBase, test as withServers } from './support/fixtures';

/** `openDemo(query)`: the demo in this test's page, with its key and the sandbox. */
const test = withServers.extend<{ openDemo: (query?: string) => Promise<void> }>({
  openDemo: async ({ page, servers, key }, use) => {
    await use((query = '') => openDemoIn(page, servers, key, query));
  },
});

const preview = (page: Page) => page.locator('#preview-slot > price-board');
const code = (page: Page, id: string) => page.locator(`#code-${id}`);
/** The configurator's radio choice `value` of the control `name` (click or tap it). */
const choice = (page: Page, name: string, value: string) =>
  page.locator(`label:has(input[name="${name}"][value="${value}"])`);

/** Types `value` into the configurator's input `name` and confirms it (Enter). */
async function enter(page: Page, name: string, value: string): Promise<void> {
  await page.locator(`input[name="${name}"]`).fill(value);
  await page.locator(`input[name="${name}"]`).press('Enter');
}

/** Each snippet (script tag, loader, iframe) contains its text. */
async function expectSnippets(page: Page, texts: { script: string; loader: string; iframe: string }): Promise<void> {
  for (const [id, text] of Object.entries(texts)) await expect(code(page, id)).toContainText(text);
}

/** Opens the demo and waits for the preview's five rows; the preview's element, to check it is never re-created. */
async function openPreview(page: Page, openDemo: () => Promise<void>) {
  await openDemo();
  const board = await preview(page).elementHandle();
  await expect(rows(page.locator('#preview-slot'))).toHaveCount(5);
  return board;
}

test('looks like a product page and its boards come alive', async ({ page, openDemo, servers, problems }) => {
  await openDemo();
  await expect(page.locator('h1')).toHaveText(/[\u0600-\u06ff]/);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(rows(page.locator('#hero-slot'))).toHaveCount(5);
  await expect(page.locator('#hero-slot [part~="chart"] canvas').first()).toBeVisible();
  for (const id of ['example-full', 'example-sidebar', 'example-dark']) {
    await expect(rows(page.locator(`#${id}`)).first()).toBeVisible();
  }
  // Grouped by category with Persian labels.
  const groups = await page.locator('.symbol-group__name').allTextContents();
  expect(groups).toEqual(['ارز', 'طلا', 'سکه', 'نقره', 'جهانی']);
  await expect(page.locator('.site-footer')).toContainText('TradingView');
  await expect(page.locator('#preview-status')).toHaveAttribute('data-status', /live|polling/);
  // Every snippet names the built files beside the demo, never a source file.
  for (const text of await page.locator('pre code').allTextContents()) {
    expect(text).not.toContain('/src/');
    expect(text).toMatch(new RegExp(`${servers.cdn.url}(price-board\\.js|embed\\.html|embed\\.js)`));
  }
  expect(problems.all()).toEqual([]);
});

test('the configurator changes the preview and the code, without re-creating the board', async ({
  page,
  openDemo,
  problems,
}) => {
  const board = await openPreview(page, openDemo);

  // Dark theme.
  await choice(page, 'theme', 'dark').click();
  await expect(preview(page)).toHaveAttribute('theme', 'dark');
  await expectSnippets(page, { script: 'theme="dark"', loader: 'data-theme="dark"', iframe: 'theme=dark' });

  // Add a symbol through the search box; it goes last, as a chip, into the board and the code.
  await page.locator('#symbol-search').fill('پوند');
  await page.locator('.symbol-option:has(input[value="gbp"])').click();
  await expect(page.locator('#symbol-chips .chip').last()).toHaveAttribute('data-symbol', 'gbp');
  await expect(preview(page)).toHaveAttribute('symbols', 'usd,eur,gold_18,coin_emami,ons,gbp');
  await expect(rows(page.locator('#preview-slot')).last()).toHaveAttribute('data-symbol', 'gbp');
  await expect(code(page, 'script')).toContainText('symbols="usd,eur,gold_18,coin_emami,ons,gbp"');

  // Remove one by its chip.
  await page.locator('#symbol-chips .chip[data-symbol="eur"] button').click();
  await expect(preview(page)).toHaveAttribute('symbols', 'usd,gold_18,coin_emami,ons,gbp');

  // Unit and chart.
  await choice(page, 'unit', 'rial').click();
  await choice(page, 'chart', 'none').click();
  await expect(preview(page)).toHaveAttribute('unit', 'rial');
  await expect(preview(page)).toHaveAttribute('chart', 'none');
  await expect(code(page, 'script')).toContainText('unit="rial"');
  await expect(code(page, 'script')).toContainText('chart="none"');

  // Still the same element.
  expect(await preview(page).evaluate((el, original) => el === original, board)).toBe(true);
  // The configuration is in the page's URL, to share.
  expect(new URL(page.url()).searchParams.get('theme')).toBe('dark');
  expect(problems.all()).toEqual([]);
});

test('offers the columns, density, max height and link, in the preview and in every snippet', async ({
  page,
  openDemo,
  problems,
}) => {
  const board = await openPreview(page, openDemo);
  await expect(code(page, 'script')).not.toContainText('columns=');

  // Columns: the checked ones, in the element's order.
  await choice(page, 'columns', 'bubble').click();
  await choice(page, 'columns', 'high').click();
  await choice(page, 'columns', 'change-amount').click();
  const columns = 'price,change,change-amount,low,time,bubble';
  await expect(preview(page)).toHaveAttribute('columns', columns);
  await expect(page.locator('#preview-slot [data-symbol="coin_emami"] [part~="bubble"]')).toHaveText(/٪$/);
  await expectSnippets(page, {
    script: `columns="${columns}"`,
    loader: `data-columns="${columns}"`,
    iframe: `columns=${columns}`,
  });

  // Density.
  await choice(page, 'density', 'compact').click();
  await expect(preview(page)).toHaveAttribute('density', 'compact');
  await expect(code(page, 'script')).toContainText('density="compact"');

  // Link.
  const link = 'https://example.com/price/{symbol}';
  await enter(page, 'link', link);
  await expect(preview(page)).toHaveAttribute('link', link);
  await expect(page.locator('#preview-slot [data-symbol="usd"] [part~="title"] a')).toHaveAttribute(
    'href',
    'https://example.com/price/usd',
  );
  await expectSnippets(page, {
    script: `link="${link}"`,
    loader: `data-link="${link}"`,
    iframe: 'link=https://example.com/price/%7Bsymbol%7D',
  });

  // Max height: a CSS variable on the preview; a style on the tag, max-height in the frame's URL.
  await enter(page, 'max-height', '200');
  await expect
    .poll(() => preview(page).evaluate((el) => getComputedStyle(el).getPropertyValue('--price-board-max-height')))
    .toBe('200px');
  await expectSnippets(page, {
    script: 'style="--price-board-max-height: 200px"',
    loader: 'data-max-height="200"',
    iframe: 'max-height=200',
  });
  const url = new URL(page.url()).searchParams;
  expect([url.get('columns'), url.get('density'), url.get('link'), url.get('max-height')]).toEqual([
    columns,
    'compact',
    link,
    '200',
  ]);

  // Today's chart (days="1"), in the preview and the snippets.
  await choice(page, 'days', '1').click();
  await expect(preview(page)).toHaveAttribute('days', '1');
  await expectSnippets(page, { script: 'days="1"', loader: 'data-days="1"', iframe: 'days=1' });

  // Still the same element; and a reload of the shared URL comes back with the same settings.
  expect(await preview(page).evaluate((el, original) => el === original, board)).toBe(true);
  await page.reload();
  await expect(preview(page)).toHaveAttribute('columns', columns);
  await expect(page.locator('input[name="max-height"]')).toHaveValue('200');
  await expect(page.locator('input[name="columns"][value="high"]')).not.toBeChecked();
  expect(problems.all()).toEqual([]);
});

test("the ticker and the converter show their own controls, and the ticker's speed reaches the preview and the code", async ({
  page,
  openDemo,
  problems,
}) => {
  await openDemo();
  const control = (name: string) => page.locator(`#config-form [data-attribute="${name}"]`);
  for (const name of ['chart', 'days']) await expect(control(name)).toBeVisible();
  for (const name of ['speed', 'symbol', 'amount']) await expect(control(name)).toBeHidden();

  await choice(page, 'widget', 'ticker').click();
  const ticker = page.locator('#preview-slot > price-ticker');
  await expect(ticker).toHaveCount(1);
  for (const name of ['chart', 'days', 'symbol', 'amount']) await expect(control(name)).toBeHidden();
  await expect(control('speed')).toBeVisible();
  // The control starts at the element's own default, which the code leaves out.
  const speed = page.locator('input[name="speed"]');
  await expect(speed).toHaveValue(String(await ticker.evaluate((el) => (el as HTMLElement & { speed: number }).speed)));
  await expect(code(page, 'script')).not.toContainText('speed=');

  await speed.fill('90');
  await speed.press('Enter');
  await expect(ticker).toHaveJSProperty('speed', 90);
  await expectSnippets(page, { script: 'speed="90"', loader: 'data-speed="90"', iframe: 'speed=90' });
  expect(new URL(page.url()).searchParams.get('speed')).toBe('90');

  // The converter: its symbol and amount, no speed.
  await choice(page, 'widget', 'converter').click();
  await expect(page.locator('#preview-slot > price-converter')).toHaveCount(1);
  for (const name of ['symbol', 'amount']) await expect(control(name)).toBeVisible();
  for (const name of ['chart', 'days', 'speed']) await expect(control(name)).toBeHidden();
  await expect(code(page, 'script')).not.toContainText('speed=');
  await page.locator('select[name="symbol"]').selectOption('eur');
  await expect(page.locator('#preview-slot > price-converter')).toHaveAttribute('symbol', 'eur');
  await expect(code(page, 'script')).toContainText('symbol="eur"');
  expect(problems.all()).toEqual([]);
});

test('the snippets and the preview switch to the relay form (no key, this origin) and back', async ({
  page,
  openDemo,
  servers,
  key,
  problems,
}) => {
  await openDemo();
  const ids = ['script', 'iframe', 'loader'];
  // The relay is the origin serving the demo and its files (npm start's), here the CDN.
  const relay = servers.cdn.url;
  for (const widget of ['board', 'ticker', 'converter'] as const) {
    await choice(page, 'widget', widget).click();
    await choice(page, 'connection', 'relay').click();
    await expect(code(page, 'script')).toContainText(
      `<script type="module" src="${relay}price-${widget}.js"></script>`,
    );
    // The board's first prices request starts from the HTML (DESIGN.md §12; test/e2e/preload.spec.ts).
    const preload = `<link rel="preload" as="fetch" crossorigin href="${servers.cdn.origin}/v1/prices?symbols=`;
    if (widget === 'board') await expect(code(page, 'script')).toContainText(preload);
    else await expect(code(page, 'script')).not.toContainText('rel="preload"');
    await expect(code(page, 'iframe')).toContainText(`src="${relay}embed.html?`);
    await expect(code(page, 'loader')).toContainText(`<script async src="${relay}embed.js"></script>`);
    for (const id of ids) {
      const text = (await code(page, id).textContent())!;
      for (const leak of [key, 'api-key', 'data-key', 'key=', 'base-url', sandboxBase(servers)])
        expect(text).not.toContain(leak);
    }
    // The preview uses what the snippets give.
    const shown = page.locator(`#preview-slot > price-${widget}`);
    await expect(shown).not.toHaveAttribute('api-key', /./);
    await expect(shown).not.toHaveAttribute('base-url', /./);
    // Back to the keyed form: the key and the service's address again, in the snippets and the preview.
    await choice(page, 'connection', 'key').click();
    await expect(code(page, 'script')).toContainText(`api-key="${key}"`);
    await expect(code(page, 'script')).toContainText(`base-url="${sandboxBase(servers)}"`);
    await expect(code(page, 'script')).toContainText(`${servers.cdn.url}price-${widget}.js`);
    await expect(code(page, 'iframe')).toContainText(`key=${key}`);
    await expect(code(page, 'loader')).toContainText(`data-key="${key}"`);
    await expect(shown).toHaveAttribute('api-key', key);
    await expect(shown).toHaveAttribute('base-url', sandboxBase(servers));
  }
  // The CDN is no relay: the preview's keyless requests to it were refused, nothing else went wrong.
  expect(problems.all().filter((p) => !p.includes(`404 (Not Found) (${servers.cdn.origin}/v1/`))).toEqual([]);
});

test('the copied snippets work when pasted into another site', async ({
  page,
  openDemo,
  context,
  servers,
  problems,
}) => {
  await openDemo('&symbols=usd,eur,coin_emami&theme=dark&chart=none');
  await expect(code(page, 'script')).toContainText('symbols="usd,eur,coin_emami"');

  // The copy button puts the code on the clipboard.
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: servers.cdn.origin });
  await page.locator('button[data-copy="code-script"]').click();
  await expect(page.locator('button[data-copy="code-script"]')).toHaveText('کپی شد');
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const scriptCode = (await code(page, 'script').textContent())!;
  expect(copied).toBe(scriptCode);
  expect(scriptCode).toContain(`${servers.cdn.url}price-board.js`);

  const loaderCode = (await code(page, 'loader').textContent())!;
  const iframeCode = (await code(page, 'iframe').textContent())!;
  const pasted = servers.site.page(
    '/pasted.html',
    htmlPage(
      `<section id="s">${scriptCode}</section>\n<section id="l">${loaderCode}</section>\n<section id="i">${iframeCode}</section>`,
    ),
  );
  await page.goto(pasted);
  const script = page.locator('#s price-board');
  await expect(rows(script)).toHaveCount(3);
  await expect(script).toHaveAttribute('theme', 'dark');
  await expect(rows(page.frameLocator('#l iframe'))).toHaveCount(3);
  await expect(rows(page.frameLocator('#i iframe'))).toHaveCount(3);
  await expect.poll(() => page.locator('#l iframe').evaluate((el) => el.getBoundingClientRect().height)).not.toBe(420);
  expect(problems.all()).toEqual([]);
});

test('the iframe snippet is as tall as the widget it shows in its tallest layout, and never shorter at any width from 280 px', async ({
  page,
  openDemo,
  servers,
  problems,
}) => {
  test.setTimeout(120_000);
  const configs = [
    '&symbols=usd,eur,gold_18&chart=none',
    '&symbols=usd,eur,gbp,aed,try,cny,gold_18,coin_emami,ons&chart=none',
    '&symbols=usd&chart=candles',
    '&symbols=usd,eur,gbp,aed,coin_emami&chart=line',
    '&widget=ticker&symbols=usd,eur,ons',
    '&widget=converter&symbols=coin_emami,usd',
  ];
  for (const [n, query] of configs.entries()) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await openDemo(query);
    const snippet = (await code(page, 'iframe').textContent())!;
    const height = Number(/height="(\d+)"/.exec(snippet)![1]);
    const pasted = servers.site.page(
      `/iframe-height-${n}.html`,
      htmlPage(`<div style="max-width:1000px">${snippet.replace('loading="lazy"', '')}</div>`),
    );
    const contents: number[] = [];
    // 280 and 300 px: a sidebar, or a 560 or 600 px column at 200 % zoom.
    for (const width of [280, 300, 390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(pasted);
      const frame = page.frameLocator('iframe');
      await expect(
        frame
          .locator(
            'price-board [part~="row"], price-ticker [part~="price"], price-converter [part~="result"][data-state="ok"]',
          )
          .first(),
      ).toBeVisible();
      if (query.includes('candles') || query.includes('line'))
        await expect(frame.locator('price-board [part~="chart"] canvas').first()).toBeVisible();
      // The content's height once it has stopped changing.
      const content = () => frame.locator('html').evaluate((el) => Math.ceil(el.getBoundingClientRect().height));
      let last = -1;
      await expect
        .poll(async () => {
          const now = await content();
          const settled = now === last;
          last = now;
          return settled;
        })
        .toBe(true);
      expect(last, `${query} at ${width}px: content ${last}, iframe ${height}`).toBeLessThanOrEqual(height + 2);
      contents.push(last);
    }
    expect(
      Math.abs(Math.max(...contents) - height),
      `${query}: content ${contents.join(', ')}, iframe ${height}`,
    ).toBeLessThanOrEqual(6);
  }
  expect(problems.all()).toEqual([]);
});

test('README.md and docs/embedding.md give their iframes the height the configurator gives', async ({
  page,
  openDemo,
}) => {
  for (const doc of ['README.md', 'docs/embedding.md']) {
    const text = readFileSync(fileURLToPath(new URL(`../../${doc}`, import.meta.url)), 'utf8');
    const frames = [...text.matchAll(/<iframe\s[^>]*?embed\.html\?([^"]+)"[^>]*?height="(\d+)"/g)];
    expect(frames.length, doc).toBeGreaterThan(0);
    for (const [, query, height] of frames) {
      await openDemo(`&${query!.replace(/(^|&)key=[^&]*/, '')}`);
      await expect(code(page, 'iframe'), `${doc}: ${query}`).toContainText(`height="${height}"`);
    }
  }
});

test("Latin code in the configurator's Persian text is isolated", async ({ page, openDemo, problems }) => {
  await openDemo();
  // Each text node holding Latin letters in an element whose text also holds Persian: it must sit in
  // a <bdi> or an element with dir="ltr" (which the browser isolates), else «(npm run / relay ؛docs/relay.md)».
  const loose = await page.locator('#configurator').evaluate((root) => {
    const found: string[] = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement!;
      if (parent.closest('pre, select, script, style') || !/[A-Za-z]/.test(node.textContent ?? '')) continue;
      if (!/[\u0600-\u06ff]/.test(parent.textContent ?? '')) continue;
      if (!parent.closest('bdi, [dir="ltr"]')) found.push(node.textContent!.trim());
    }
    return found;
  });
  expect(loose).toEqual([]);
  expect(problems.all()).toEqual([]);
});

test('the symbol search matches words in any order, any digits, Arabic ي/ك and ZWNJ; names are whole', async ({
  page,
  openDemo,
  problems,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openDemo();
  const cut = await page
    .locator('.symbol-option__title')
    .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
  expect(cut).toEqual([]);
  const visible = () =>
    page
      .locator('#symbol-groups .symbol-option:visible input')
      .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  for (const [query, symbol] of [
    ['طلا ۱۸', 'gold_18'],
    ['18 طلا', 'gold_18'],
    ['عيار ١٨ طلاي', 'gold_18'],
    ['سكه امامي', 'coin_emami'],
    ['دست دوم ۲۱', 'broken_gold_21'],
    ['gold 24', 'gold_24'],
  ] as const) {
    await page.locator('#symbol-search').fill(query);
    await expect.poll(visible, { message: query }).toContain(symbol);
  }
  await page.locator('#symbol-search').fill('طلا ۱۸ نقره');
  await expect.poll(visible).toEqual([]);
  expect(problems.all()).toEqual([]);
});

test('on a phone (390 px): names whole, selects whole, navigation there, and the ticker leaves «مبدل» tappable', async ({
  browser,
  servers,
  key,
}) => {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    locale: 'fa-IR',
    timezoneId: 'Asia/Tehran',
  });
  const page = await context.newPage();
  await openDemoIn(page, servers, key);
  const width = () => page.evaluate(() => document.documentElement.scrollWidth);
  expect(await width()).toBeLessThanOrEqual(390);
  // Every symbol's Persian name is shown whole.
  const cut = await page
    .locator('.symbol-option__title')
    .evaluateAll((els) =>
      els
        .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.getBoundingClientRect().width === 0)
        .map((e) => e.textContent),
    );
  expect(cut).toEqual([]);
  // The update-mode select shows its whole choice: the option's text fits the box.
  const select = page.locator('select[name="stream"]');
  const fits = await select.evaluate((el: HTMLSelectElement) => {
    const probe = document.createElement('span');
    probe.style.font = getComputedStyle(el).font;
    probe.style.position = 'absolute';
    probe.textContent = el.selectedOptions[0]!.textContent;
    document.body.append(probe);
    const text = probe.getBoundingClientRect().width;
    probe.remove();
    const box = el.getBoundingClientRect();
    return { text, box: box.width, right: box.right };
  });
  expect(fits.text + 30).toBeLessThanOrEqual(fits.box);
  expect(fits.right).toBeLessThanOrEqual(390);
  // The section links are there and lead to their sections.
  const link = page.locator('.site-nav a[href="#examples"]');
  await expect(link).toBeVisible();
  await link.tap();
  await expect(page).toHaveURL(/#examples$/);

  await choice(page, 'widget', 'ticker').tap();
  await expect(page.locator('#preview-slot > price-ticker [part~="price"]').first()).toHaveText(/[۰-۹]/);
  await expect.poll(width).toBeLessThanOrEqual(390);
  const converter = choice(page, 'widget', 'converter');
  const box = (await converter.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await converter.tap();
  await expect(page.locator('#preview-slot > price-converter')).toHaveCount(1);
  await context.close();
});

test('printed: light colours and no «زنده»', async ({ page, openDemo, problems }) => {
  await openDemo();
  await expect(page.locator('#preview-status')).toHaveAttribute('data-status', /live|polling/);
  await expect(rows(page.locator('#example-dark')).first()).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  const shown = await page.evaluate(() => {
    const boards = [...document.querySelectorAll('price-board')];
    return {
      status: boards.filter((b) => b.shadowRoot?.querySelector<HTMLElement>('[part~="status"]')?.checkVisibility())
        .length,
      badge: document.querySelector<HTMLElement>('#preview-status')!.checkVisibility(),
      darkBoard: getComputedStyle(
        document.querySelector('#example-dark price-board')!.shadowRoot!.querySelector('[part~="board"]')!,
      ).backgroundColor,
      darkCard: getComputedStyle(document.querySelector('.example--dark')!).backgroundColor,
    };
  });
  expect(shown).toEqual({ status: 0, badge: false, darkBoard: 'rgb(255, 255, 255)', darkCard: 'rgb(255, 255, 255)' });
  expect(problems.all()).toEqual([]);
});
