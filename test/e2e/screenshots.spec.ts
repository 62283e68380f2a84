/**
 * Screenshots of the board, the ticker and the converter for the README and docs/elements/, light and dark (reduced
 * motion: the ticker stands still): the iframe host page, which loads
 * Vazirmatn (Chromium here has no Persian font of its own). Written to docs/ by
 * `npm run screenshots` only (playwright.config.ts leaves this file out of `npm test`).
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, htmlPage, htmlPageFor, rows, sandboxBase, test } from './support/fixtures';
import { DIST_DIR } from './support/servers';

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));
/** The built Vazirmatn font (hashed name), for pages of another site. */
const VAZIRMATN_FILE = `assets/${readdirSync(fileURLToPath(new URL('../../dist/assets/', import.meta.url))).find((f) => /^Vazirmatn.*\.woff2$/.test(f)) ?? ''}`;

for (const theme of ['light', 'dark'] as const) {
  test(`screenshot of the board, ${theme}`, async ({ page, servers, key, problems }) => {
    // Back to the seeded market: earlier tests set odd prices.
    servers.sandbox.sandbox.reset();
    await page.setViewportSize({ width: 760, height: 900 });
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: theme });
    const params = new URLSearchParams({
      symbols: 'usd,eur,gold_18,coin_emami,ons',
      key,
      'base-url': sandboxBase(servers),
      theme,
      days: '30',
    });
    await page.goto(`${servers.cdn.url}embed.html?${params.toString()}`);
    await expect(rows(page)).toHaveCount(5);
    await expect(page.locator('price-board [part~="chart"] canvas').first()).toBeVisible();
    await page.evaluate(async () => {
      await document.fonts.load('16px Vazirmatn', 'قیمت');
      await document.fonts.ready;
      const loaded = [...document.fonts].some(
        (f) => f.family.replace(/["']/g, '') === 'Vazirmatn' && f.status === 'loaded',
      );
      if (!loaded) throw new Error('Vazirmatn did not load');
    });
    // The chart paints on the next animation frames; flashes are off (reduced motion, and
    // animations disabled in the screenshot).
    await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
    await page.locator('price-board').screenshot({ path: `${DOCS}screenshot-${theme}.png`, animations: 'disabled' });
    expect(problems.all()).toEqual([]);
  });
}

for (const theme of ['light', 'dark'] as const) {
  for (const widget of ['ticker', 'converter'] as const) {
    test(`screenshot of the ${widget}, ${theme}`, async ({ page, servers, key, problems }) => {
      servers.sandbox.sandbox.reset();
      await page.setViewportSize({ width: 760, height: 400 });
      await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: theme });
      const params = new URLSearchParams({
        widget,
        symbols: widget === 'ticker' ? 'usd,eur,gold_18,coin_emami,ons' : 'coin_emami,usd,gold_18,ons',
        key,
        'base-url': sandboxBase(servers),
        theme,
        amount: '2',
      });
      await page.goto(`${servers.cdn.url}embed.html?${params.toString()}`);
      const ready =
        widget === 'ticker'
          ? page.locator('price-ticker [part~="price"]').first()
          : page.locator('price-converter [part~="result"][data-state="ok"]');
      await expect(ready).toHaveText(/[۰-۹]/);
      await settle(page);
      await page
        .locator(`price-${widget}`)
        .screenshot({ path: `${DOCS}screenshot-${widget}-${theme}.png`, animations: 'disabled' });
      expect(problems.all()).toEqual([]);
    });
  }
}

