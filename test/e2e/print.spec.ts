/**
 * Printed (DESIGN §9): a page holding every widget (board, ticker, converter by script tag, an
 * iframe of embed.html and the loader's iframe), opened at 1280 px and printed to A4 portrait. On
 * paper every widget fits the page's width with its cells, buttons, axes and fields whole, in the
 * light theme (also with a dark preference), the ticker a still strip.
 */
import type { Frame, Page } from '@playwright/test';
import { expect, htmlPage, rows, sandboxBase, test, type Servers } from './support/fixtures';

/** A4 portrait (210 mm) less Chromium's default 10 mm margins, in CSS px: the printed page's width. */
const A4_WIDTH = Math.floor(((210 - 2 * 10) / 25.4) * 96);

function widgetsPage(servers: Servers, key: string): string {
  const base = sandboxBase(servers);
  const attrs = `api-key="${key}" base-url="${base}"`;
  const frame = `${servers.cdn.url}embed.html?${new URLSearchParams({ symbols: 'usd,eur,gold_18,coin_emami,ons', key, 'base-url': base }).toString()}`;
  const scripts = ['price-board.js', 'price-ticker.js', 'price-converter.js']
    .map((file) => `<script type="module" src="${servers.cdn.url}${file}"></script>`)
    .join('');
  return htmlPage(
    `<h1>قیمت‌ها</h1>
<price-ticker ${attrs} symbols="usd,eur,gbp,aed,try,cny,gold_18,gold_24,coin_emami,coin_bahar,coin_half,ons"></price-ticker>
<price-board ${attrs} symbols="usd,eur,gold_18,coin_emami,ons" unit="rial"></price-board>
<price-converter ${attrs} symbols="coin_emami,usd,gold_18,ons"></price-converter>
<iframe src="${frame}" title="تابلو" width="100%" height="600" style="border:0"></iframe>
<div data-price-board data-symbols="usd,eur,gold_18" data-key="${key}" data-base-url="${base}"></div>
<script src="${servers.cdn.url}embed.js"></script>`,
    scripts,
  );
}

/** Everything a printed widget must show whole, measured in `scope` (the page or a frame). */
function measureWidgets(scope: Page | Frame): Promise<{ width: number; problems: string[] }> {
  return scope.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    const inside = (what: string, el: Element, box: DOMRect): void => {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) problems.push(`${what}: not shown`);
      else if (r.left < box.left - 1 || r.right > box.right + 1)
        problems.push(
          `${what}: ${Math.round(r.left)}–${Math.round(r.right)} outside ${Math.round(box.left)}–${Math.round(box.right)}`,
        );
    };
    const light = (what: string, el: Element): void => {
      const [r = 0, g = 0, b = 0] = (getComputedStyle(el).backgroundColor.match(/\d+/g) ?? []).map(Number);
      if (r + g + b < 600) problems.push(`${what}: background ${getComputedStyle(el).backgroundColor}`);
    };
    if (document.documentElement.scrollWidth > width)
      problems.push(`page ${document.documentElement.scrollWidth} px wide`);
    const paper = new DOMRect(0, 0, width, 1e6);
    for (const el of document.querySelectorAll('price-board, price-ticker, price-converter, iframe')) {
      const name = el.localName;
      inside(name, el, paper);
      const root = el.shadowRoot;
      if (!root) continue;
      const box = el.getBoundingClientRect();
      const card = root.querySelector('[part~="board"], [part~="ticker"], [part~="converter"]')!;
      light(`${name} card`, card);
      const parts =
        name === 'price-board'
          ? ['price', 'change', 'high', 'low', 'time'].map((p) => `[part~="row"] [part~="${p}"]`)
          : name === 'price-ticker'
            ? ['[part~="item"]']
            : ['[part~="amount"]', '[part~="symbol"]', '[part~="result"]'];
      for (const selector of parts) inside(`${name} ${selector}`, root.querySelector(selector)!, box);
      if (name === 'price-board') {
        const buttons = [...root.querySelectorAll('.spans button')];
        for (const b of buttons) inside(`${name} span button ${b.textContent}`, b, box);
        const tops = new Set(buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
        if (tops.size !== 1) problems.push(`span buttons on ${tops.size} lines`);
        // lightweight-charts' canvases (the plot, the price axis) in the chart's box
        for (const [i, canvas] of root.querySelectorAll('[part~="chart"] canvas').entries())
          inside(`${name} chart canvas ${i}`, canvas, box);
        const chart = (el as unknown as { shadowRoot: ShadowRoot }).shadowRoot.querySelector('[part~="chart"] canvas');
        if (!chart) problems.push('no chart');
      }
      if (name === 'price-ticker') {
        // a still strip: every item on the paper, none moved by the tape's animation
        for (const [i, item] of [...root.querySelectorAll('[part~="item"]')].entries()) {
          if ((item.closest('[aria-hidden="true"]') ?? item).getBoundingClientRect().height === 0) continue;
          inside(`ticker item ${i}`, item, box);
        }
        const track = root.querySelector<HTMLElement>('.track');
        if (track && getComputedStyle(track).transform !== 'none')
          problems.push(`ticker moved: ${getComputedStyle(track).transform}`);
      }
    }
    return { width, problems };
  });
}

