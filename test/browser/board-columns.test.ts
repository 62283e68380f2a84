// What Iranian boards show (DESIGN.md section 10) on a real sandbox: the `columns` attribute (each
// column's part, text and header, in the order given), `density`, `--price-board-max-height` and
// `link`. The arithmetic of the change amount and the bubble has its own unit tests; here each cell
// is checked against the quote it shows, exactly, with numbers read back from the Persian text.
import 'vazirmatn/Vazirmatn-Variable-font-face.css';
import { elementUpdated, fixture, html } from '@open-wc/testing-helpers/pure';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { cdp, userEvent } from 'vitest/browser';
import '../../src/price-board';
import type { PriceBoard } from '../../src/price-board';
import type { ErrorDetail } from '../../src/shared/errors';
import { base, cell, collect, part, row, rows, sandbox, until, untilLoaded, useSandbox } from './helpers/board';

const KEY = 'pro-key:board-columns';
const ALL = 'price,change,change-amount,high,low,time,spark,bubble';

useSandbox();

/** A chart-less board with `attributes` set before it is connected. */
async function board(attributes: Record<string, string>, symbols: string, key = KEY): Promise<PriceBoard> {
  const el = document.createElement('price-board');
  for (const [name, value] of Object.entries({
    'base-url': base(),
    'api-key': key,
    stream: 'poll',
    chart: 'none',
    symbols,
    ...attributes,
  }))
    el.setAttribute(name, value);
  const box = await fixture<HTMLDivElement>(html`<div></div>`);
  box.append(el);
  // Prices shown (the time cell may not be among the columns).
  await until(
    () => rows(el).length > 0 && rows(el).every((r) => /[۰-۹]/.test(cell(el, r.dataset.symbol!, 'price'))),
    'no prices',
  );
  return el;
}

/** The parts of a row's cells, in order (the title first). */
const cellParts = (r: HTMLElement) => [...r.children].map((c) => c.getAttribute('part'));
/** The column headers' texts, in order. */
const headers = (el: PriceBoard) =>
  [...el.shadowRoot!.querySelectorAll('[role="columnheader"]')].map((h) => h.textContent!.trim());

/** A Persian number as shown (`‎+۱۲٬۳۴۵٫۶`, `‎−۰٫۵`) → a plain decimal string (`12345.6`, `-0.5`). */
function readPersian(text: string): string {
  const latin = text.replace(/[۰-۹]/g, (d) => String(d.charCodeAt(0) - 0x6f0));
  return latin
    .replace(/[\u200e+٬٪\s]/g, '')
    .replace('٫', '.')
    .replace('\u2212', '-');
}

/** A decimal string as an exact fraction n/d of BigInts. */
function fraction(s: string): [bigint, bigint] {
  const negative = s.startsWith('-');
  const [int, frac = ''] = s.replace('-', '').split('.') as [string, string?];
  return [BigInt(`${negative ? '-' : ''}${int}${frac}`), 10n ** BigInt(frac.length)];
}

/**
 * `shown` is `price × pct ÷ (100 + pct)` to within half of `step` (1 for toman and rial, 0.01 for
 * dollars): |a/ad − p·c / (pd·(100·cd + c))| ≤ step/2, compared in integers.
 */
function isRoundedChange(shown: string, price: string, pct: string, step: [bigint, bigint]): boolean {
  const [a, ad] = fraction(shown);
  const [p, pd] = fraction(price);
  const [c, cd] = fraction(pct);
  const b = 100n * cd + c;
  const diff = a * pd * b - p * c * ad;
  const abs = diff < 0n ? -diff : diff;
  return 2n * abs * step[1] <= step[0] * ad * pd * b;
}

