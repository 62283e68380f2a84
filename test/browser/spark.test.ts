// The `spark` cells' controller against the real sandbox in Chromium: lines after the rows, one
// history request per symbol for every widget of the page, nothing asked before the rows paint,
// and a failing history that leaves the cells empty and the rows as they were. (Until the board's
// `columns` attribute renders the cells, a small widget defined here shows `render(symbol)` per row.)
import { fixture, html } from '@open-wc/testing-helpers/pure';
import { LitElement, type PropertyValues } from 'lit';
import { describe, expect, it } from 'vitest';
import { PriceWidget } from '../../src/widget/price-widget';
import { SparkController } from '../../src/widget/spark';
import { SPARK_CONCURRENCY } from '../../src/widget/spark-history';
import '../../src/price-board';
import { base, cell, collect, newBoard, row, sandbox, until, useSandbox } from './helpers/board';

class SparkRows extends PriceWidget {
  readonly spark = new SparkController(this, {
    connection: () => ({ baseUrl: this.settings.baseUrl, apiKey: this.settings.apiKey }),
    get: (symbol) => this.live.get(symbol),
  });
  /** Whether the spark column is shown (set it, then `requestUpdate()`). */
  showSpark = true;

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (this.showSpark) this.spark.want(this.settings.symbols);
  }

  override render(): unknown {
    return this.settings.symbols.map(
      (symbol) =>
        html`<div part="row" data-symbol=${symbol}>
          <span part="price">${this.quotes.get(symbol)?.price ?? ''}</span>
          ${this.showSpark ? html`<span part="spark">${this.spark.render(symbol)}</span>` : ''}
        </div>`,
    );
  }
}
customElements.define('spark-rows', SparkRows);

/** Rows of the quotes it holds as they were at its last render: a quote held since shows at the next one. */
class HeldRows extends LitElement {
  readonly held = new Map<string, { price: string }>();
  baseUrl = '';
  apiKey = '';
  symbols: string[] = [];
  readonly spark = new SparkController(this, {
    connection: () => ({ baseUrl: this.baseUrl, apiKey: this.apiKey }),
    get: (symbol) => this.held.get(symbol),
  });

  protected override willUpdate(): void {
    this.spark.want(this.symbols);
  }

  override render(): unknown {
    return this.symbols.map(
      (symbol) =>
        html`<div part="row" data-symbol=${symbol}>
          <span part="price">${this.held.get(symbol)?.price ?? ''}</span>
          <span part="spark">${this.spark.render(symbol)}</span>
        </div>`,
    );
  }
}
customElements.define('held-rows', HeldRows);

const FIVE = ['usd', 'eur', 'gold_18', 'coin_emami', 'ons'];
/** Distinct colours per direction, so that the stroke says which variable it took. */
const COLOURS = { up: 'rgb(0, 128, 1)', down: 'rgb(200, 0, 2)', flat: 'rgb(90, 90, 3)' };
const THEME = `--price-board-up: ${COLOURS.up}; --price-board-down: ${COLOURS.down}; --price-board-muted: ${COLOURS.flat}`;

useSandbox();

const cellOf = (el: SparkRows, symbol: string) =>
  el.shadowRoot!.querySelector<HTMLElement>(`[data-symbol="${symbol}"] [part~="spark"]`)!;
const svgOf = (el: SparkRows, symbol: string) => cellOf(el, symbol)?.querySelector('svg') ?? null;
const priceShown = (el: SparkRows, symbol: string) =>
  (el.shadowRoot?.querySelector(`[data-symbol="${symbol}"] [part~="price"]`)?.textContent ?? '').trim() !== '';

async function sparkRows(key: string, symbols: string[], style = THEME): Promise<SparkRows> {
  return fixture<SparkRows>(
    html`<spark-rows base-url=${base()} api-key=${key} symbols=${symbols.join(',')} style=${style}></spark-rows>`,
  );
}

/** −1, 0 or 1: `a` against `b`, two positive decimal strings, exactly. */
function compare(a: string, b: string): number {
  const [ai = '', af = ''] = a.split('.');
  const [bi = '', bf = ''] = b.split('.');
  const width = Math.max(af.length, bf.length);
  const [x, y] = [BigInt(ai + af.padEnd(width, '0')), BigInt(bi + bf.padEnd(width, '0'))];
  return x > y ? 1 : x < y ? -1 : 0;
}

/**
 * Watches the page's `/v1/history/` requests: for each, the symbol and what `seen()` said as it
 * was sent, and (by a copy of the response) the first and last price the page received.
 */
