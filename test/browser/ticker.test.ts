// <price-ticker> against the real sandbox in Chromium: order and Persian digits, a tape that
// moves right without a jump when a price changes, pauses on hover, focus and the button, and
// stands still under prefers-reduced-motion.
import { fixture, html } from '@open-wc/testing-helpers/pure';
import { afterEach, describe, expect, it } from 'vitest';
import { cdp, userEvent } from 'vitest/browser';
import '../../src/price-ticker';
import type { PriceTicker } from '../../src/price-ticker';
import { base, collect, LATIN_DIGIT, sandbox, until, useSandbox } from './helpers/board';
import { frames, q, sampleFrames, tickerItem, tickerItems, type Sample } from './helpers/widgets';

const KEY = 'pro-key:ticker';

useSandbox();

async function ticker(attrs: { symbols?: string; speed?: number } = {}): Promise<PriceTicker> {
  const el = await fixture<PriceTicker>(
    html`<price-ticker base-url=${base()} api-key=${KEY} symbols=${attrs.symbols ?? 'usd,eur,gold_18'} speed=${attrs.speed ?? 40}></price-ticker>`,
  );
  await until(
    () => tickerItems(el).every((i) => /[۰-۹]/.test(i.querySelector('[part~="price"]')!.textContent!)),
    'no prices',
  );
  return el;
}

/** The width of one cycle: the real group of items. */
const cycle = (el: PriceTicker) => q(el, '.group')!.offsetWidth;

/**
 * Steps between samples, folded into one cycle (the loop wraps by exactly one group's width,
 * which looks the same): positive is rightwards.
 */
function steps(samples: Sample[], width: number): { dx: number; dt: number }[] {
  return samples.slice(1).map((s, i) => {
    const raw = s.x - samples[i]!.x;
    return { dx: raw - Math.round(raw / width) * width, dt: s.t - samples[i]!.t };
  });
}

