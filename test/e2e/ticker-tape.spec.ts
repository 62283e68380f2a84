/**
 * The ticker's tape across a live update (DESIGN.md §8: the cell changes in place, the animation
 * neither restarts nor jumps). Every item in view (the copies included: they are what a visitor
 * sees) is sampled at each animation frame; between two frames each moves on by the speed times
 * the time between them, within a small margin, and never back.
 */
import type { Page } from '@playwright/test';
import { expect, htmlPage, persianGrouped, setPrices, test } from './support/fixtures';

const SYMBOLS = ['usd', 'eur', 'gbp', 'aed', 'try', 'cny', 'gold_18', 'coin_emami', 'coin_bahar', 'jpy', 'cad', 'aud'];
/** Sub-pixel layout and a frame's rounding. */
const MARGIN_PX = 2;

interface Sample {
  t: number;
  /** The group's width (one cycle of the loop). */
  width: number;
  viewport: number;
  /** Left edge of each item in view, by copy and place: `2:5`. */
  lefts: Record<string, number>;
}

/** Starts sampling the tape at every animation frame; returns a reader of the samples so far. */
async function sampleTape(page: Page): Promise<() => Promise<Sample[]>> {
  await page.evaluate(() => {
    const samples: Sample[] = [];
    (window as unknown as { samples: Sample[] }).samples = samples;
    const root = document.querySelector('price-ticker')!.shadowRoot!;
    const frame = () => {
      const view = root.querySelector('.viewport')!.getBoundingClientRect();
      const groups = [...root.querySelectorAll('.group')];
      const lefts: Record<string, number> = {};
      groups.forEach((group, g) =>
        [...group.children].forEach((item, i) => {
          const box = item.getBoundingClientRect();
          if (box.right > view.left && box.left < view.right) lefts[`${g}:${i}`] = box.left;
        }),
      );
      samples.push({
        t: performance.now(),
        width: groups[0]!.getBoundingClientRect().width,
        viewport: view.width,
        lefts,
      });
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  return () => page.evaluate(() => (window as unknown as { samples: Sample[] }).samples);
}

/** Every step of an item in view that goes back, or on by more than the speed allows. */
function badSteps(samples: Sample[], speed: number): string[] {
  const bad: string[] = [];
  for (let n = 1; n < samples.length; n++) {
    const [a, b] = [samples[n - 1]!, samples[n]!];
    // The items on either side of a cell that changed width part by that change, once per copy
    // of the cell in view: the one step allowed beyond the speed.
    const parting = Math.abs(b.width - a.width) * Math.ceil(b.viewport / b.width + 1);
    const most = (speed * (b.t - a.t)) / 1000 + MARGIN_PX + parting;
    for (const [key, left] of Object.entries(b.lefts)) {
      if (!(key in a.lefts)) continue;
      // The loop's turn takes every item back by one cycle, onto where its copy was: no move.
      const step = ((((left - a.lefts[key]!) % b.width) + b.width * 1.5) % b.width) - b.width / 2;
      if (step < -MARGIN_PX / 2 || step > most)
        bad.push(`item ${key}: ${step.toFixed(1)} px in ${(b.t - a.t).toFixed(0)} ms (at most ${most.toFixed(1)})`);
    }
  }
  return bad;
}

for (const { count, speed, from, to } of [
  { count: 6, speed: 60, from: '1000000', to: '123456789' }, // three digits more
  { count: 3, speed: 40, from: '1000000', to: '10000000' }, // one digit more
  { count: 12, speed: 120, from: '1000000', to: '1000010' }, // the same width
  { count: 12, speed: 40, from: '123456789', to: '1000000' }, // three digits fewer
]) {
  test(`${count} symbols at speed ${speed}: a live update from ${from} to ${to} moves no item in view back or by a jump`, async ({
    page,
    servers,
    key,
    base,
    problems,
  }) => {
    const symbols = SYMBOLS.slice(0, count);
    const changed = symbols[Math.floor(count / 2)]!;
    await setPrices(
      servers,
      symbols.map((symbol) => ({ symbol, price: from })),
    );
    await page.goto(
      servers.site.page(
        `/tape-${count}-${speed}.html`,
        htmlPage(
          `<price-ticker api-key="${key}" base-url="${base}" symbols="${symbols.join(',')}" speed="${speed}"></price-ticker>`,
          `<script type="module" src="${servers.cdn.url}price-ticker.js"></script>`,
        ),
      ),
    );
    const price = page.locator(`price-ticker .group:first-child [data-symbol="${changed}"] [part~="price"]`);
    // Toman: the price (rial) over ten.
    const toman = (rial: string) =>
      persianGrouped(rial.slice(0, -1)) + (rial.endsWith('0') ? '' : `٫${persianGrouped(rial.slice(-1))}`);
    await expect(price).toHaveText(toman(from));
    await expect
      .poll(() => page.locator('price-ticker').evaluate((el) => (el as HTMLElement & { status: string }).status))
      .toBe('live');
    const samples = await sampleTape(page);
    await expect.poll(async () => (await samples()).length).toBeGreaterThan(20);
    await setPrices(servers, [{ symbol: changed, price: to }]);
    await expect(price).toHaveText(toman(to));
    const shown = (await samples()).length;
    await expect.poll(async () => (await samples()).length).toBeGreaterThan(shown + 20);
    const all = await samples();
    expect(badSteps(all, speed)).toEqual([]);
    expect(problems.all()).toEqual([]);
  });
}
