// <price-board> against the real sandbox in Chromium (fa-IR, Asia/Tehran): the shadow DOM
// contract (parts, data attributes), Persian output, live updates reaching rows, and the events.
import { fixture, html } from '@open-wc/testing-helpers/pure';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cdp } from 'vitest/browser';
import { statusText } from '../../src/board/status-text';
import '../../src/price-board';
import type { PriceBoard } from '../../src/price-board';
import type { Quote } from '../../src/shared/types';
import {
  base,
  cell,
  collect,
  frameCounter,
  LATIN_DIGIT,
  liveBoard,
  nextPaint,
  part,
  row,
  rows,
  sandbox,
  symbolsShown,
  until,
  untilLoaded,
  useSandbox,
} from './helpers/board';

const KEY = 'pro-key:board-render';

useSandbox();

describe('<price-board> rendering', () => {
  let consoleError: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    consoleError = vi.spyOn(console, 'error');
  });
  afterEach(() => consoleError.mockRestore());

  it('is defined once: define() again and a second define of the tag do not throw', async () => {
    const { PriceBoard } = await import('../../src/price-board');
    expect(customElements.get('price-board')).toBe(PriceBoard);
    expect(() => PriceBoard.define()).not.toThrow();
    expect(() => PriceBoard.define('price-board')).not.toThrow();
    expect(customElements.get('price-board')).toBe(PriceBoard);
  });

  it('loading the entry module again does not throw', async () => {
    await expect(import(/* @vite-ignore */ `../../src/price-board.ts?again=${Date.now()}`)).resolves.toBeDefined();
    expect(customElements.get('price-board')).toBeDefined();
  });

  it('shows a loading skeleton before the first data, never a blank box', async () => {
    await sandbox.faults([{ path: '/v1/prices', kind: 'slow', delayMs: 800, key: KEY }]);
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} stream="poll" chart="none" symbols="usd,eur"></price-board>`,
    );
    expect(part(el, 'status')?.dataset.status).toBe('loading');
    expect(rows(el)).toHaveLength(2);
    expect(el.shadowRoot!.querySelectorAll('.skeleton').length).toBeGreaterThan(0);
    expect(part(el, 'status')?.textContent?.trim()).not.toBe('');
    await untilLoaded(el);
    expect(el.shadowRoot!.querySelectorAll('[part~="row"] .skeleton')).toHaveLength(0);
  });

  it('renders the shadow DOM contract: board root, one row per symbol with its cells, status', async () => {
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" symbols="usd,gold_18,ons"></price-board>`,
    );
    await untilLoaded(el);
    const board = part(el, 'board')!;
    expect(board.getAttribute('dir')).toBe('rtl');
    expect(board.getAttribute('lang')).toBe('fa');
    expect(symbolsShown(el)).toEqual(['usd', 'gold_18', 'ons']);
    for (const r of rows(el)) {
      expect(['up', 'down', 'flat']).toContain(r.dataset.direction);
      for (const name of ['title', 'price', 'change', 'high', 'low', 'time']) {
        expect(r.querySelector(`[part~="${name}"]`), name).not.toBeNull();
      }
    }
    // Rows may paint before the stream has opened (status still 'loading' then): wait for it.
    await until(() => ['live', 'polling'].includes(part(el, 'status')!.dataset.status ?? ''), 'no live status');
    expect(part(el, 'error')).toBeNull();
    expect(part(el, 'chart')).toBeNull();
    expect(el.status).toBe(part(el, 'status')!.dataset.status);
  });

  it('shows Persian titles and Persian-digit values exactly as the service sent them', async () => {
    await sandbox.market({ set: [{ symbol: 'usd', price: '1234567890' }] });
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" symbols="usd,ons"></price-board>`,
    );
    await untilLoaded(el);
    const usd = el.quotes.get('usd')!;
    expect(usd.price).toBe('1234567890');
    // toman = rial / 10, exact, grouped with U+066C
    expect(cell(el, 'usd', 'price')).toBe('۱۲۳٬۴۵۶٬۷۸۹');
    expect(cell(el, 'usd', 'title')).toBe(usd.title);
    expect(cell(el, 'usd', 'title')).toMatch(/[\u0600-\u06FF]/);
    // ons: US dollars with two decimals, marked as dollars
    expect(cell(el, 'ons', 'price')).toMatch(/^[۰-۹٬]+٫[۰-۹]{2}$/);
    expect(row(el, 'ons')!.querySelector('[part~="price"]')!.getAttribute('data-unit')).toBe('دلار');
    for (const r of rows(el)) {
      for (const name of ['price', 'change', 'high', 'low', 'time']) {
        const text = r.querySelector(`[part~="${name}"]`)!.textContent!;
        expect(text, `${r.dataset.symbol} ${name}`).not.toMatch(LATIN_DIGIT);
        expect(text.trim(), `${r.dataset.symbol} ${name}`).not.toBe('');
      }
    }
  });

  it('shows the change as a signed Persian percent with an arrow matching data-direction', async () => {
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" symbols="usd,eur,gold_18,coin_emami"></price-board>`,
    );
    await untilLoaded(el);
    for (const r of rows(el)) {
      const change = r.querySelector('[part~="change"]')!.textContent!.trim();
      const q = el.quotes.get(r.dataset.symbol!)!;
      const dir = r.dataset.direction;
      if (dir === 'up') {
        expect(change).toMatch(/^▲\s*\u200E\+[۰-۹]+٫[۰-۹]{2}٪$/);
        expect(Number(q.change_pct)).toBeGreaterThan(0);
      } else if (dir === 'down') {
        expect(change).toMatch(/^▼\s*\u200E\u2212[۰-۹]+٫[۰-۹]{2}٪$/);
        expect(Number(q.change_pct)).toBeLessThan(0);
      } else {
        expect(change).toBe('۰٪');
      }
    }
  });

  it('shows a stream update in the row without a new /v1/prices request', async () => {
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" stream="sse" symbols="usd,eur"></price-board>`,
    );
    await untilLoaded(el);
    await until(() => el.status === 'live', 'stream did not go live');
    const before = (await sandbox.requests(KEY, '/v1/prices')).length;
    await sandbox.market({ set: [{ symbol: 'usd', price: '987654320' }] });
    await until(() => cell(el, 'usd', 'price') === '۹۸٬۷۶۵٬۴۳۲', 'the pushed price did not reach the row');
    expect(el.quotes.get('usd')!.price).toBe('987654320');
    expect((await sandbox.requests(KEY, '/v1/prices')).length).toBe(before);
  });

  it('flashes a changed price cell for a moment, with no animation running, and again on the next change', async () => {
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" stream="sse" symbols="eur,usd"></price-board>`,
    );
    await untilLoaded(el);
    await until(() => el.status === 'live', 'stream did not go live');
    const price = (symbol: string) => row(el, symbol)!.querySelector('[part~="price"]')!;
    /** The tint behind the digits, as the visitor sees it: a background colour, or none. */
    const tint = (symbol: string) => {
      const color = getComputedStyle(price(symbol).querySelector('.value')!).backgroundColor;
      return color === 'rgba(0, 0, 0, 0)' ? undefined : color;
    };
    expect(tint('eur')).toBeUndefined();
    await sandbox.market({ set: [{ symbol: 'eur', price: '1111110' }] });
    await until(() => tint('eur') !== undefined, 'no flash');
    expect(tint('usd'), 'an unchanged price flashed').toBeUndefined();
    // Not animated: a running animation per flashing cell costs style work on every frame (flash.ts).
    expect(el.shadowRoot!.getAnimations()).toEqual([]);
    // It ends by itself, with no other quote to end it (how soon: test/unit/board/flash.test.ts).
    await until(() => tint('eur') === undefined, 'the flash did not end');
    // The next change flashes again.
    await sandbox.market({ set: [{ symbol: 'eur', price: '1111120' }] });
    await until(() => tint('eur') !== undefined, 'no flash on the second change');
  });

  it('marks a row stale when its quote is old (market closed) and shows when it last changed', async () => {
    const old = new Date(Date.now() - 3 * 86_400_000).toISOString();
    await sandbox.market({ set: [{ symbol: 'eur', price: '1000000', updated_at: old }] });
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" symbols="usd,eur"></price-board>`,
    );
    await untilLoaded(el);
    expect(row(el, 'eur')!.hasAttribute('data-stale')).toBe(true);
    // three days ago: a Jalali date (۱۴۰۵/۰۹/۰۱), not a time
    expect(cell(el, 'eur', 'time')).toMatch(/^[۰-۹]{4}\/[۰-۹]{2}\/[۰-۹]{2}$/);
    expect(row(el, 'eur')!.querySelector('[part~="time"]')!.getAttribute('title')).toMatch(/آخرین تغییر/);
    expect(row(el, 'usd')!.hasAttribute('data-stale')).toBe(false);
  });

  it('marks a symbol the service did not return as missing: dashes, in its title too (never its id), never blank', async () => {
    await sandbox.faults([{ path: '/v1/prices', kind: 'omit_symbol', symbol: 'eur' }]);
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" stream="poll" symbols="usd,eur,gbp"></price-board>`,
    );
    await untilLoaded(el);
    await until(() => row(el, 'eur')!.hasAttribute('data-missing'), 'eur not marked missing');
    expect(cell(el, 'eur', 'title')).toBe('—');
    expect(cell(el, 'eur', 'price')).toBe('—');
    expect(row(el, 'usd')!.hasAttribute('data-missing')).toBe(false);
    expect(row(el, 'gbp')!.hasAttribute('data-missing')).toBe(false);
    expect(el.quotes.has('eur')).toBe(false);
  });

  it('logs no console error on the happy path', async () => {
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} symbols="usd,eur"></price-board>`,
    );
    await untilLoaded(el);
    await until(
      () => part(el, 'chart')?.dataset.status === 'ready' && !!part(el, 'chart')!.querySelector('canvas'),
      'no chart',
    );
    // The history is drawn; the last work of the happy path is painting it.
    await nextPaint();
    expect(consoleError).not.toHaveBeenCalled();
  });
});

describe('<price-board> events', () => {
  it('fires price-board-status (loading → live) and price-board-quotes with the applied quotes', async () => {
    const statuses = collect<{ status: string }>(document, 'price-board-status');
    const batches = collect<{ quotes: Quote[] }>(document, 'price-board-quotes');
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${`${KEY}-ev`} stream="sse" chart="none" symbols="usd,eur"></price-board>`,
    );
    await until(() => statuses.some((e) => e.detail.status === 'live'), 'no live status');
    await until(() => batches.length > 0, 'no quotes event');
    const first = batches[0]!;
    expect(first.bubbles).toBe(true);
    expect(first.composed).toBe(true);
    expect(first.detail.quotes.map((q) => q.symbol).sort()).toEqual(['eur', 'usd']);
    expect(statuses.every((e) => e.bubbles && e.composed)).toBe(true);
    expect([...el.quotes.keys()]).toEqual(['usd', 'eur']);

    const n = batches.length;
    await sandbox.market({ set: [{ symbol: 'eur', price: '1234500' }] });
    // The sandbox's market moves on its own too: a tick of eur may come before the one set here.
    await until(
      () =>
        batches
          .slice(n)
          .flatMap((e) => e.detail.quotes)
          .some((q) => q.symbol === 'eur' && q.price === '1234500'),
      'no quotes event with the price set',
    );
  });

  it('fires price-board-quotes at most once per animation frame', async () => {
    const batches = collect<{ quotes: Quote[] }>(document, 'price-board-quotes');
    await liveBoard(`${KEY}-frame`, { chart: 'none', symbols: 'usd,eur,gbp' });
    const frames: number[] = [];
    const counter = frameCounter(() => frames.push(batches.length));
    const n = batches.length;
    await sandbox.market({
      set: [
        { symbol: 'usd', price: '900000' },
        { symbol: 'eur', price: '1000000' },
        { symbol: 'gbp', price: '1100000' },
      ],
    });
    await until(() => batches.slice(n).flatMap((e) => e.detail.quotes).length >= 3, 'pushed quotes did not arrive');
    counter.stop();
    for (let i = 1; i < frames.length; i++) expect(frames[i]! - frames[i - 1]!).toBeLessThanOrEqual(1);
  });

  it('renders a live batch in a task of its own, not in an animation frame callback with the frame’s layout and paint', async () => {
    const el = await liveBoard(`${KEY}-task`, { chart: 'none', symbols: 'usd,eur' });
    // Every animation frame callback from now on marks the time it runs.
    const real = window.requestAnimationFrame;
    let inFrame = 0;
    window.requestAnimationFrame = (callback) =>
      real((time) => {
        inFrame++;
        try {
          callback(time);
        } finally {
          inFrame--;
        }
      });
    const seen: { inFrame: number; price: string | undefined }[] = [];
    const onQuotes = () => seen.push({ inFrame, price: el.quotes.get('eur')?.price });
    el.addEventListener('price-board-quotes', onQuotes);
    try {
      await sandbox.market({ set: [{ symbol: 'eur', price: '1234600' }] });
      await until(() => seen.some((s) => s.price === '1234600'), 'the pushed price was not applied');
      await until(() => cell(el, 'eur', 'price').includes('۱۲۳٬۴۶۰'), 'the pushed price was not rendered');
    } finally {
      window.requestAnimationFrame = real;
      el.removeEventListener('price-board-quotes', onQuotes);
    }
    expect(seen.map((s) => s.inFrame)).toEqual(seen.map(() => 0));
  });
});

