// The chart area of <price-board>: lazy chart, history per chart-symbol and days, the span
// fallback of smaller plans, live candles, the Jalali axis/legend, and errors kept in the chart area.
import { elementUpdated, fixture, html } from '@open-wc/testing-helpers/pure';
import { describe, expect, it, vi } from 'vitest';
import { cdp } from 'vitest/browser';
import '../../src/price-board';
import { JalaliTimeScale } from '../../src/chart/jalali-scale';
import type { PriceBoard } from '../../src/price-board';
import type { ErrorDetail } from '../../src/shared/errors';
import {
  base,
  cell,
  collect,
  frameCounter,
  LATIN_DIGIT,
  liveBoard,
  part,
  relay,
  row,
  sandbox,
  until,
  untilLoaded,
  useSandbox,
  watchFetch,
} from './helpers/board';

const KEY = 'pro-key:board-chart';
const JALALI_MONTHS = /فروردین|اردیبهشت|خرداد|تیر|مرداد|شهریور|مهر|آبان|آذر|دی|بهمن|اسفند/;

useSandbox();

const canvas = (el: PriceBoard) => part(el, 'chart')?.querySelector('canvas') ?? null;
const legend = (el: PriceBoard) => el.shadowRoot!.querySelector('[part~="chart-legend"]')?.textContent ?? '';
const caption = (el: PriceBoard) => part(el, 'chart')?.querySelector('figcaption')?.textContent ?? '';
const untilChart = (el: PriceBoard) =>
  until(
    () => !!canvas(el) && part(el, 'chart')!.dataset.status === 'ready' && JALALI_MONTHS.test(legend(el)),
    'the chart did not draw',
  );
const history = async (key: string) =>
  (await sandbox.requests(key, '/v1/history/')).map(
    (r) => `${r.path.slice('/v1/history/'.length)}?${new URL(r.url, 'http://x').searchParams.get('days')}:${r.status}`,
  );
const spanButton = (el: PriceBoard, days: number) =>
  el.shadowRoot!.querySelector<HTMLButtonElement>(`button[data-days="${days}"]`)!;