describe('<price-ticker>', () => {
  afterEach(() => cdp().send('Emulation.setEmulatedMedia', { features: [] }));

  it('shows the symbols in order with Persian digits, title, price and signed change', async () => {
    await sandbox.market({ set: [{ symbol: 'usd', price: '1234567890' }] });
    const el = await ticker();
    const root = q(el, '[part~="ticker"]')!;
    expect(root.getAttribute('dir')).toBe('rtl');
    expect(root.getAttribute('lang')).toBe('fa');
    expect(tickerItems(el).map((i) => i.dataset.symbol)).toEqual(['usd', 'eur', 'gold_18']);
    const usd = tickerItem(el, 'usd')!;
    expect(usd.querySelector('[part~="price"]')!.textContent).toBe('۱۲۳٬۴۵۶٬۷۸۹');
    expect(usd.querySelector('[part~="title"]')!.textContent).toBe(el.quotes.get('usd')!.title);
    expect(usd.querySelector('[part~="change"]')!.textContent).toMatch(/٪$/);
    expect(['up', 'down', 'flat']).toContain(usd.dataset.direction);
    for (const item of tickerItems(el)) expect(item.textContent).not.toMatch(LATIN_DIGIT);
  });

  it('lays the items out right to left: the first symbol is rightmost', async () => {
    const el = await ticker();
    const [usd, eur] = [tickerItem(el, 'usd')!, tickerItem(el, 'eur')!];
    expect(usd.getBoundingClientRect().left).toBeGreaterThan(eur.getBoundingClientRect().left);
  });

  it('moves right continuously and does not jump when a price changes', async () => {
    const el = await ticker({ speed: 120 });
    const width = cycle(el);
    const price = () => tickerItem(el, 'eur')!.querySelector('[part~="price"]')!.textContent;
    const before = price();
    const sampling = sampleFrames(
      () => tickerItem(el, 'usd'),
      30,
      () => price() !== before,
    );
    await frames(5);
    await sandbox.market({ set: [{ symbol: 'eur', price: '111111111110' }] }); // wider: re-measured
    const samples = await sampling;
    expect(samples.length).toBeGreaterThan(35);
    const moves = steps(samples, width);
    expect(
      moves.reduce((sum, m) => sum + m.dx, 0),
      'the tape did not move right',
    ).toBeGreaterThan(0);
    // The wider cell pushes the items after it back; the tape moves on by as much so that none
    // in view does: usd, before it, steps on by that growth (per copy of eur in view), once.
    const growth = (cycle(el) - width) * el.shadowRoot!.querySelectorAll('.group').length;
    expect(growth).toBeGreaterThan(0);
    const bound = (dt: number) => (120 * dt) / 1000 + 2;
    for (const { dx, dt } of moves) {
      expect(dx, 'moved left').toBeGreaterThanOrEqual(-0.5);
      // Never further than the speed allows in the time between the two frames (plus rounding).
      expect(dx, 'jumped').toBeLessThanOrEqual(bound(dt) + growth);
    }
    expect(moves.filter(({ dx, dt }) => dx > bound(dt)).length, 'more than one step').toBeLessThanOrEqual(1);
    expect(price()).toBe('۱۱٬۱۱۱٬۱۱۱٬۱۱۱');
  });

  it('sets the cycle from the measured width and the speed', async () => {
    const el = await ticker({ speed: 50 });
    const duration = () => Number(q(el, '.track')!.getAnimations()[0]?.effect?.getTiming().duration);
    // The width settles once the items are laid out (a resize observer re-measures).
    await until(
      () => Math.abs(duration() - (cycle(el) / 50) * 1000) < 1,
      'the cycle does not follow the width at 50 px/s',
    );
    el.speed = 100;
    await until(() => Math.abs(duration() - (cycle(el) / 100) * 1000) < 1, 'speed not applied');
  });

  it('covers the viewport with copies however few the symbols, copies hidden from assistive tech', async () => {
    const el = await ticker({ symbols: 'usd' });
    const groups = [...el.shadowRoot!.querySelectorAll<HTMLElement>('.group')];
    const viewport = q(el, '.viewport')!;
    expect(groups.length * cycle(el)).toBeGreaterThanOrEqual(viewport.clientWidth + cycle(el));
    for (const copy of groups.slice(1)) {
      expect(copy.getAttribute('aria-hidden')).toBe('true');
      expect(copy.inert).toBe(true);
    }
  });

  it('pauses on hover and moves again when the pointer leaves', async () => {
    const el = await ticker({ speed: 120 });
    await userEvent.hover(q(el, '.viewport')!);
    await frames(2);
    const still = await sampleFrames(() => tickerItem(el, 'usd'), 10);
    expect(new Set(still.map((s) => s.x)).size).toBe(1);
    await userEvent.unhover(q(el, '.viewport')!);
    await until(async () => {
      const s = await sampleFrames(() => tickerItem(el, 'usd'), 3);
      return s[2]!.x !== s[0]!.x;
    }, 'the tape did not move again');
  });

  it('keyboard: each item takes focus, which pauses the tape; the pause button stops it too', async () => {
    const el = await ticker({ speed: 120 });
    for (const item of tickerItems(el)) expect(item.tabIndex).toBe(0);
    tickerItem(el, 'eur')!.focus();
    await frames(2);
    const still = await sampleFrames(() => tickerItem(el, 'usd'), 8);
    expect(new Set(still.map((s) => s.x)).size).toBe(1);
    tickerItem(el, 'eur')!.blur();
    const button = q<HTMLButtonElement>(el, 'button.pause')!;
    expect(button.getAttribute('aria-pressed')).toBe('false');
    button.click();
    await until(() => button.getAttribute('aria-pressed') === 'true', 'not pressed');
    await frames(2);
    const paused = await sampleFrames(() => tickerItem(el, 'usd'), 8);
    expect(new Set(paused.map((s) => s.x)).size).toBe(1);
  });

  it('is a still strip, scrollable by hand, under prefers-reduced-motion', async () => {
    await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-reduced-motion', value: 'reduce' }] });
    const el = await ticker({ speed: 200, symbols: 'usd,eur,gold_18,coin_emami,ons,gbp,aed,try' });
    const samples = await sampleFrames(() => tickerItem(el, 'usd'), 10);
    expect(new Set(samples.map((s) => s.x)).size).toBe(1);
    expect(q(el, '.track')!.getAnimations()).toHaveLength(0);
    expect(el.shadowRoot!.querySelectorAll('.group')).toHaveLength(1);
    expect(getComputedStyle(q(el, '.viewport')!).overflowX).toBe('auto');
    expect(q(el, 'button.pause')).toBeNull();
  });

  it('says its unit after each price: تومان, ریال with unit="rial", دلار for the dollar-priced', async () => {
    const el = await ticker({ symbols: 'usd,gold_18,ons' });
    const unitOf = (item: HTMLElement) =>
      item.textContent!.replace(item.querySelector('[part~="title"]')!.textContent!, '');
    expect(unitOf(tickerItem(el, 'usd')!)).toContain('تومان');
    expect(unitOf(tickerItem(el, 'gold_18')!)).toContain('تومان');
    expect(unitOf(tickerItem(el, 'ons')!)).toContain('دلار');
    expect(unitOf(tickerItem(el, 'ons')!)).not.toContain('تومان');
    el.setAttribute('unit', 'rial');
    await until(() => unitOf(tickerItem(el, 'usd')!).includes('ریال'), 'no ریال');
    expect(unitOf(tickerItem(el, 'usd')!)).not.toContain('تومان');
  });

  it('draws its pause control (no emoji glyph) and shows when a tap has paused it', async () => {
    const el = await ticker();
    const button = q<HTMLButtonElement>(el, 'button.pause')!;
    // No character to draw: nothing depends on an emoji font.
    expect(button.textContent!.trim()).toBe('');
    const icon = q(el, 'button.pause .icon')!;
    const look = () => {
      const i = getComputedStyle(icon);
      const b = getComputedStyle(button);
      return `${i.width} ${i.borderLeftWidth} ${i.borderRightWidth} ${i.borderTopWidth} ${b.backgroundColor} ${b.color}`;
    };
    expect(icon.getBoundingClientRect().width).toBeGreaterThan(4);
    expect(icon.getBoundingClientRect().height).toBeGreaterThan(4);
    const playing = look();
    await userEvent.click(button);
    await until(() => button.getAttribute('aria-pressed') === 'true', 'not pressed');
    await el.updateComplete;
    expect(look()).not.toBe(playing);
    await userEvent.click(button);
    await until(() => button.getAttribute('aria-pressed') === 'false', 'not released');
    await el.updateComplete;
    expect(look()).toBe(playing);
  });

  it('fires price-board-status and shares the board events', async () => {
    const statuses = collect<{ status: string }>(document, 'price-board-status');
    await ticker();
    await until(() => statuses.some((e) => e.detail.status === 'live'), 'no live status');
  });

  it('shows a Persian error instead of an empty tape, and fires price-board-error', async () => {
    const errors = collect<{ code: string; message: string }>(document, 'price-board-error');
    const el = await fixture<PriceTicker>(
      html`<price-ticker base-url=${base()} api-key="no-such-key" symbols="usd"></price-ticker>`,
    );
    await until(() => q(el, '[part~="error"]')?.dataset.code === 'unauthorized', 'no error shown');
    expect(q(el, '[part~="error"]')!.textContent).toMatch(/[\u0600-\u06FF]/);
    expect(errors.some((e) => e.detail.code === 'unauthorized' && e.target === el)).toBe(true);
    expect(JSON.stringify(errors.map((e) => e.detail))).not.toContain('no-such-key');
  });
});