function watchHistory(seen: (symbol: string) => boolean) {
  const sent: { symbol: string; seen: boolean }[] = [];
  const ends = new Map<string, { first: string; last: string }>();
  const real = globalThis.fetch;
  globalThis.fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const m = /^\/v1\/history\/([^/]+)$/.exec(url.pathname);
    if (!m) return real(input, init);
    const symbol = decodeURIComponent(m[1]!);
    sent.push({ symbol, seen: seen(symbol) });
    const res = await real(input, init);
    if (res.ok) {
      const points = ((await res.clone().json()) as { data: { points: { price: string }[] } }).data.points;
      ends.set(symbol, { first: points[0]!.price, last: points.at(-1)!.price });
    }
    return res;
  };
  return { sent, ends, stop: () => (globalThis.fetch = real) };
}

describe('spark cells (SparkController)', () => {
  it('draws each symbol’s 7 days after its row, coloured by the direction of the week', async () => {
    const key = 'pro-key:spark-colour';
    let el: SparkRows | undefined;
    const watch = watchHistory((symbol) => !!el && priceShown(el, symbol));
    try {
      el = await sparkRows(key, FIVE);
      await until(() => FIVE.every((s) => svgOf(el!, s)), 'not every spark was drawn', 10_000);
    } finally {
      watch.stop();
    }
    for (const symbol of FIVE) {
      const svg = svgOf(el, symbol)!;
      expect(svg.getAttribute('aria-hidden')).toBe('true');
      expect(svg.getAttribute('viewBox')).toBe('0 0 64 20');
      const path = svg.querySelector('path')!;
      expect(path.getAttribute('d')).toMatch(/^M0 [\d.]+(L[\d.]+ [\d.]+)+$/);
      const { first, last } = watch.ends.get(symbol)!;
      const direction = (['down', 'flat', 'up'] as const)[compare(last, first) + 1]!;
      expect(getComputedStyle(path).stroke, symbol).toBe(COLOURS[direction]);
      expect(cellOf(el, symbol).textContent!.trim()).toBe('');
    }
    // The rows still show their prices.
    expect(FIVE.every((s) => priceShown(el!, s))).toBe(true);
  });

  it('on a board, the cells take each row’s quote from the board: no copy of all its quotes per update', async () => {
    const symbols = ['usd', 'eur', 'gold_18', 'no_such_symbol'];
    const el = newBoard({
      'base-url': base(),
      'api-key': 'pro-key:spark-board',
      symbols: symbols.join(','),
      columns: 'price,spark',
      chart: 'none',
      stream: 'sse',
    });
    // Every read of `quotes` (a new map of the shown quotes) is counted.
    let reads = 0;
    Object.defineProperty(el, 'quotes', {
      get: () => {
        reads++;
        return Reflect.get(PriceWidget.prototype, 'quotes', el) as unknown;
      },
    });
    document.body.append(el);
    const priced = symbols.slice(0, 3);
    const svg = (symbol: string) => row(el, symbol)?.querySelector('[part~="spark"] svg') ?? null;
    await until(() => priced.every((s) => svg(s)), 'not every spark was drawn', 10_000);
    // New prices: an update per change, with a row (the unknown symbol's) still without a price.
    const changes: [symbol: string, price: string, shown: string][] = [
      ['usd', '1234560', '۱۲۳٬۴۵۶'],
      ['eur', '1456780', '۱۴۵٬۶۷۸'],
    ];
    for (const [symbol, price, shown] of changes) {
      await sandbox.market({ set: [{ symbol, price }] });
      await until(() => cell(el, symbol, 'price') === shown, `the new price of ${symbol} was not shown`);
    }
    await el.updateComplete;
    expect(svg('no_such_symbol')).toBeNull();
    expect(reads).toBe(0);
  });

  it('three widgets of 5 symbols make one /v1/history/{s}?days=7 request per symbol', async () => {
    const key = 'pro-key:spark-shared';
    const page = await fixture<HTMLElement>(html`<div>
      <spark-rows base-url=${base()} api-key=${key} symbols=${FIVE.join(',')}></spark-rows>
      <spark-rows base-url=${base()} api-key=${key} symbols=${[...FIVE].reverse().join(',')}></spark-rows>
      <spark-rows base-url=${base()} api-key=${key} symbols=${[...FIVE.slice(2), ...FIVE.slice(0, 2)].join(',')}></spark-rows>
    </div>`);
    const widgets = [...page.querySelectorAll<SparkRows>('spark-rows')];
    await until(() => widgets.every((w) => FIVE.every((s) => svgOf(w, s))), 'not every spark was drawn', 10_000);
    const asked = await sandbox.requests(key, '/v1/history/');
    expect(asked.map((r) => r.url).sort()).toEqual(FIVE.map((s) => `/v1/history/${s}?days=7`).sort());
    // A fourth widget later draws the page's lines at once, with no request.
    const late = await sparkRows(key, FIVE);
    await until(() => FIVE.every((s) => svgOf(late, s)), 'the late widget drew no spark');
    expect(await sandbox.requests(key, '/v1/history/')).toHaveLength(FIVE.length);
  });

  it('asks for no history of a quote its widget holds but has not rendered yet', async () => {
    const el = document.createElement('held-rows') as HeldRows;
    Object.assign(el, { baseUrl: base(), apiKey: 'pro-key:spark-held', symbols: ['usd', 'eur'] });
    el.held.set('usd', { price: '1000000' });
    document.body.append(el);
    const watch = watchHistory((symbol) => priceShown(el as unknown as SparkRows, symbol));
    try {
      await el.updateComplete;
      // Held after the render, before any frame: its row shows no price until the widget renders again.
      el.held.set('eur', { price: '2000000' });
      // usd's line makes the widget render, which shows eur's price; then eur's line follows.
      await until(() => ['usd', 'eur'].every((s) => svgOf(el as unknown as SparkRows, s)), 'not every spark was drawn');
    } finally {
      watch.stop();
      el.remove();
    }
    expect(watch.sent).toEqual([
      { symbol: 'usd', seen: true },
      { symbol: 'eur', seen: true },
    ]);
  });

  it('asks for no history before the rows have painted their prices, nor for a symbol without one', async () => {
    const key = 'pro-key:spark-after-rows';
    const symbols = [...FIVE, 'no_such_symbol'];
    let el: SparkRows | undefined;
    // The animation frame at which each row was first seen with its price (a frame renders what its callbacks saw).
    const framed = new Set<string>();
    let framing = true;
    const frame = () => {
      // Found in the page, not through `el`: its rows may paint before the fixture's promise hands it over.
      const shown = el ?? document.querySelector<SparkRows>(`spark-rows[api-key="${key}"]`);
      for (const s of symbols) if (shown && priceShown(shown, s)) framed.add(s);
      if (framing) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    const watch = watchHistory((symbol) => framed.has(symbol));
    try {
      el = await sparkRows(key, symbols);
      await until(() => FIVE.every((s) => svgOf(el!, s)), 'not every spark was drawn', 10_000);
    } finally {
      watch.stop();
      framing = false;
    }
    expect(watch.sent.map((r) => r.symbol).sort()).toEqual([...FIVE].sort());
    expect(watch.sent.filter((r) => !r.seen)).toEqual([]);
    expect(svgOf(el, 'no_such_symbol')).toBeNull();
  });

  it(
    'a failing history leaves the cells empty and the rows intact, and is tried again',
    { timeout: 60_000 },
    async () => {
      const key = 'pro-key:spark-500';
      const symbols = ['usd', 'gold_18'];
      await sandbox.faults([{ path: '/v1/history', key, kind: 'status', status: 500 }]);
      const errors = collect(document, 'price-board-error');
      const el = await sparkRows(key, symbols);
      // The client's three attempts (one and two retries) failed for each symbol.
      await until(
        async () => {
          const failed = (await sandbox.requests(key, '/v1/history/')).filter((r) => r.status === 500);
          return symbols.every((s) => failed.filter((r) => r.path === `/v1/history/${s}`).length >= 3);
        },
        'the history was not asked for (and refused) three times per symbol',
        20_000,
      );
      expect(symbols.every((s) => priceShown(el, s))).toBe(true);
      for (const symbol of symbols) {
        expect(svgOf(el, symbol)).toBeNull();
        expect(cellOf(el, symbol).textContent!.trim()).toBe('');
      }
      expect(errors).toEqual([]);
      expect(el.status).not.toBe('error');
      // When the service recovers, the next retry draws the lines.
      await sandbox.clearFaults();
      await until(() => symbols.every((s) => svgOf(el, s)), 'no spark after the service recovered', 30_000);
      expect(symbols.every((s) => priceShown(el, s))).toBe(true);
      expect(errors).toEqual([]);
    },
  );

  it('cancels its history requests and sends no more once the column is hidden', async () => {
    const key = 'pro-key:spark-hidden';
    await sandbox.faults([{ path: '/v1/history', key, kind: 'slow', delayMs: 10_000 }]);
    const log = { sent: 0, cancelled: 0 };
    const real = globalThis.fetch;
    globalThis.fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (!url.pathname.startsWith('/v1/history/')) return real(input, init);
      log.sent++;
      try {
        return await real(input, init);
      } catch (error) {
        if ((error as Error).name === 'AbortError') log.cancelled++;
        throw error;
      }
    };
    try {
      const el = await sparkRows(key, FIVE);
      // The others wait for a free slot.
      await until(() => log.sent === SPARK_CONCURRENCY, 'the first history requests were not sent');
      el.showSpark = false;
      el.requestUpdate();
      await until(() => log.cancelled === SPARK_CONCURRENCY, 'the requests in flight were not cancelled');
      // Whatever their ends would start is sent within the task that ended them.
      await new Promise((resolve) => setTimeout(resolve));
      expect(log.sent).toBe(SPARK_CONCURRENCY);
      expect(FIVE.every((s) => priceShown(el, s))).toBe(true);
    } finally {
      globalThis.fetch = real;
    }
  });
});