test.describe('the ticker and converter on host pages', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`screenshot of the ticker and converter at phone width, ${theme}`, async ({ browser, servers, key }) => {
      servers.sandbox.sandbox.reset();
      const context = await browser.newContext({
        viewport: { width: 390, height: 700 },
        isMobile: true,
        hasTouch: true,
        reducedMotion: 'reduce',
        colorScheme: theme,
      });
      const page = await context.newPage();
      const attrs = `api-key="${key}" base-url="${sandboxBase(servers)}" theme="${theme}"`;
      const url = servers.site.page(
        `/phone-${theme}.html`,
        htmlPage(
          `<main id="shot" style="padding:8px;display:grid;gap:12px;background:${theme === 'dark' ? '#0b1220' : '#f6f7fb'}">
  <price-ticker ${attrs} symbols="usd,eur,gold_18,coin_emami,ons"></price-ticker>
  <price-converter ${attrs} symbols="ons,usd,gold_18,coin_emami" reverse amount="۱۰۰۰۰۰۰"></price-converter>
</main>`,
          `<meta name="viewport" content="width=device-width">${fontHead(servers)}<script type="module" src="${servers.cdn.url}price-ticker.js"></script><script type="module" src="${servers.cdn.url}price-converter.js"></script>`,
        ),
      );
      await page.goto(url);
      await expect(page.locator('price-ticker [part~="price"]').first()).toHaveText(/[۰-۹]/);
      await expect(page.locator('price-converter [part~="result"]')).toHaveAttribute('data-state', 'ok');
      await settle(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await page
        .locator('#shot')
        .screenshot({ path: `${DOCS}screenshot-ticker-phone-${theme}.png`, animations: 'disabled' });
      await context.close();
    });

    test(`screenshot of the ticker in a flex header beside a converter sidebar, ${theme}`, async ({
      browser,
      servers,
      key,
    }) => {
      servers.sandbox.sandbox.reset();
      const context = await browser.newContext({
        viewport: { width: 1000, height: 600 },
        reducedMotion: 'reduce',
        colorScheme: theme,
      });
      const page = await context.newPage();
      const attrs = `api-key="${key}" base-url="${sandboxBase(servers)}" theme="${theme}"`;
      const ink = theme === 'dark' ? 'color:#e2e8f0;background:#0b1220' : 'color:#0f172a;background:#ffffff';
      const url = servers.site.page(
        `/flex-${theme}.html`,
        htmlPage(
          `<div id="shot" style="${ink};padding:8px;font-family:Vazirmatn">
  <header style="display:flex;align-items:center;gap:12px"><strong>سایت خبری</strong><price-ticker ${attrs} symbols="usd,eur,gbp,aed,try,cny,gold_18,gold_24,coin_emami,coin_bahar,ons,silver_999"></price-ticker><nav>خانه · اخبار</nav></header>
  <div style="display:grid;grid-template-columns:2fr 1fr;gap:12px;margin-top:12px"><article><h2>اخبار بازار</h2><p>متن نمونهٔ صفحه در ستون اصلی.</p></article>
  <aside><price-converter ${attrs} symbols="gold_18,usd,coin_emami,ons" amount="۲"></price-converter></aside></div>
</div>`,
          `${fontHead(servers)}<script type="module" src="${servers.cdn.url}price-ticker.js"></script><script type="module" src="${servers.cdn.url}price-converter.js"></script>`,
        ),
      );
      await page.goto(url);
      await expect(page.locator('price-ticker [part~="price"]').first()).toHaveText(/[۰-۹]/);
      await expect(page.locator('price-converter [part~="result"]')).toHaveAttribute('data-state', 'ok');
      await settle(page);
      await page
        .locator('#shot')
        .screenshot({ path: `${DOCS}screenshot-widgets-flex-${theme}.png`, animations: 'disabled' });
      await context.close();
    });
  }
});

/** Vazirmatn from the CDN's built font CSS (Chromium here has no Persian font). */
function fontHead(servers: { cdn: { url: string } }): string {
  return `<style>@font-face{font-family:Vazirmatn;src:url(${servers.cdn.url}${VAZIRMATN_FILE}) format("woff2");font-weight:100 900}
price-ticker,price-converter{--price-board-font:Vazirmatn,sans-serif}</style>`;
}

/** Waits for the Vazirmatn font and two frames, so that a screenshot shows the painted page. */
async function settle(page: import('@playwright/test').Page): Promise<void> {
  await page.evaluate(async () => {
    await document.fonts.load('16px Vazirmatn', 'قیمت');
    await document.fonts.ready;
  });
  await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
}
/** The board on host pages (DESIGN.md section 9): a phone's width, and a flex header of a site. */
test.describe('the board on host pages', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`screenshot of the board on a phone (360px) and in a flex header, ${theme}`, async ({
      page,
      servers,
      key,
      problems,
    }) => {
      servers.sandbox.sandbox.reset();
      await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: theme });
      const font = readdirSync(`${DIST_DIR}/assets`).find((f) => /^Vazirmatn.*\.woff2$/.test(f))!;
      const head = `<style>@font-face { font-family: Vazirmatn; src: url(${servers.cdn.url}assets/${font}) format('woff2'); font-weight: 100 900; }
body { margin: 0; padding: 12px; font: 16px/1.6 Georgia, serif; background: ${theme === 'dark' ? '#0d1117' : '#f6f7f9'}; color: ${theme === 'dark' ? '#ddd' : '#222'}; }
header { display: flex; flex-wrap: wrap; align-items: center; gap: 16px; }</style>`;
      const board = (symbols: string, chart: string) =>
        `<price-board api-key="${key}" base-url="${sandboxBase(servers)}" symbols="${symbols}" theme="${theme}" days="7" chart="${chart}"></price-board>`;
      const shots = [
        {
          name: 'phone',
          width: 360,
          body: board('usd,eur,gold_18,coin_emami,ons', 'candles'),
          selector: 'price-board',
        },
        {
          name: 'flex',
          width: 1024,
          body: `<header><strong>سایت خبری</strong>${board('usd,eur,gold_18', 'none')}<nav>خانه · اخبار · تماس</nav></header><p>متن صفحه</p>`,
          selector: 'header',
        },
      ];
      for (const shot of shots) {
        await page.setViewportSize({ width: shot.width, height: 900 });
        await page.goto(servers.site.page(`/shot-${shot.name}-${theme}.html`, htmlPageFor(servers, shot.body, head)));
        await expect(page.locator('price-board [part~="row"] [part~="time"]').first()).toHaveText(/[۰-۹]/);
        if (shot.name === 'phone')
          await expect(page.locator('price-board [part~="chart"]')).toHaveAttribute('data-status', 'ready');
        await settle(page);
        await page
          .locator(shot.selector)
          .first()
          .screenshot({ path: `${DOCS}screenshot-board-${shot.name}-${theme}.png`, animations: 'disabled' });
      }
      expect(problems.all()).toEqual([]);
    });
  }
});

