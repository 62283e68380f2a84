// Every attribute of <price-board>, its parsing, its default, and its change at run time: in place,
// on the same element, re-fetching only what changed.
import { elementUpdated, fixture, html } from '@open-wc/testing-helpers/pure';
import { afterEach, describe, expect, it } from 'vitest';
import { cdp } from 'vitest/browser';
import { PriceBoard } from '../../src/price-board';
import type { ErrorDetail } from '../../src/shared/errors';
import {
  base,
  cell,
  collect,
  liveBoard,
  part,
  row,
  rows,
  sandbox,
  symbolsShown,
  until,
  untilLoaded,
  useSandbox,
  watchFetch,
} from './helpers/board';
import { flushSubscriptions } from '../../src/live/hub';

const KEY = 'pro-key:board-attrs';

useSandbox();

const invalidEvents = () => {
  const errors = collect<ErrorDetail>(document, 'price-board-error');
  return () => errors.filter((e) => e.detail.code === 'invalid_attribute');
};

describe('symbols', () => {
  it('keeps order, tolerates spaces and upper case, drops duplicates', async () => {
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" symbols=" EUR, usd ,eur,Gold_18,USD,"></price-board>`,
    );
    expect(symbolsShown(el)).toEqual(['eur', 'usd', 'gold_18']);
    await untilLoaded(el);
    expect([...el.quotes.keys()]).toEqual(['eur', 'usd', 'gold_18']);
  });

  it('defaults to usd, eur, gold_18, coin_emami, ons', async () => {
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none"></price-board>`,
    );
    expect(symbolsShown(el)).toEqual(['usd', 'eur', 'gold_18', 'coin_emami', 'ons']);
  });

  it('drops a malformed id with invalid_attribute and keeps the valid ones', async () => {
    const invalid = invalidEvents();
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" symbols="usd,<b>x</b>,eur"></price-board>`,
    );
    expect(symbolsShown(el)).toEqual(['usd', 'eur']);
    expect(invalid()).toHaveLength(1);
    expect(invalid()[0]!.detail.message).toMatch(/symbols/);
    expect(invalid()[0]!.detail.message).toMatch(/[\u0600-\u06FF]/);
    await untilLoaded(el);
    // The developer's Persian message names the attribute, never its value; visitors see no banner.
    expect(invalid()[0]!.detail.attribute).toBe('symbols');
    expect(invalid()[0]!.detail.message).not.toMatch(/<b>|x</);
    expect(part(el, 'error')).toBeNull();
  });

  it('falls back to the default list when nothing valid is left', async () => {
    const invalid = invalidEvents();
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" symbols="$$,%%"></price-board>`,
    );
    expect(symbolsShown(el)).toEqual(['usd', 'eur', 'gold_18', 'coin_emami', 'ons']);
    expect(invalid()).toHaveLength(1);
  });

  it('changes rows in place at run time, and a reorder asks the service for nothing', async () => {
    const el = await liveBoard(`${KEY}-sym`, { chart: 'none', symbols: 'usd,eur' });
    const rowElements = rows(el);
    const before = (await sandbox.requests(`${KEY}-sym`)).length;
    const sent = watchFetch();
    el.symbols = 'eur,usd';
    await elementUpdated(el);
    expect(symbolsShown(el)).toEqual(['eur', 'usd']);
    // Rows are rendered by position: the same elements take the other symbols, none re-created.
    expect(rows(el).every((r, i) => r === rowElements[i])).toBe(true);
    // A request for the change would leave in the update or in this flush of the subscriptions.
    flushSubscriptions();
    expect(sent).toEqual([]);
    expect((await sandbox.requests(`${KEY}-sym`)).length).toBe(before);

    el.setAttribute('symbols', 'eur,gbp');
    await elementUpdated(el);
    expect(symbolsShown(el)).toEqual(['eur', 'gbp']);
    await until(() => /[۰-۹]/.test(cell(el, 'gbp', 'price')), 'gbp did not load');
    expect([...el.quotes.keys()]).toEqual(['eur', 'gbp']);
  });
});

