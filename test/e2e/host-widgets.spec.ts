/**
 * The ticker and the converter on pages we never see (DESIGN §9): pasted by script tag from the
 * CDN into a third-party site's flex header, grid column, table cell, 300 px sidebar,
 * inline-block and multi-column text, at 320–1280 px, under hostile inherited text styles. They
 * never widen the page, stay inside their container at a usable size, and keep their own text.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, htmlPage, sandboxBase, test, type Servers } from './support/fixtures';

const WIDTHS = [320, 390, 768, 1280];

/** A page's text styles that a widget must not take on (its root font size, 10 px, included). */
const HOSTILE = `html { font-size: 62.5%; }
body, header, aside, td, .cols, .ib {
  line-height: 3; letter-spacing: 6px; word-spacing: 30px; text-align: justify; text-transform: uppercase;
  white-space: pre; font-style: italic; direction: ltr; font-size: 40px;
}`;

/**
 * Every layout: a container (data-box) holding a ticker and a converter. (The inline-block box
 * keeps \`white-space: normal\`: under \`pre\` the page itself forbids the line break before an
 * inline-block, whatever its content.)
 */
function layouts(attrs: string): string {
  const ticker = `<price-ticker ${attrs} symbols="usd,eur,gbp,aed,try,cny,gold_18,gold_24,coin_emami,coin_bahar,coin_half,coin_quarter,ons,silver_999"></price-ticker>`;
  const converter = `<price-converter ${attrs} symbols="usd,gold_18,coin_emami,ons" amount="123456789012345678901234567890"></price-converter>`;
  return `
<header data-box="flex" style="display:flex;gap:8px;align-items:center"><strong>سایت</strong>${ticker}<nav>خانه</nav></header>
<div style="display:grid;grid-template-columns:2fr 1fr;gap:8px"><main>متن</main><aside data-box="grid">${ticker}${converter}</aside></div>
<table style="width:100%"><tr><td>نام</td><td data-box="table">${ticker}${converter}</td></tr></table>
<div data-box="sidebar" style="width:300px;max-width:100%">${ticker}${converter}</div>
<div data-box="inline" class="ib" style="white-space:normal">پیش <price-ticker ${attrs} style="display:inline-block" symbols="usd,eur,gbp,aed,try,cny,gold_18,coin_emami,ons"></price-ticker>
  <price-converter ${attrs} style="display:inline-block" symbols="usd,ons"></price-converter> پس</div>
<div data-box="columns" class="cols" style="columns:2;column-gap:16px">${ticker}<p>متن ستونی</p>${converter}</div>`;
}

function openLayouts(page: Page, servers: Servers, key: string, hostile: boolean): Promise<unknown> {
  const attrs = `api-key="${key}" base-url="${sandboxBase(servers)}"`;
  const head =
    `<script type="module" src="${servers.cdn.url}price-ticker.js"></script><script type="module" src="${servers.cdn.url}price-converter.js"></script>` +
    (hostile ? `<style>${HOSTILE}</style>` : '');
  return page.goto(
    servers.site.page(`/host-widgets-${hostile ? 'hostile' : 'plain'}.html`, htmlPage(layouts(attrs), head)),
  );
}

async function ready(page: Page): Promise<void> {
  const tickers = page.locator('price-ticker');
  for (let i = 0; i < (await tickers.count()); i++)
    await expect(tickers.nth(i).locator('[part~="price"]').first()).toHaveText(/[۰-۹]/);
  const converters = page.locator('price-converter');
  for (let i = 0; i < (await converters.count()); i++)
    await expect(converters.nth(i).locator('[part~="result"]')).toHaveAttribute('data-state', 'ok');
}

interface Measured {
  box: string;
  tag: string;
  left: number;
  right: number;
  width: number;
  boxLeft: number;
  boxRight: number;
  /** Parts of the widget drawn outside it (a number running out of the converter's card). */
  outside: string[];
  /** Inherited text styles found inside the widget. */
  leaked: string[];
  /** The first item's (ticker) or result's (converter) height. */
  lineHeight: number;
}