/**
 * Narrow, printed, and a dark preference on a light page (DESIGN.md section 9): the board at 280 px,
 * a phone's `1fr 260px` grid at 390 px with the ticker and a board in its first column, every widget
 * printed at A4's width (print media, with a dark preference), and a board left at theme="auto" on
 * a light page for a visitor who prefers dark.
 */
const NARROW_PRINTED = 'screenshots at 280 and 390 px, printed, and in a dark preference on a light page';
test(NARROW_PRINTED, async ({ page, servers, key, problems }) => {
  servers.sandbox.sandbox.reset();
  await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'dark' });
  const attrs = `api-key="${key}" base-url="${sandboxBase(servers)}"`;
  const head = `${fontHead(servers)}<style>body { margin: 8px; font: 16px/1.6 Georgia, serif; background: #ffffff; color: #222; }
price-board { --price-board-font: Vazirmatn, sans-serif; }</style>
<script type="module" src="${servers.cdn.url}price-ticker.js"></script><script type="module" src="${servers.cdn.url}price-converter.js"></script>`;
  const shots = [
    {
      name: 'board-280',
      width: 400,
      theme: 'light',
      body: `<div id="shot" style="width:280px"><price-board ${attrs} theme="light" symbols="usd,eur,gold_18,coin_emami,ons" days="30"></price-board></div>`,
    },
    {
      name: 'grid-390',
      width: 390,
      theme: 'light',
      body: `<div id="shot" style="display:grid;grid-template-columns:1fr 260px;gap:12px"><div><price-ticker ${attrs} theme="light" symbols="usd,eur,gold_18,coin_emami,ons"></price-ticker><price-board ${attrs} theme="light" chart="none" symbols="usd,gold_18,coin_emami"></price-board></div><aside>ستون کناری صفحه</aside></div>`,
    },
    {
      name: 'print',
      width: Math.floor(((210 - 2 * 10) / 25.4) * 96),
      theme: 'auto',
      body: `<div id="shot"><price-ticker ${attrs} symbols="usd,eur,gbp,aed,gold_18,gold_24,coin_emami,coin_bahar,ons"></price-ticker><price-board ${attrs} symbols="usd,eur,gold_18,coin_emami,ons" days="30"></price-board><price-converter ${attrs} symbols="coin_emami,usd,gold_18,ons" amount="2"></price-converter></div>`,
    },
    {
      name: 'board-dark-preference',
      width: 760,
      theme: 'auto',
      body: `<div id="shot"><p>صفحهٔ روشن یک سایت؛ تابلو با theme="auto" برای بازدیدکننده‌ای که حالت تیره را ترجیح می‌دهد.</p><price-board ${attrs} symbols="usd,eur,gold_18,coin_emami,ons" days="7"></price-board></div>`,
    },
  ];
  for (const shot of shots) {
    await page.emulateMedia({ media: shot.name === 'print' ? 'print' : 'screen', colorScheme: 'dark' });
    await page.setViewportSize({ width: shot.width, height: 1200 });
    await page.goto(servers.site.page(`/shot-${shot.name}.html`, htmlPageFor(servers, shot.body, head)));
    await expect(page.locator('price-board [part~="row"] [part~="time"]').first()).toHaveText(/[۰-۹]/);
    const charts = page.locator('price-board [part~="chart"]');
    for (let i = 0; i < (await charts.count()); i++)
      await expect(charts.nth(i)).toHaveAttribute('data-status', 'ready');
    if (shot.body.includes('price-ticker'))
      await expect(page.locator('price-ticker [part~="price"]').first()).toHaveText(/[۰-۹]/);
    await settle(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), shot.name).toBeLessThanOrEqual(shot.width);
    await page.locator('#shot').screenshot({ path: `${DOCS}screenshot-${shot.name}.png`, animations: 'disabled' });
  }
  expect(problems.all()).toEqual([]);
});