/** The canvas background the chart paints (its top-left pixel), light or not. */
function chartPixel(scope: Page | Frame): Promise<number[]> {
  return scope.evaluate(() => {
    const board = document.querySelector('price-board')!;
    const canvas = board.shadowRoot!.querySelector<HTMLCanvasElement>('[part~="chart"] canvas')!;
    return [...canvas.getContext('2d')!.getImageData(2, 2, 1, 1).data];
  });
}

async function boardReady(scope: Page | Frame): Promise<void> {
  await expect(rows(scope).first().locator('[part~="price"]')).toHaveText(/[۰-۹]/);
  await expect(scope.locator('price-board [part~="chart"] canvas').first()).toBeVisible();
}

for (const colorScheme of ['light', 'dark'] as const) {
  const title = `printed to A4 from 1280 px, every widget fits the paper in the light theme (${colorScheme} preference)`;
  test(title, async ({ page, servers, key, problems }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1280, height: 3000 });
    await page.emulateMedia({ colorScheme });
    await page.goto(servers.site.page(`/print-${colorScheme}.html`, widgetsPage(servers, key)));
    await boardReady(page);
    await expect(page.locator('price-ticker [part~="price"]').first()).toHaveText(/[۰-۹]/);
    await expect(page.locator('price-converter [part~="result"]')).toHaveAttribute('data-state', 'ok');
    const frames = page.locator('iframe');
    await expect(frames).toHaveCount(2);
    const frameScopes: Frame[] = [];
    for (let i = 0; i < 2; i++) {
      const frame = (await frames.nth(i).elementHandle())!;
      const content = (await frame.contentFrame())!;
      await boardReady(content);
      frameScopes.push(content);
    }

    // The printed page: print media at the paper's width (Chromium lays a printout out there).
    await page.emulateMedia({ media: 'print', colorScheme });
    await page.setViewportSize({ width: A4_WIDTH, height: 3000 });
    for (const scope of [page, ...frameScopes]) {
      const where = scope === page ? 'page' : `frame ${scope.url().slice(0, 40)}`;
      await expect
        .poll(async () => (await measureWidgets(scope)).problems, { message: `${where} at ${A4_WIDTH}px printed` })
        .toEqual([]);
      // the chart repaints in the light theme
      await expect
        .poll(async () => (await chartPixel(scope)).slice(0, 3).reduce((a, b) => a + b), { message: `${where} chart` })
        .toBeGreaterThan(600);
    }
    // And as Chromium prints it: a PDF of A4 pages, which throws nothing.
    const pdf = await page.pdf({ format: 'A4', margin: { top: '10mm', bottom: '10mm', left: '10mm', right: '10mm' } });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(problems.all()).toEqual([]);
  });
}