function measure(page: Page): Promise<Measured[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('price-ticker, price-converter')].map((el) => {
      const box = el.closest<HTMLElement>('[data-box]')!;
      const r = el.getBoundingClientRect();
      const b = box.getBoundingClientRect();
      const root = el.shadowRoot!;
      const ticker = el.localName === 'price-ticker';
      const card = root
        .querySelector<HTMLElement>(ticker ? '[part~="ticker"]' : '[part~="converter"]')!
        .getBoundingClientRect();
      const outside: string[] = [];
      if (!ticker) {
        for (const part of root.querySelectorAll<HTMLElement>('[part], button, label, .value')) {
          const p = part.getBoundingClientRect();
          if (p.left < card.left - 1 || p.right > card.right + 1)
            outside.push(
              `${part.getAttribute('part') ?? part.className}: ${p.left}–${p.right} of ${card.left}–${card.right}`,
            );
        }
      }
      const probe = root.querySelector<HTMLElement>(ticker ? '[part~="price"]' : '[part~="result"]')!;
      const cs = getComputedStyle(probe);
      const leaked = [
        cs.letterSpacing !== 'normal' && `letter-spacing ${cs.letterSpacing}`,
        cs.wordSpacing !== '0px' && `word-spacing ${cs.wordSpacing}`,
        cs.textTransform !== 'none' && `text-transform ${cs.textTransform}`,
        cs.fontStyle !== 'normal' && `font-style ${cs.fontStyle}`,
        cs.direction !== 'rtl' && `direction ${cs.direction}`,
        cs.textAlign === 'justify' && 'text-align justify',
        cs.whiteSpace.startsWith('pre') && `white-space ${cs.whiteSpace}`,
        parseFloat(cs.fontSize) > 24 && `font-size ${cs.fontSize}`,
        parseFloat(cs.fontSize) < 13 && `font-size ${cs.fontSize}`,
      ].filter((x): x is string => typeof x === 'string');
      const line = (ticker ? root.querySelector<HTMLElement>('[part~="item"]') : probe)!.getBoundingClientRect().height;
      return {
        box: box.dataset.box!,
        tag: el.localName,
        left: r.left,
        right: r.right,
        width: r.width,
        boxLeft: b.left,
        boxRight: b.right,
        outside,
        leaked,
        lineHeight: line,
      };
    }),
  );
}

for (const hostile of [false, true]) {
  test(`ticker and converter in flex, grid, table, sidebar, inline-block and columns at 320–1280 px${hostile ? ', hostile inherited text styles' : ''}`, async ({
    page,
    servers,
    key,
    problems,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: WIDTHS[0]!, height: 900 });
    await openLayouts(page, servers, key, hostile);
    await ready(page);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      // Layout settles on the next frame.
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: `page width at ${width}px` })
        .toBeLessThanOrEqual(width);
      for (const m of await measure(page)) {
        const where = `${m.tag} in ${m.box} at ${width}px`;
        expect(m.left, where).toBeGreaterThanOrEqual(m.boxLeft - 1);
        expect(m.right, where).toBeLessThanOrEqual(m.boxRight + 1);
        expect(m.right, where).toBeLessThanOrEqual(width);
        // Usable: never collapsed to nothing (in a flex header it shares the row with the logo).
        expect(m.width, where).toBeGreaterThanOrEqual(Math.min(100, m.boxRight - m.boxLeft));
        expect(m.outside, where).toEqual([]);
        expect(m.leaked, where).toEqual([]);
        // One line of text per item: the page's line-height 3 and 40px font do not reach it.
        expect(m.lineHeight, where).toBeLessThan(m.tag === 'price-ticker' ? 48 : 400);
      }
    }
    expect(problems.all()).toEqual([]);
  });
}

test('a ticker in a flex header leaves the page as wide as the viewport and the sidebar board in view', async ({
  page,
  servers,
  key,
  problems,
}) => {
  const attrs = `api-key="${key}" base-url="${sandboxBase(servers)}"`;
  const symbols =
    'usd,eur,gbp,aed,try,cny,chf,cad,aud,gold_18,gold_24,coin_emami,coin_bahar,coin_half,coin_quarter,ons,silver_ounce,silver_999';
  const html = htmlPage(
    `<header style="display:flex"><price-ticker ${attrs} symbols="${symbols}"></price-ticker></header>
<div style="display:flex"><main style="flex:1">متن</main><aside id="side" style="width:200px">ستون کناری</aside></div>`,
    `<script type="module" src="${servers.cdn.url}price-ticker.js"></script>`,
  );
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 700 });
    await page.goto(servers.site.page('/flex-header.html', html));
    await expect(page.locator('price-ticker [part~="price"]').first()).toHaveText(/[۰-۹]/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    const side = (await page.locator('#side').boundingBox())!;
    expect(side.x).toBeGreaterThanOrEqual(0);
    expect(side.x + side.width).toBeLessThanOrEqual(width);
    const ticker = (await page.locator('price-ticker').boundingBox())!;
    expect(ticker.width).toBeGreaterThan(width - 40);
    expect(ticker.width).toBeLessThanOrEqual(width);
  }
  expect(problems.all()).toEqual([]);
});