describe('columns', () => {
  it('defaults to price, change, high, low, time: parts and headers in that order', async () => {
    const el = await board({}, 'usd,eur');
    for (const r of rows(el)) expect(cellParts(r)).toEqual(['title', 'price', 'change', 'high', 'low', 'time']);
    expect(headers(el)).toEqual(['نام', 'قیمت (تومان)', 'تغییر', 'بیشترین', 'کمترین', 'زمان']);
    // Today's board never loads the code of the other columns (this file's first board).
    const loaded = performance.getEntriesByType('resource').map((e) => e.name);
    expect(loaded.filter((name) => /extra-columns|widget\/spark/.test(name))).toEqual([]);
  });

  it('shows the cells named, in the order given, with headers in the same order', async () => {
    const el = await board({ columns: 'time, Bubble, price ,change-amount,spark,time' }, 'usd,coin_emami');
    for (const r of rows(el))
      expect(cellParts(r)).toEqual(['title', 'time', 'bubble', 'price', 'change-amount', 'spark']);
    expect(headers(el)).toEqual(['نام', 'زمان', 'حباب', 'قیمت (تومان)', 'تغییر (تومان)', '۷ روز']);
    expect(rows(el).map((r) => r.dataset.symbol)).toEqual(['usd', 'coin_emami']);
    el.setAttribute('columns', 'low,high');
    await elementUpdated(el);
    for (const r of rows(el)) expect(cellParts(r)).toEqual(['title', 'low', 'high']);
    expect(cell(el, 'usd', 'low')).toMatch(/^[۰-۹٬٫]+$/);
  });

  it('an unknown name is invalid_attribute: today’s columns, a Persian message naming the attribute to the developer only', async () => {
    const errors = collect<ErrorDetail>(document, 'price-board-error');
    const el = await board({ columns: 'price,volume' }, 'usd');
    expect(cellParts(rows(el)[0]!)).toEqual(['title', 'price', 'change', 'high', 'low', 'time']);
    const invalid = errors.filter((e) => e.detail.code === 'invalid_attribute');
    expect(invalid).toHaveLength(1);
    expect(invalid[0]!.detail.message).toMatch(/«columns».*[\u0600-\u06FF]/);
    expect(invalid[0]!.detail.message).not.toContain('volume');
    expect(part(el, 'error')).toBeNull();
  });

  for (const [symbols, unit, step, field] of [
    ['usd,gold_18', 'toman', [1n, 1n], 'price_toman'],
    ['usd,gold_18', 'rial', [1n, 1n], 'price'],
    ['ons,silver_ounce', 'toman', [1n, 100n], 'price'],
  ] as const) {
    it(`change-amount of ${symbols} in ${unit}: exactly rounded, signed and coloured like the percent`, async () => {
      const el = await board({ columns: 'price,change,change-amount', unit }, symbols);
      await until(
        () => rows(el).every((r) => /[۰-۹]/.test(cell(el, r.dataset.symbol!, 'change-amount'))),
        'no amounts',
      );
      for (const symbol of symbols.split(',')) {
        const quote = el.quotes.get(symbol)!;
        const amountCell = row(el, symbol)!.querySelector<HTMLElement>('[part~="change-amount"]')!;
        const text = amountCell.textContent!.trim();
        expect(text).not.toMatch(/[0-9]/);
        const shown = readPersian(text);
        expect(isRoundedChange(shown, quote[field], quote.change_pct, [...step]), `${symbol}: ${text}`).toBe(true);
        // Whole toman or rial; cents for the dollar-priced symbols, with their unit.
        expect(shown.split('.')[1]?.length ?? 0).toBe(step[1] === 1n ? 0 : 2);
        if (step[1] === 100n) expect(amountCell.dataset.unit).toBe('دلار');
        // The sign: LRM then + or U+2212, the same as the percent's; coloured the same way.
        const sign = Number(shown) > 0 ? 'up' : Number(shown) < 0 ? 'down' : 'flat';
        if (sign !== 'flat') expect(text.startsWith(sign === 'up' ? '\u200e+' : '\u200e\u2212')).toBe(true);
        if (sign !== 'flat') expect(row(el, symbol)!.dataset.direction).toBe(sign);
        const colour = getComputedStyle(amountCell).color;
        expect(colour).toBe(getComputedStyle(row(el, symbol)!.querySelector('[part~="change"]')!).color);
      }
    });
  }

  it('bubble: a coin’s premium over its gold from ons and usd the board does not show; empty for others', async () => {
    // The figures of docs/coins.md's example: ons $2,650.5, usd 104,550 toman, coin 110,000,000 toman.
    await sandbox.market({
      set: [
        { symbol: 'ons', price: '2650.5' },
        { symbol: 'usd', price: '1045500' },
        { symbol: 'coin_emami', price: '1100000000' },
      ],
    });
    const el = await board({ columns: 'price,bubble' }, 'coin_emami,gold_18', `${KEY}-bubble`);
    await until(() => cell(el, 'coin_emami', 'bubble') !== '', 'no bubble');
    expect(cell(el, 'coin_emami', 'bubble')).toBe('\u200e+۶۸٫۶۲٪');
    const title = row(el, 'coin_emami')!.querySelector('[part~="bubble"]')!.getAttribute('title')!;
    expect(title).toContain('۷٫۳۲۲۴ گرم طلای خالص');
    expect(title).toContain('انس ۲٬۶۵۰٫۵ دلار');
    expect(title).toContain('= ۶۵٬۲۳۷٬۳۵۷ تومان');
    expect(cell(el, 'gold_18', 'bubble')).toBe('');
    // ons and usd are followed, not shown: no rows, not in `quotes`.
    expect(rows(el).map((r) => r.dataset.symbol)).toEqual(['coin_emami', 'gold_18']);
    expect([...el.quotes.keys()]).toEqual(['coin_emami', 'gold_18']);

    // They are followed live: a new dollar rate moves the bubble.
    const quotes = collect<{ quotes: { symbol: string }[] }>(el, 'price-board-quotes');
    await sandbox.market({ set: [{ symbol: 'usd', price: '1100000' }] });
    await el.refresh();
    await until(() => cell(el, 'coin_emami', 'bubble') !== '\u200e+۶۸٫۶۲٪', 'the bubble did not follow usd');
    expect(quotes.flatMap((e) => e.detail.quotes.map((q) => q.symbol))).not.toContain('usd');
  });

  it('bubble: empty for the dollar itself', async () => {
    const el = await board({ columns: 'price,bubble' }, 'usd,coin_bahar', `${KEY}-bubble-usd`);
    await until(() => /[۰-۹]/.test(cell(el, 'coin_bahar', 'bubble')), 'no bubble for the coin');
    expect(cell(el, 'usd', 'bubble')).toBe('');
    expect(row(el, 'usd')!.querySelector('[part~="bubble"]')!.hasAttribute('title')).toBe(false);
  });

  it('spark: a cell of its own in every row', async () => {
    const el = await board({ columns: 'price,spark' }, 'usd,eur');
    for (const r of rows(el)) {
      const spark = r.querySelector('[part~="spark"]')!;
      expect(spark.getAttribute('role')).toBe('cell');
    }
  });
});

