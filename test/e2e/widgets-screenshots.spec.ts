/**
 * Screenshots of <price-ticker> and <price-converter> for the README, light and dark, from the
 * iframe host page (which loads Vazirmatn). Reduced motion: the ticker stands still. Written to docs/.
 */
import { fileURLToPath } from 'node:url';
import { expect, sandboxBase, test } from './support/fixtures';

const DOCS = fileURLToPath(new URL('../../docs/', import.meta.url));

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
      await page.locator(`price-${widget}`).screenshot({ path: `${DOCS}screenshot-${widget}-${theme}.png`, animations: 'disabled' });
      expect(problems.all()).toEqual([]);
    });
  }
}