/** A locator's box, asserted present. */
async function boxOf(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  return box!;
}

test('the ticker says its unit and shows that a tap paused it', async ({ page, servers, key, problems }) => {
  const attrs = `api-key="${key}" base-url="${sandboxBase(servers)}"`;
  await page.setViewportSize({ width: 390, height: 700 });
  await page.goto(
    servers.site.page(
      '/ticker-unit.html',
      htmlPage(
        `<price-ticker id="t" ${attrs} symbols="usd,ons"></price-ticker><price-ticker id="r" ${attrs} unit="rial" symbols="eur"></price-ticker>`,
        `<script type="module" src="${servers.cdn.url}price-ticker.js"></script>`,
      ),
    ),
  );
  const usd = page.locator('#t [part~="item"][data-symbol="usd"]').first();
  await expect(usd).toContainText(/[۰-۹]/);
  await expect(usd).toContainText('تومان');
  await expect(page.locator('#t [part~="item"][data-symbol="ons"]').first()).toContainText('دلار');
  await expect(page.locator('#r [part~="item"][data-symbol="eur"]').first()).toContainText('ریال');

  const button = page.locator('#t button.pause');
  await expect(button).toHaveAttribute('aria-pressed', 'false');
  // The control is drawn, not a glyph: no emoji font needed, and it has a visible size.
  expect((await button.textContent())!.trim()).toBe('');
  const before = await button.screenshot();
  const icon = await boxOf(button.locator('.icon'));
  expect(icon.width).toBeGreaterThan(4);
  await button.tap().catch(() => button.click());
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  expect((await button.screenshot()).equals(before)).toBe(false);
  expect(problems.all()).toEqual([]);
});

// (A board as a flex item keeps 280 px where its row has them, by design: DESIGN.md §9 and
// docs/embedding.md ask a row that shares a phone's width with it for flex-wrap.)
const BESIDE_260 =
  'at 390 px, each widget as the first column of a `1fr 260px` grid or a table cell beside a 260 px one (and the ticker and the converter as a flex item beside one) leaves the page as wide as the viewport';
test(BESIDE_260, async ({ page, servers, key, problems }) => {
  const attrs = `api-key="${key}" base-url="${sandboxBase(servers)}"`;
  const widgets = [
    `<price-ticker ${attrs} symbols="usd,eur,gbp,aed,try,cny,gold_18,gold_24,coin_emami,coin_bahar,coin_half,ons"></price-ticker>`,
    `<price-board ${attrs} symbols="usd,eur,gold_18,coin_emami"></price-board>`,
    `<price-converter ${attrs} symbols="coin_emami,usd,ons"></price-converter>`,
  ];
  const side = '<aside style="width:260px">ستون کناری</aside>';
  const layouts = [
    (w: string) => `<div style="display:grid;grid-template-columns:1fr 260px;gap:12px"><div>${w}</div>${side}</div>`,
    (w: string) => `<div style="display:grid;grid-template-columns:1fr 260px;gap:12px">${w}${side}</div>`,
    (w: string) =>
      `<div style="display:flex;gap:12px">${w}<aside style="flex:none;width:260px">ستون کناری</aside></div>`,
    (w: string) => `<table style="width:100%"><tr><td>${w}</td><td style="width:260px">ستون کناری</td></tr></table>`,
  ];
  await page.setViewportSize({ width: 390, height: 900 });
  for (const widget of widgets) {
    for (const layout of layouts) {
      if (widget.startsWith('<price-board') && layout === layouts[2]) continue;
      const body = layout(widget);
      await page.goto(
        servers.site.page(
          '/grid-260.html',
          htmlPage(
            body,
            ['price-board.js', 'price-ticker.js', 'price-converter.js']
              .map((f) => `<script type="module" src="${servers.cdn.url}${f}"></script>`)
              .join(''),
          ),
        ),
      );
      await expect(page.locator('[part~="price"], [part~="result"][data-state="ok"]').first()).toHaveText(/[۰-۹]/);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), body).toBeLessThanOrEqual(390);
    }
  }
  expect(problems.all()).toEqual([]);
});
