// Accessibility of <price-board>: axe-core in both themes, table semantics, keyboard selection
// with a roving tab stop, the throttled polite announcement, and the compact layout.
import { elementUpdated, fixture, html } from '@open-wc/testing-helpers/pure';
import axe from 'axe-core';
import { describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import '../../src/price-board';
import type { PriceBoard } from '../../src/price-board';
import {
  base,
  cell,
  collect,
  liveBoard,
  part,
  row,
  rows,
  sandbox,
  until,
  untilLoaded,
  useSandbox,
} from './helpers/board';

const KEY = 'pro-key:board-a11y';

useSandbox();

async function violations(el: PriceBoard): Promise<string[]> {
  const result = await axe.run(el, { resultTypes: ['violations'] });
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const ready = async (el: PriceBoard) => {
  await untilLoaded(el);
  await until(
    () => part(el, 'chart')?.dataset.status === 'ready' && !!part(el, 'chart')!.querySelector('canvas'),
    'no chart',
  );
};

describe('accessibility', () => {
  for (const theme of ['light', 'dark'] as const) {
    it(`has no axe violations in the ${theme} theme`, async () => {
      const key = `${KEY}-${theme}`;
      const el = await fixture<PriceBoard>(
        html`<price-board base-url=${base()} api-key=${key} theme=${theme} symbols="usd,eur,gold_18,ons,zzz"></price-board>`,
      );
      await ready(el);
      // An error shown beside the rows is checked too (an unknown symbol is the developer's: never shown).
      await sandbox.faults([{ path: '/v1/prices', kind: 'malformed', key }]);
      await el.refresh();
      await until(() => !!part(el, 'error'), 'the error is shown');
      expect(await violations(el)).toEqual([]);
    });
  }

  it('has no axe violations while loading', async () => {
    await sandbox.faults([{ path: '/v1/prices', kind: 'slow', delayMs: 1500, key: `${KEY}-slow` }]);
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${`${KEY}-slow`} stream="poll" chart="none" symbols="usd,eur"></price-board>`,
    );
    expect(el.status).toBe('loading');
    expect(await violations(el)).toEqual([]);
  });

  it('exposes table semantics: a table, column headers, rows with a row header and cells', async () => {
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" symbols="usd,eur"></price-board>`,
    );
    await untilLoaded(el);
    const table = el.shadowRoot!.querySelector('[role="table"]')!;
    expect(table.getAttribute('aria-label')).toBeTruthy();
    expect(table.querySelectorAll('[role="columnheader"]')).toHaveLength(6);
    for (const r of rows(el)) {
      expect(r.getAttribute('role')).toBe('row');
      expect(r.querySelector('[part~="title"]')!.getAttribute('role')).toBe('rowheader');
      expect(r.querySelectorAll('[role="cell"]')).toHaveLength(5);
    }
  });

  it('selects a row with Enter or Space and moves between rows with the arrow keys (one tab stop)', async () => {
    const selects = collect<{ symbol: string }>(document, 'price-board-select');
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" symbols="usd,eur,gbp"></price-board>`,
    );
    await untilLoaded(el);
    expect(rows(el).map((r) => r.tabIndex)).toEqual([0, -1, -1]);

    row(el, 'usd')!.focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(el.shadowRoot!.activeElement).toBe(row(el, 'eur'));
    await elementUpdated(el);
    expect(rows(el).map((r) => r.tabIndex)).toEqual([-1, 0, -1]);

    await userEvent.keyboard('{Enter}');
    await elementUpdated(el);
    expect(el.chartSymbol).toBe('eur');
    expect(row(el, 'eur')!.getAttribute('aria-current')).toBe('true');
    expect(selects.map((e) => e.detail.symbol)).toEqual(['eur']);

    await userEvent.keyboard('{End}');
    expect(el.shadowRoot!.activeElement).toBe(row(el, 'gbp'));
    await userEvent.keyboard(' ');
    await elementUpdated(el);
    expect(el.chartSymbol).toBe('gbp');
    expect(selects.map((e) => e.detail.symbol)).toEqual(['eur', 'gbp']);

    await userEvent.keyboard('{Home}');
    expect(el.shadowRoot!.activeElement).toBe(row(el, 'usd'));
  });

  it('reaches the rows with Tab and shows a visible focus ring', async () => {
    const el = await fixture<PriceBoard>(
      html`<price-board base-url=${base()} api-key=${KEY} chart="none" symbols="usd,eur"></price-board>`,
    );
    await untilLoaded(el);
    await userEvent.tab();
    expect(el.shadowRoot!.activeElement).toBe(row(el, 'usd'));
    const style = getComputedStyle(row(el, 'usd')!);
    expect(style.outlineStyle).not.toBe('none');
    expect(parseFloat(style.outlineWidth)).toBeGreaterThanOrEqual(2);
  });

  it('announces price changes of the selected symbol politely, at most once per 10 seconds', async () => {
    const key = `${KEY}-live`;
    const el = await liveBoard(key, { chart: 'none', symbols: 'usd,eur' });
    const region = el.shadowRoot!.querySelector('[aria-live="polite"]')!;
    expect(region.getAttribute('role')).toBe('status');
    expect(region.textContent!.trim()).toBe('');
    await sandbox.market({ set: [{ symbol: 'usd', price: '1111110' }] });
    await until(() => region.textContent!.includes('۱۱۱٬۱۱۱'), 'the change was not announced');
    expect(region.textContent).toContain(el.quotes.get('usd')!.title);
    await sandbox.market({
      set: [
        { symbol: 'usd', price: '2222220' },
        { symbol: 'eur', price: '3333330' },
      ],
    });
    // An announcement would be rendered in the update that shows the change.
    await until(
      () => cell(el, 'usd', 'price') === '۲۲۲٬۲۲۲' && cell(el, 'eur', 'price') === '۳۳۳٬۳۳۳',
      'second change not shown',
    );
    expect(region.textContent).toContain('۱۱۱٬۱۱۱'); // throttled: the second change waits
    expect(region.textContent).not.toContain('۳۳۳٬۳۳۳'); // eur is not the selected symbol
  });
});

describe('responsive layout', () => {
  it('a narrow container gets the compact layout: title, price, change; high and low hidden', async () => {
    const wrap = await fixture<HTMLDivElement>(
      html`<div><div class="narrow"><price-board base-url=${base()} api-key=${KEY} chart="none" symbols="usd"></price-board></div></div>`,
    );
    const el = wrap.querySelector('price-board') as PriceBoard;
    const narrow = wrap.querySelector<HTMLElement>('.narrow')!;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('.narrow { width: 320px } .narrow.wide { width: 800px }');
    document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    try {
      await untilLoaded(el);
      const shown = (name: string) =>
        getComputedStyle(row(el, 'usd')!.querySelector(`[part~="${name}"]`)!).display !== 'none';
      expect(['title', 'price', 'change'].map(shown)).toEqual([true, true, true]);
      expect(shown('high')).toBe(false);
      expect(shown('low')).toBe(false);
      narrow.classList.add('wide');
      await until(() => shown('high') && shown('low') && shown('time'), 'the wide layout did not come back');
    } finally {
      document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
    }
  });
});
