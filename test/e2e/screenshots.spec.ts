/**
 * Screenshots of the board, the ticker and the converter for the README and docs/elements/, light and dark (reduced
 * motion: the ticker stands still): the iframe host page, which loads
 * Vazirmatn (Chromium here has no Persian font of its own). Written to docs/ by
 * `npm run screenshots` only (playwright.config.ts leaves this file out of `npm test`).
 */
import { fileURLToPath } from 'node:url';
import { expect, rows, sandboxBase, test } from './support/fixtures';

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));

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
      const loaded = [...document.fonts].some((f) => f.family.replace(/["']/g, '') === 'Vazirmatn' && f.status === 'loaded');
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
      await page.evaluate(async () => {
        await document.fonts.load('16px Vazirmatn', 'قیمت');
        await document.fonts.ready;
      });
      await page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
      await page.locator(`price-${widget}`).screenshot({ path: `${DOCS}screenshot-${widget}-${theme}.png`, animations: 'disabled' });
      expect(problems.all()).toEqual([]);
    });
  }
}