describe('density', () => {
  it('compact rows are shorter than comfortable ones for the same symbols', async () => {
    const symbols = 'usd,eur,gbp,aed,try,gold_18,coin_emami,ons';
    const comfortable = await board({}, symbols, `${KEY}-density`);
    const compact = await board({ density: 'compact' }, symbols, `${KEY}-density`);
    const height = (el: PriceBoard) => rows(el)[0]!.getBoundingClientRect().height;
    expect(height(compact)).toBeLessThan(height(comfortable) - 4);
    const table = (el: PriceBoard) => el.shadowRoot!.querySelector('.table')!.getBoundingClientRect().height;
    expect(table(compact)).toBeLessThan(table(comfortable));
  });
});

describe('--price-board-max-height', () => {
  it('bounds the board without its chart; the rows scroll under a header that stays in view', async () => {
    const symbols =
      'usd,eur,aed,gbp,try,cny,iqd,afn,cad,aud,chf,jpy,rub,sar,kwd,qar,omr,bhd,inr,pkr,gold_18,gold_24,coin_emami,coin_bahar,coin_half,coin_quarter,coin_gerami,silver_999,ons,silver_ounce';
    expect(symbols.split(',')).toHaveLength(30);
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${`${KEY}-max`} stream="poll" symbols=${symbols}></price-board>`,
    );
    el.style.setProperty('--price-board-max-height', '300px');
    await untilLoaded(el, 15_000);
    const section = () => el.shadowRoot!.querySelector<HTMLElement>('.chart-section, .chart-pending')!;
    await until(() => !!el.shadowRoot!.querySelector('.chart-section'), 'no chart section');
    const board = part(el, 'board')!;
    const chart = section().getBoundingClientRect().height + parseFloat(getComputedStyle(section()).marginBlockStart);
    expect(board.getBoundingClientRect().height - chart).toBeLessThanOrEqual(300);
    // All 30 rows are there, and the table scrolls.
    const table = el.shadowRoot!.querySelector<HTMLElement>('.table')!;
    expect(rows(el)).toHaveLength(30);
    expect(table.scrollHeight).toBeGreaterThan(table.clientHeight + 100);

    table.scrollTop = table.scrollHeight;
    await until(() => table.scrollTop > 0, 'did not scroll');
    const head = el.shadowRoot!.querySelector<HTMLElement>('.head')!;
    await until(
      () => Math.abs(head.getBoundingClientRect().top - table.getBoundingClientRect().top) <= 1,
      'the header left the top',
    );
    // The last row shows below the header, inside the table.
    const last = rows(el).at(-1)!.getBoundingClientRect();
    expect(last.bottom).toBeLessThanOrEqual(table.getBoundingClientRect().bottom + 1);
    expect(last.top).toBeGreaterThanOrEqual(head.getBoundingClientRect().bottom - 1);
  });

  it('on paper every row is printed, whatever the max height', async () => {
    const el = await board({}, 'usd,eur,aed,gbp,try,cny,iqd,afn,cad,aud,chf,jpy', `${KEY}-max`);
    el.style.setProperty('--price-board-max-height', '150px');
    const table = el.shadowRoot!.querySelector<HTMLElement>('.table')!;
    await until(() => table.scrollHeight > table.clientHeight + 50, 'the rows do not scroll');
    await cdp().send('Emulation.setEmulatedMedia', { media: 'print' });
    try {
      await until(() => table.scrollHeight <= table.clientHeight + 1, 'rows are cut on paper');
    } finally {
      await cdp().send('Emulation.setEmulatedMedia', { media: '' });
    }
  });

  it('unset, the board is as tall as its rows', async () => {
    const el = await board({}, 'usd,eur,aed,gbp,try,cny,iqd,afn,cad,aud,chf,jpy', `${KEY}-max`);
    const table = el.shadowRoot!.querySelector<HTMLElement>('.table')!;
    expect(table.scrollHeight).toBeLessThanOrEqual(table.clientHeight + 1);
  });
});

describe('link', () => {
  // Vitest runs the tests in a frame of its own page: the links open in the top window (the e2e
  // tests check a board in a page of its own, and in the embed page).
  it('makes each title a link to the site’s page for its symbol, in the top window from a frame', async () => {
    const el = await board({ link: 'https://example.com/price/{symbol}?from=board' }, 'usd,coin_emami');
    await until(() => !!row(el, 'usd')!.querySelector('a'), 'no link');
    for (const symbol of ['usd', 'coin_emami']) {
      const a = row(el, symbol)!.querySelector<HTMLAnchorElement>('[part~="title"] a')!;
      expect(a.href).toBe(`https://example.com/price/${symbol}?from=board`);
      expect(a.rel).toBe('noopener');
      expect(a.target).toBe('_top');
      expect(a.textContent).toBe(el.quotes.get(symbol)!.title);
    }
  });

  it('follows a new link template on a shown board, and plain titles without one', async () => {
    const el = await board({ link: 'https://example.com/a/{symbol}' }, 'usd,eur');
    await until(() => !!row(el, 'eur')!.querySelector('a'), 'no link');
    const hrefs = () => rows(el).map((r) => r.querySelector('a')?.href);
    expect(hrefs()).toEqual(['https://example.com/a/usd', 'https://example.com/a/eur']);
    // The quotes stay: only the template changed.
    el.setAttribute('link', 'https://example.com/b/{symbol}');
    await elementUpdated(el);
    expect(hrefs()).toEqual(['https://example.com/b/usd', 'https://example.com/b/eur']);
    el.removeAttribute('link');
    await elementUpdated(el);
    expect(hrefs()).toEqual([undefined, undefined]);
    expect(cell(el, 'eur', 'title')).toBe(el.quotes.get('eur')!.title);
  });

  it('a relative template resolves against the page', async () => {
    const el = await board({ link: '/prices/{symbol}' }, 'usd');
    await until(() => !!row(el, 'usd')!.querySelector('a'), 'no link');
    expect(row(el, 'usd')!.querySelector('a')!.href).toBe(new URL('/prices/usd', document.baseURI).href);
  });

  for (const template of [
    'javascript:alert(1)//{symbol}',
    'data:text/html,{symbol}',
    'https://example.com/price',
    '{symbol}:alert(1)',
  ]) {
    it(`refuses ${template}: invalid_attribute, titles stay text`, async () => {
      const errors = collect<ErrorDetail>(document, 'price-board-error');
      const el = await board({ link: template }, 'usd');
      expect(errors.filter((e) => e.detail.code === 'invalid_attribute').map((e) => e.detail.message)).toEqual([
        expect.stringContaining('«link»'),
      ]);
      expect(row(el, 'usd')!.querySelector('a')).toBeNull();
      expect(cell(el, 'usd', 'title')).toBe(el.quotes.get('usd')!.title);
    });
  }

  it('keeps the row’s keys: Enter on the row selects it; the link is reached with Tab and does not select', async () => {
    const selects = collect<{ symbol: string }>(document, 'price-board-select');
    const el = await board({ link: 'https://example.com/p/{symbol}' }, 'usd,eur');
    await until(() => !!row(el, 'eur')!.querySelector('a'), 'no link');
    row(el, 'usd')!.focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(el.shadowRoot!.activeElement).toBe(row(el, 'eur'));
    await userEvent.keyboard('{Enter}');
    await elementUpdated(el);
    expect(selects.map((e) => e.detail.symbol)).toEqual(['eur']);
    // The focused row's link is the next tab stop; the other rows' links are not.
    await userEvent.tab();
    expect(el.shadowRoot!.activeElement).toBe(row(el, 'eur')!.querySelector('a'));
    expect(row(el, 'usd')!.querySelector('a')!.tabIndex).toBe(-1);
    // A click on the link (its navigation stopped here) follows it, it does not select the row.
    const a = row(el, 'usd')!.querySelector('a')!;
    a.addEventListener('click', (e) => e.preventDefault(), { once: true });
    a.click();
    await elementUpdated(el);
    expect(selects.map((e) => e.detail.symbol)).toEqual(['eur']);
  });
});