describe('unit', () => {
  it('shows toman by default and rial on request; switching makes no request at all', async () => {
    await sandbox.market({ set: [{ symbol: 'usd', price: '1000005' }] });
    const el = await liveBoard(`${KEY}-unit`, { symbols: 'usd,ons' });
    await until(() => !!el.shadowRoot!.querySelector('[part~="chart"] canvas'), 'no chart');
    // Every request of the start has reached the service (the chart's history may still be on its way when its
    // canvas is there): the count below is of what the switch would add.
    await until(async () => (await sandbox.requests(`${KEY}-unit`, '/v1/history/')).length > 0, 'no history asked');
    expect(cell(el, 'usd', 'price')).toBe('۱۰۰٬۰۰۰٫۵');
    const onsToman = cell(el, 'ons', 'price');
    const before = (await sandbox.requests(`${KEY}-unit`)).length;
    const sent = watchFetch();

    el.unit = 'rial';
    await elementUpdated(el);
    expect(el.getAttribute('unit')).toBe('rial');
    expect(cell(el, 'usd', 'price')).toBe('۱٬۰۰۰٬۰۰۵');
    expect(cell(el, 'ons', 'price')).toBe(onsToman); // dollars whatever the unit
    expect(el.shadowRoot!.querySelector('.col-price')!.textContent).toMatch(/ریال/);

    el.setAttribute('unit', 'toman');
    await elementUpdated(el);
    expect(cell(el, 'usd', 'price')).toBe('۱۰۰٬۰۰۰٫۵');
    // A request (prices or history) for the change would leave in the update or in this flush.
    flushSubscriptions();
    expect(sent).toEqual([]);
    expect((await sandbox.requests(`${KEY}-unit`)).length).toBe(before);
  });

  it('falls back to toman on an invalid unit', async () => {
    const invalid = invalidEvents();
    await sandbox.market({ set: [{ symbol: 'usd', price: '1000000' }] });
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" symbols="usd" unit="dollar"></price-board>`,
    );
    await untilLoaded(el);
    expect(cell(el, 'usd', 'price')).toBe('۱۰۰٬۰۰۰');
    expect(
      invalid()
        .map((e) => e.detail.message)
        .join(),
    ).toMatch(/unit/);
  });
});

describe('theme', () => {
  const bg = (el: PriceBoard) => getComputedStyle(part(el, 'board')!).backgroundColor;
  const LIGHT = 'rgb(255, 255, 255)';
  const DARK = 'rgb(22, 25, 30)';

  afterEach(async () => {
    await cdp().send('Emulation.setEmulatedMedia', { features: [] });
  });

  it('applies light and dark, live', async () => {
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" theme="light"></price-board>`,
    );
    expect(bg(el)).toBe(LIGHT);
    el.theme = 'dark';
    await elementUpdated(el);
    expect(bg(el)).toBe(DARK);
    el.setAttribute('theme', 'light');
    await elementUpdated(el);
    expect(bg(el)).toBe(LIGHT);
  });

  it('auto follows prefers-color-scheme as it changes', async () => {
    await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'light' }] });
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none"></price-board>`,
    );
    expect(el.theme).toBe('auto');
    expect(bg(el)).toBe(LIGHT);
    await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'dark' }] });
    await until(() => bg(el) === DARK, 'auto did not follow dark');
    await cdp().send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: 'light' }] });
    await until(() => bg(el) === LIGHT, 'auto did not follow light');
  });

  it('takes colours from the public custom properties', async () => {
    const el = await fixture<PriceBoard>(
      html`<div class="themed"><price-board base-url=${base()} api-key=${KEY} chart="none" theme="dark"></price-board></div>`,
    );
    const board = el.querySelector('price-board') as PriceBoard;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('.themed price-board { --price-board-bg: rgb(1, 2, 3); --price-board-radius: 3px; }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    try {
      await elementUpdated(board);
      expect(bg(board)).toBe('rgb(1, 2, 3)');
      expect(getComputedStyle(part(board, 'board')!).borderTopLeftRadius).toBe('3px');
    } finally {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    }
  });

  it('falls back to auto on an invalid theme', async () => {
    const invalid = invalidEvents();
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" theme="neon"></price-board>`,
    );
    expect(part(el, 'board')!.dataset.theme).toBe('auto');
    expect(invalid()).toHaveLength(1);
  });

  it('an invalid theme is said to the developer (event, Persian, naming the attribute), never in part="error"', async () => {
    const invalid = invalidEvents();
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none"></price-board>`,
    );
    await untilLoaded(el);
    expect(part(el, 'error')).toBeNull();
    el.setAttribute('theme', 'purple');
    await elementUpdated(el);
    expect(part(el, 'error')).toBeNull();
    const detail = invalid().at(-1)!.detail;
    expect(detail.attribute).toBe('theme');
    expect(detail.message).toMatch(/«theme»/);
    expect(detail.message).not.toMatch(/purple/);
    expect(part(el, 'board')!.dataset.theme).toBe('auto');
    el.setAttribute('theme', 'dark');
    await elementUpdated(el);
    expect(part(el, 'error')).toBeNull();
    expect(part(el, 'board')!.dataset.theme).toBe('dark');
  });
});