describe('chart', () => {
  it('draws candles of the first symbol over 30 days, with Jalali dates and Persian digits', async () => {
    const key = `${KEY}-default`;
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} symbols="usd,eur"></price-board>`,
    );
    await untilChart(el);
    expect(await history(key)).toEqual(['usd?30:200']);
    expect(legend(el)).not.toMatch(LATIN_DIGIT);
    expect(caption(el)).toMatch(/آخرین شمع/);
    expect(caption(el)).toMatch(JALALI_MONTHS);
    expect(row(el, 'usd')!.getAttribute('aria-current')).toBe('true');
    expect(spanButton(el, 30).getAttribute('aria-pressed')).toBe('true');
    expect(spanButton(el, 7).getAttribute('aria-pressed')).toBe('false');
    expect(spanButton(el, 365).getAttribute('aria-pressed')).toBe('false');
  });

  it('chart="none" shows no chart area and fetches no history; switching types happens in place', async () => {
    const key = `${KEY}-none`;
    const sent = watchFetch();
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} chart="none" symbols="usd"></price-board>`,
    );
    await untilLoaded(el);
    // A history load starts in the update that shows the chart area (its code loads first): no
    // chart area, nothing asked.
    expect(part(el, 'chart')).toBeNull();
    expect(sent.filter((u) => u.startsWith('/v1/history/'))).toEqual([]);
    expect(await history(key)).toEqual([]);

    el.chart = 'line';
    await untilChart(el);
    expect(await history(key)).toEqual(['usd?30:200']);
    const drawn = canvas(el);
    const sentAfterLine = sent.length;
    el.setAttribute('chart', 'candles');
    await elementUpdated(el);
    // A reload would start its request in this update.
    expect(sent.slice(sentAfterLine)).toEqual([]);
    expect(canvas(el)).toBe(drawn);
    expect(await history(key)).toEqual(['usd?30:200']);

    el.chart = 'none';
    await elementUpdated(el);
    expect(part(el, 'chart')).toBeNull();
  });

  it('an invalid chart value falls back to candles', async () => {
    const errors = collect<ErrorDetail>(document, 'price-board-error');
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="pie" symbols="usd"></price-board>`,
    );
    await untilChart(el);
    expect(errors.map((e) => e.detail.code)).toEqual(['invalid_attribute']);
  });

  it('chart-symbol picks the charted symbol; changing it fetches only that history', async () => {
    const key = `${KEY}-sym`;
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} symbols="usd,eur" chart-symbol="eur"></price-board>`,
    );
    await untilChart(el);
    expect(row(el, 'eur')!.getAttribute('aria-current')).toBe('true');
    expect(row(el, 'usd')!.hasAttribute('aria-current')).toBe(false);
    expect(el.shadowRoot!.querySelector('.chart-title')!.textContent).toBe(el.quotes.get('eur')?.title ?? '…');
    el.chartSymbol = 'usd';
    await until(async () => (await history(key)).length === 2, 'no history for usd');
    await untilChart(el);
    expect(await history(key)).toEqual(['eur?30:200', 'usd?30:200']);
  });

  it('a chart-symbol not on the board falls back to the first symbol with invalid_attribute', async () => {
    const errors = collect<ErrorDetail>(document, 'price-board-error');
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} symbols="usd,eur" chart-symbol="gbp"></price-board>`,
    );
    expect(row(el, 'usd')!.getAttribute('aria-current')).toBe('true');
    expect(errors.map((e) => e.detail.code)).toEqual(['invalid_attribute']);
    expect(errors[0]!.detail.message).toMatch(/chart-symbol/);
  });

  it('clicking a row charts it and fires price-board-select', async () => {
    const key = `${KEY}-click`;
    const selects = collect<{ symbol: string }>(document, 'price-board-select');
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} symbols="usd,eur"></price-board>`,
    );
    await untilChart(el);
    row(el, 'eur')!.click();
    await elementUpdated(el);
    expect(el.chartSymbol).toBe('eur');
    expect(el.getAttribute('chart-symbol')).toBe('eur');
    expect(selects.map((e) => e.detail)).toEqual([{ symbol: 'eur' }]);
    expect(selects[0]!.bubbles && selects[0]!.composed).toBe(true);
    await until(async () => (await history(key)).includes('eur?30:200'), 'no eur history');
    row(el, 'eur')!.click(); // already selected: no event
    expect(selects).toHaveLength(1);
  });

  it('the span buttons switch days (7 / 30 / 365)', async () => {
    const key = `${KEY}-days`;
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} symbols="usd"></price-board>`,
    );
    await untilChart(el);
    spanButton(el, 7).click();
    await elementUpdated(el);
    expect(el.days).toBe(7);
    expect(el.getAttribute('days')).toBe('7');
    await untilChart(el);
    expect(spanButton(el, 7).getAttribute('aria-pressed')).toBe('true');
    el.setAttribute('days', '365');
    await until(async () => (await history(key)).length === 3, 'no 365-day history');
    expect(await history(key)).toEqual(['usd?30:200', 'usd?7:200', 'usd?365:200']);
    // back to 30: fetched before, so no request (it would leave in the click's update)
    const sent = watchFetch();
    spanButton(el, 30).click();
    await untilChart(el);
    expect(sent).toEqual([]);
    expect((await history(key)).length).toBe(3);
  });

  it('an invalid days value falls back to 30', async () => {
    const errors = collect<ErrorDetail>(document, 'price-board-error');
    const key = `${KEY}-baddays`;
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} symbols="usd" days="14"></price-board>`,
    );
    await untilChart(el);
    expect(errors.map((e) => e.detail.code)).toEqual(['invalid_attribute']);
    expect(await history(key)).toEqual(['usd?30:200']);
  });

  it('falls back 365 → 30 on a basic plan and says so in Persian', async () => {
    const key = 'basic-key:board-chart';
    const errors = collect<ErrorDetail>(document, 'price-board-error');
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} symbols="usd" days="365"></price-board>`,
    );
    await untilChart(el);
    expect(await history(key)).toEqual(['usd?365:403', 'usd?30:200']);
    const note = el.shadowRoot!.querySelector('.chart-note')!.textContent!;
    expect(note).toMatch(/۳۶۵/);
    expect(note).toMatch(/۳۰/);
    expect(spanButton(el, 30).getAttribute('aria-pressed')).toBe('true');
    expect(errors).toHaveLength(0); // handled: a note, not an error
    expect(part(el, 'error')).toBeNull();
  });

  it('falls back 365 → 30 → 7 on a demo plan, and remembers the limit for the next symbol', async () => {
    const key = 'demo-key:board-chart';
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} symbols="usd,eur" days="365"></price-board>`,
    );
    await untilChart(el);
    expect(await history(key)).toEqual(['usd?365:403', 'usd?30:403', 'usd?7:200']);
    expect(el.shadowRoot!.querySelector('.chart-note')!.textContent).toMatch(/۷/);
    el.chartSymbol = 'eur';
    await until(async () => (await history(key)).length === 4, 'no eur history');
    expect((await history(key))[3]).toBe('eur?7:200');
  });

  it('days="1" through a relay: today\'s changes as 5-minute candles, Tehran times on the axis, nothing asked upstream', async () => {
    const format = vi.spyOn(JalaliTimeScale.prototype, 'formatTickmark');
    // Changes in the last hour, in four 5-minute periods (the relay's upstream market is closed
    // since an hour ago, so each is newer than what it held); the relay records them as it relays them.
    const now = Date.now();
    const changes = [40, 30, 20, 10].map((minutes, i) => ({
      symbol: 'usd',
      price: String(1_234_500 + i * 1_000),
      updated_at: new Date(now - minutes * 60_000).toISOString(),
    }));
    await relay.set(changes);
    await until(async () => {
      const res = await fetch(`${relay.url()}/v1/history/usd?days=1`);
      return res.ok && (await res.text()).includes('"close":"1237500"');
    }, 'the relay did not record the changes');
    const sent = watchFetch();
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${relay.url()} symbols="usd" days="1" unit="rial"></price-board>`,
    );
    await untilChart(el);
    expect(sent.filter((u) => u.startsWith('/v1/history/'))).toEqual(['/v1/history/usd?days=1']);
    expect(spanButton(el, 1).getAttribute('aria-pressed')).toBe('true');
    expect(el.shadowRoot!.querySelector('.chart-note')).toBeNull();
    // The last candle: the 5-minute period of the last change, its time in Tehran, its price.
    const tehranTime = new Intl.DateTimeFormat('fa-IR', {
      timeZone: 'Asia/Tehran',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const lastPeriod = Math.floor((now - 10 * 60_000) / 300_000) * 300_000;
    expect(caption(el)).toContain(tehranTime.format(lastPeriod));
    expect(caption(el)).toContain('پایانی ۱٬۲۳۷٬۵۰۰');
    // The axis: hours and minutes in Tehran (Persian digits) beside the first label, the date. When the changes
    // straddle Tehran's midnight (a run between 00:00 and 00:40 there), the tick that matters is the new day's date,
    // and with four candles it may be the only one drawn: then the caption above is what shows the time.
    const tehranDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tehran' });
    const day = (iso: string) => tehranDay.format(new Date(iso));
    if (day(changes[0]!.updated_at) === day(changes[3]!.updated_at))
      await until(
        () => format.mock.results.some((r) => /^[۰-۹]{2}:[۰-۹]{2}$/.test(r.value as string)),
        'no time on the axis',
      );
    else await until(() => format.mock.results.length > 0, 'no label on the axis');
    for (const r of format.mock.results) expect(r.value).not.toMatch(LATIN_DIGIT);
    // Answered from the relay's record: its upstream was never asked for history.
    expect(await relay.upstreamRequests('/v1/history/')).toEqual([]);
    format.mockRestore();
  });

  it('days="1" asks the service when there is no relay, and falls back to 7 days (saying so) when it is refused', async () => {
    const key = `${KEY}-today`;
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} symbols="usd,eur" days="1"></price-board>`,
    );
    await untilChart(el);
    expect(await history(key)).toEqual(['usd?1:200']);
    expect(el.shadowRoot!.querySelector('.chart-note')).toBeNull();

    const refused = `${KEY}-today-refused`;
    const errors = collect<ErrorDetail>(document, 'price-board-error');
    await sandbox.faults([{ path: '/v1/history', kind: 'status', status: 400, key: refused, count: 1 }]);
    const other = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${refused} symbols="usd,eur" days="1"></price-board>`,
    );
    await untilChart(other);
    expect(await history(refused)).toEqual(['usd?1:400', 'usd?7:200']);
    const note = other.shadowRoot!.querySelector('.chart-note')!.textContent!;
    expect(note).toMatch(/امروز/);
    expect(note).toMatch(/۷/);
    expect(spanButton(other, 7).getAttribute('aria-pressed')).toBe('true');
    expect(other.days).toBe(1);
    expect(errors).toHaveLength(0);
    expect(part(other, 'error')).toBeNull();
    // Learnt for the next symbol: straight to 7 days.
    other.chartSymbol = 'eur';
    await until(async () => (await history(refused)).length === 3, 'no eur history');
    expect((await history(refused))[2]).toBe('eur?7:200');
  });

  it('moves the last candle with live quotes of the chart symbol, without refetching history', async () => {
    const key = `${KEY}-live`;
    const el = await liveBoard(key, { symbols: 'usd', unit: 'rial' }, untilChart);
    await sandbox.market({ set: [{ symbol: 'usd', price: '1357913' }] });
    await until(() => caption(el).includes('پایانی ۱٬۳۵۷٬۹۱۳'), 'the last candle did not follow the quote');
    expect(legend(el)).toMatch(/۱٬۳۵۷٬۹۱۳/);
    el.unit = 'toman';
    // The toman price to its tenth, as the row shows it.
    await until(() => caption(el).includes('پایانی ۱۳۵٬۷۹۱٫۳'), 'the chart did not switch to toman');
    expect(legend(el)).toMatch(/۱۳۵٬۷۹۱٫۳/);
    expect(cell(el, 'usd', 'price')).toBe('۱۳۵٬۷۹۱٫۳');
    expect((await history(key)).length).toBe(1);
  });

  it('draws a live change of the chart symbol after the frame that shows it in the row, not in that frame', async () => {
    const key = `${KEY}-live-frame`;
    const el = await liveBoard(key, { symbols: 'usd,eur', unit: 'rial' }, untilChart);
    // The animation frames so far, and the one in which each change was first seen in the DOM.
    const frames = frameCounter();
    const seenAt: { row?: number; chart?: number } = {};
    const price = () => row(el, 'usd')!.querySelector('[part~="price"]')!.textContent ?? '';
    const observer = new MutationObserver(() => {
      if (seenAt.row === undefined && price().includes('۲٬۴۶۸٬۰۱۳')) seenAt.row = frames.count;
      if (seenAt.chart === undefined && legend(el).includes('۲٬۴۶۸٬۰۱۳')) seenAt.chart = frames.count;
    });
    observer.observe(el.shadowRoot!, { subtree: true, childList: true, characterData: true });
    try {
      await sandbox.market({ set: [{ symbol: 'usd', price: '2468013' }] });
      await until(() => seenAt.chart !== undefined, 'the chart did not follow the quote');
    } finally {
      observer.disconnect();
      frames.stop();
    }
    expect(seenAt.row).toBeDefined();
    expect(seenAt.chart).toBeGreaterThan(seenAt.row!);
    expect(caption(el)).toContain('پایانی ۲٬۴۶۸٬۰۱۳');
  });

  it('shows a history failure in the chart area only; the board keeps working', async () => {
    const key = `${KEY}-fail`;
    const errors = collect<ErrorDetail>(document, 'price-board-error');
    await sandbox.faults([{ path: '/v1/history', kind: 'malformed', key }]);
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} symbols="usd,eur"></price-board>`,
    );
    await untilLoaded(el);
    await until(() => part(el, 'chart')!.dataset.status === 'error', 'no chart error');
    const message = part(el, 'chart')!.querySelector('.chart-message')!;
    expect(message.getAttribute('data-code')).toBe('bad_response');
    expect(message.textContent).toMatch(/[\u0600-\u06FF]/);
    expect(part(el, 'error')).toBeNull();
    expect(errors.map((e) => e.detail.code)).toContain('bad_response');
    expect(row(el, 'usd')!.hasAttribute('data-missing')).toBe(false);
    // the next symbol works again
    await sandbox.reset();
    row(el, 'eur')!.click();
    await untilChart(el);
  });

  it('is destroyed on disconnect and rebuilt on reconnect without a new history request', async () => {
    const key = `${KEY}-remount`;
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} symbols="usd"></price-board>`,
    );
    await untilChart(el);
    const parent = el.parentElement!;
    el.remove();
    expect(canvas(el)).toBeNull();
    parent.append(el);
    await untilChart(el);
    expect(await history(key)).toEqual(['usd?30:200']);
  });

  it('takes its colours from the theme, live, including auto following the system', async () => {
    const key = `${KEY}-theme`;
    const text = (el: PriceBoard) => el.shadowRoot!.querySelector<HTMLElement>('[part~="chart-legend"]')!.style.color;
    try {
      await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'light' }] });
      const el = await fixture<PriceBoard>(
        html`<price-board base-url=${base()} api-key=${key} symbols="usd" theme="light"></price-board>`,
      );
      await untilChart(el);
      expect(text(el)).toBe('rgb(27, 31, 36)');
      el.theme = 'dark';
      await until(() => text(el) === 'rgb(230, 233, 238)', 'the chart did not turn dark');
      el.theme = 'auto';
      await until(() => text(el) === 'rgb(27, 31, 36)', 'auto (light system) did not apply');
      await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'dark' }] });
      await until(() => text(el) === 'rgb(230, 233, 238)', 'auto did not follow the system to dark');
      expect((await history(key)).length).toBe(1);
    } finally {
      await cdp().send('Emulation.setEmulatedMedia', { features: [] });
    }
  });
});