describe('accessibility with every column', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`has no axe violations in the ${theme} theme`, async () => {
      const el = await fixture<PriceBoard>(
        html`<price-board base-url=${base()} api-key=${`${KEY}-a11y`} theme=${theme} stream="poll" chart="none" columns=${ALL} link="https://example.com/{symbol}" symbols="usd,coin_emami,ons,gold_18"></price-board>`,
      );
      await untilLoaded(el);
      await until(() => /[۰-۹]/.test(cell(el, 'coin_emami', 'bubble')), 'no bubble');
      await until(() => !!row(el, 'usd')!.querySelector('a'), 'no link');
      const result = await axe.run(el, { resultTypes: ['violations'] });
      expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    });
  }
});

describe('layout with every column', () => {
  for (const width of [300, 480, 600, 900]) {
    it(`at ${width}px the columns line up, nothing widens the page and no cell is cut`, async () => {
      const box = await fixture<HTMLDivElement>(html`<div></div>`);
      box.style.width = `${width}px`;
      const el = document.createElement('price-board');
      const attributes = {
        'base-url': base(),
        'api-key': `${KEY}-layout`,
        stream: 'poll',
        chart: 'none',
        columns: ALL,
      };
      for (const [name, value] of Object.entries({ ...attributes, symbols: 'usd,coin_emami,ons,gold_18' }))
        el.setAttribute(name, value);
      box.append(el);
      await document.fonts.load('600 15px Vazirmatn', 'طلای ۱۸ عیار');
      await untilLoaded(el);
      await until(() => /[۰-۹]/.test(cell(el, 'coin_emami', 'bubble')), 'no bubble');
      expect(el.getBoundingClientRect().width).toBeLessThanOrEqual(width);
      const table = el.shadowRoot!.querySelector<HTMLElement>('.table')!;
      const shown = (c: Element) => getComputedStyle(c).display !== 'none';
      for (const name of ALL.split(',')) {
        const cells = rows(el).map((r) => r.querySelector<HTMLElement>(`[part~="${name}"]`)!);
        if (!shown(cells[0]!)) continue;
        const edges = new Set(cells.map((c) => Math.round(c.getBoundingClientRect().right)));
        expect(edges.size, `${name}: ${[...edges]}`).toBe(1);
        for (const c of cells) expect(c.scrollWidth, name).toBeLessThanOrEqual(c.clientWidth + 1);
      }
      // What does not fit scrolls inside the table; each shown cell is within the table's scroll area.
      for (const c of rows(el)[0]!.querySelectorAll<HTMLElement>('[role="cell"]')) {
        if (!shown(c)) continue;
        const r = c.getBoundingClientRect();
        const t = table.getBoundingClientRect();
        expect(r.left).toBeGreaterThanOrEqual(t.left - (table.scrollWidth - table.clientWidth) - 1);
        expect(r.right).toBeLessThanOrEqual(t.right + 1);
      }
    });
  }
});