describe('status line', () => {
  it('beside a failure shown it says it is connecting again: never live, a poll period, loading or the market', () => {
    const opts = { stream: 'auto', pollInterval: 30, delaySeconds: 0 };
    for (const status of ['live', 'polling', 'loading'] as const) {
      expect(statusText(status, opts, undefined, true)).toBe('در حال اتصال دوباره…');
      expect(statusText(status, opts, '۱۲:۳۰', true)).toBe('در حال اتصال دوباره…');
    }
    expect(statusText('error', opts, undefined, true)).toBe('خطا در دریافت قیمت‌ها');
  });

  it('says each connection state in Persian, with the poll period and any delay', () => {
    const opts = { stream: 'auto', pollInterval: 30, delaySeconds: 0 };
    expect(statusText('live', opts)).toBe('زنده');
    expect(statusText('polling', opts)).toBe('به‌روزرسانی هر ۳۰ ثانیه');
    expect(statusText('polling', { ...opts, stream: 'off' })).toBe('بدون به‌روزرسانی خودکار');
    expect(statusText('reconnecting', opts)).toMatch(/اتصال دوباره/);
    expect(statusText('offline', opts)).toMatch(/اتصال/);
    expect(statusText('loading', opts)).toMatch(/دریافت/);
    expect(statusText('live', { ...opts, delaySeconds: 60 })).toBe('زنده · با ۶۰ ثانیه تأخیر');
    // Fractions with the Persian decimal separator, never a Latin point.
    expect(statusText('polling', { ...opts, pollInterval: 2.5 })).toBe('به‌روزرسانی هر ۲٫۵ ثانیه');
    expect(statusText('live', { ...opts, delaySeconds: 1.5 })).toBe('زنده · با ۱٫۵ ثانیه تأخیر');
    expect(statusText('live', { ...opts, delaySeconds: 3600 })).toBe('زنده · با ۳۶۰۰ ثانیه تأخیر');
  });

  it('shows reconnecting when the stream drops, then live again', async () => {
    const key = `${KEY}-drop`;
    await sandbox.faults([{ path: '/v1/stream', kind: 'drop_stream', afterEvents: 1, count: 1, key }]);
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} stream="sse" chart="none" symbols="usd"></price-board>`,
    );
    await until(() => part(el, 'status')!.dataset.status === 'reconnecting', 'no reconnecting state');
    await until(() => /اتصال دوباره/.test(part(el, 'status')!.textContent ?? ''), 'status text'); // with the board's extras
    expect(/[۰-۹]/.test(cell(el, 'usd', 'price'))).toBe(true); // keeps what it knew
    await until(() => el.status === 'live', 'did not come back live', 15_000);
  }, 20_000);
});

describe('reduced motion', () => {
  afterEach(async () => {
    await cdp().send('Emulation.setEmulatedMedia', { features: [] });
  });

  it('does not animate the price flash or the skeleton under prefers-reduced-motion', async () => {
    await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-reduced-motion', value: 'reduce' }] });
    const key = `${KEY}-motion`;
    const el = await liveBoard(key, { chart: 'none', symbols: 'usd' });
    await sandbox.market({ set: [{ symbol: 'usd', price: '1212120' }] });
    const price = () => row(el, 'usd')!.querySelector('[part~="price"]')!;
    await until(() => /flash/.test(price().className), 'no flash class');
    // The changed price shows no tint, and nothing animates.
    expect(getComputedStyle(price().querySelector('.value')!).backgroundColor).toBe('rgba(0, 0, 0, 0)');
    expect(el.shadowRoot!.getAnimations()).toEqual([]);
  });
});
