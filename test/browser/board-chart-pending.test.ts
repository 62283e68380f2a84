// The chart section's template and styles come with the board's extras (a chunk loaded once the
// first render is painted). Until then the board keeps the section's room (`.chart-pending`), so the
// page below the board does not move when the section arrives. Heights measured in Chromium, at
// the wide layout and at the compact one (a shorter chart).
import { describe, expect, it } from 'vitest';
import '../../src/price-board';
import type { PriceBoard } from '../../src/price-board';
import { base, newBoard, shadow, until, untilLoaded, useSandbox } from './helpers/board';

useSandbox();

async function boardOfWidth(width: number): Promise<PriceBoard> {
  const el = newBoard({ 'base-url': base(), 'api-key': `pro-key:pending-${width}`, symbols: 'usd,eur', stream: 'off' });
  el.style.width = `${width}px`;
  document.body.append(el);
  await untilLoaded(el);
  await until(() => shadow(el).querySelector('.chart-section') !== null, 'the chart section');
  return el;
}

describe('<price-board> before its extras', () => {
  for (const width of [900, 600]) {
    it(`keeps the chart section's room (${width} px wide)`, async () => {
      const el = await boardOfWidth(width);
      const section = shadow(el).querySelector<HTMLElement>('.chart-section')!;
      // A placeholder as the first render makes it, beside the real section, under the same styles.
      const pending = document.createElement('div');
      pending.className = 'chart-pending';
      section.before(pending);
      const room = pending.getBoundingClientRect().height + parseFloat(getComputedStyle(pending).marginBlockStart);
      const real = section.getBoundingClientRect().height + parseFloat(getComputedStyle(section).marginBlockStart);
      pending.remove();
      expect(real).toBeGreaterThan(200);
      expect(Math.abs(room - real)).toBeLessThanOrEqual(1);
    });
  }
});