describe('stream and poll-interval', () => {
  it('stream="sse" goes live over one stream connection', async () => {
    const key = `${KEY}-sse`;
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} stream="sse" chart="none" symbols="usd"></price-board>`,
    );
    await until(() => el.status === 'live', 'not live');
    expect(part(el, 'status')!.dataset.status).toBe('live');
    await until(() => /زنده/.test(part(el, 'status')!.textContent ?? ''), 'status text'); // with the board's extras
    expect((await sandbox.requests(key, '/v1/stream')).length).toBe(1);
  });

  it('stream="poll" polls /v1/prices every poll-interval seconds and never opens a stream', async () => {
    const key = `${KEY}-poll`;
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} stream="poll" poll-interval="5" chart="none" symbols="usd"></price-board>`,
    );
    await untilLoaded(el);
    await until(() => el.status === 'polling', 'not polling');
    await until(() => /هر ۵ ثانیه/.test(part(el, 'status')!.textContent ?? ''), 'status text'); // with the board's extras
    await until(async () => (await sandbox.requests(key, '/v1/prices')).length >= 2, 'no second poll', 9000);
    expect((await sandbox.requests(key, '/v1/stream')).length).toBe(0);
  }, 15_000);

  it('stream="off" fetches once and only refresh() asks again', async () => {
    const key = `${KEY}-off`;
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} stream="off" chart="none" symbols="usd"></price-board>`,
    );
    await untilLoaded(el);
    expect((await sandbox.requests(key, '/v1/prices')).length).toBe(1);
    expect((await sandbox.requests(key, '/v1/stream')).length).toBe(0);
    await sandbox.market({ set: [{ symbol: 'usd', price: '777770' }] });
    await el.refresh();
    await until(() => cell(el, 'usd', 'price') === '۷۷٬۷۷۷', 'refresh() did not show the new price');
    expect((await sandbox.requests(key, '/v1/prices')).length).toBe(2);
  });

  it('changing stream re-subscribes in place', async () => {
    const key = `${KEY}-switch`;
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} stream="poll" chart="none" symbols="usd"></price-board>`,
    );
    await until(() => el.status === 'polling', 'not polling');
    el.stream = 'sse';
    await until(() => el.status === 'live', 'did not go live after stream="sse"');
    expect((await sandbox.requests(key, '/v1/stream')).length).toBe(1);
  });

  it('poll-interval under 5 s or not a number falls back to 30 with invalid_attribute', async () => {
    const invalid = invalidEvents();
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} stream="poll" poll-interval="1" chart="none" symbols="usd"></price-board>`,
    );
    await until(() => el.status === 'polling', 'not polling');
    await until(() => /هر ۳۰ ثانیه/.test(part(el, 'status')!.textContent ?? ''), 'status text'); // with the board's extras
    expect(invalid()).toHaveLength(1);
    el.setAttribute('poll-interval', 'soon');
    await elementUpdated(el);
    expect(invalid()).toHaveLength(2);
    expect(invalid()[1]!.detail.message).toMatch(/poll-interval/);
  });

  it('an invalid stream value falls back to auto', async () => {
    const invalid = invalidEvents();
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} stream="websocket" chart="none" symbols="usd"></price-board>`,
    );
    await untilLoaded(el);
    expect(invalid()).toHaveLength(1);
    await until(() => el.status === 'live', 'auto did not go live');
  });

  it('stream-url points the stream elsewhere; an invalid one falls back with invalid_attribute', async () => {
    const key = `${KEY}-surl`;
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${key} stream="sse" stream-url=${`${base()}/v1/stream`} chart="none" symbols="usd"></price-board>`,
    );
    await until(() => el.status === 'live', 'not live with an explicit stream-url');
    const invalid = invalidEvents();
    el.setAttribute('stream-url', 'javascript:alert(1)');
    await elementUpdated(el);
    expect(invalid()).toHaveLength(1);
    await until(() => el.status === 'live', 'not live with the default stream-url');
  });
});

describe('base-url and api-key', () => {
  it('moves to a new base-url in place', async () => {
    const key = `${KEY}-base`;
    // Port 9 on loopback refuses connections: a network error, shown, then fixed by the new address.
    const el = await fixture<PriceBoard>(
      html`<price-board base-url="http://127.0.0.1:9" api-key=${key} stream="poll" chart="none" symbols="usd"></price-board>`,
    );
    const same = el;
    el.baseUrl = base();
    await untilLoaded(el);
    expect(el).toBe(same);
    expect(row(el, 'usd')!.hasAttribute('data-missing')).toBe(false);
    expect((await sandbox.requests(key, '/v1/prices')).length).toBeGreaterThanOrEqual(1);
  });

  it('an invalid base-url falls back to the default with invalid_attribute', async () => {
    const invalid = invalidEvents();
    const el = await fixture<PriceBoard>(
      html`<price-board base-url="ftp://example.com" api-key=${KEY} stream="off" chart="none" symbols="usd"></price-board>`,
    );
    expect(invalid()).toHaveLength(1);
    expect(invalid()[0]!.detail.message).toMatch(/base-url/);
    expect(el).toBeInstanceOf(HTMLElement);
  });

  it('re-subscribes with a new api-key, sends it only as a header, never in a URL or an event', async () => {
    const errors = collect<ErrorDetail>(document, 'price-board-error');
    const first = `${KEY}-k1`;
    const second = `${KEY}-k2`;
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${first} stream="sse" symbols="usd"></price-board>`,
    );
    await untilLoaded(el);
    expect(el.hasAttribute('api-key')).toBe(true);
    el.apiKey = second;
    await until(async () => (await sandbox.requests(second, '/v1/prices')).length >= 1, 'no request with the new key');
    await until(async () => (await sandbox.requests(second, '/v1/stream')).length >= 1, 'no stream with the new key');
    await until(async () => (await sandbox.requests(second, '/v1/history')).length >= 1, 'no history with the new key');
    const stats = await sandbox.stats();
    expect(stats.keyInUrl).toBe(0);
    expect(stats.requests.some((r) => r.url.includes('pro-key'))).toBe(false);

    el.apiKey = 'nope-key';
    await until(() => part(el, 'error')?.dataset.code === 'unauthorized', 'bad key not reported');
    for (const e of errors) expect(JSON.stringify(e.detail)).not.toMatch(/board-attrs|nope-key/);
    expect(el.shadowRoot!.innerHTML).not.toMatch(/nope-key|pro-key/);
  });
});

describe('properties set before the element is defined', () => {
  it('go with the first request (Lit holds them until its first update, after that request)', async () => {
    const sent = watchFetch();
    const errors = collect<ErrorDetail>(document, 'price-board-error');
    // An element made, given its settings as properties and added before its class is defined (a
    // page that loads the module later): here a subclass under a tag of its own, defined after.
    const tag = 'price-board-defined-late';
    const el = document.createElement(tag) as PriceBoard;
    Object.assign(el, { apiKey: `${KEY}-late`, baseUrl: base(), symbols: 'gbp,aed', chart: 'none' });
    document.body.append(el);
    try {
      customElements.define(tag, class extends PriceBoard {});
      await untilLoaded(el);
      expect(symbolsShown(el)).toEqual(['gbp', 'aed']);
      expect(sent.filter((u) => u.startsWith('/v1/prices'))).toEqual(['/v1/prices?symbols=gbp,aed']);
      expect(errors.map((e) => e.detail.code)).toEqual([]);
    } finally {
      el.remove();
    }
  });
});
