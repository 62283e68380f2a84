// The rows' templates (src/board/templates.ts): a render makes a row's template again only when
// the row changed (its quote, its flash, the selection, a column's width), and hands Lit the same
// template object for every other row, so a frame of live updates builds a handful of rows.
import { describe, expect, it } from 'vitest';
import type { TemplateResult } from 'lit';
import { renderTable, type TableState } from '../../../src/board/templates';
import { quoteRow, type RowContext, type RowView } from '../../../src/widget/row-view';
import { makeQuote } from '../../helpers/quote';

const ctx: RowContext = { unit: 'toman', now: new Date('2026-03-20T10:00:00+03:30'), day: undefined };
const SYMBOLS = ['usd', 'eur', 'gbp', 'aed'];
const view = (symbol: string, price = '1234567'): RowView =>
  quoteRow(makeQuote({ symbol, price, price_toman: price.slice(0, -1) }), ctx);

function state(over: Partial<TableState> = {}): TableState {
  return {
    unit: 'toman',
    columns: ['price', 'change'],
    loading: false,
    selected: 'usd',
    tabStop: 'usd',
    flashOf: () => false,
    onRowEvent: () => {},
    ...over,
  };
}

/** The rows' templates of a table, in order (the last value of the table's template). */
const rowsOf = (table: TemplateResult): TemplateResult[] => table.values.at(-1) as TemplateResult[];

/** Which rows got a template other than the one before. */
const remade = (before: TemplateResult[], after: TemplateResult[]): string[] =>
  SYMBOLS.filter((_, i) => before[i] !== after[i]);

describe('renderTable', () => {
  it('hands back the same template for a row that did not change', () => {
    const views = SYMBOLS.map((s) => view(s));
    const first = rowsOf(renderTable(views, state()));
    const again = rowsOf(renderTable([...views], state()));
    expect(remade(first, again)).toEqual([]);
  });

  it('makes again the row whose quote changed, and only it', () => {
    const views = SYMBOLS.map((s) => view(s));
    const first = rowsOf(renderTable(views, state()));
    const next = views.map((v) => (v.symbol === 'eur' ? view('eur', '1234570') : v));
    const after = rowsOf(renderTable(next, state()));
    expect(remade(first, after)).toEqual(['eur']);
    expect(after[1]!.values).toContain('۱۲۳٬۴۵۷');
  });

  it('makes again the rows whose flash, selection or tab stop changed', () => {
    const views = SYMBOLS.map((s) => view(s));
    const first = rowsOf(renderTable(views, state()));
    const flashed = rowsOf(renderTable(views, state({ flashOf: (s) => s === 'gbp' })));
    expect(remade(first, flashed)).toEqual(['gbp']);
    const selected = rowsOf(renderTable(views, state({ flashOf: (s) => s === 'gbp', selected: 'aed' })));
    expect(remade(flashed, selected)).toEqual(['usd', 'aed']);
    const moved = rowsOf(renderTable(views, state({ flashOf: (s) => s === 'gbp', selected: 'aed', tabStop: 'eur' })));
    expect(remade(selected, moved)).toEqual(['usd', 'eur']);
  });

  it('makes every row again when a longer value widens a column', () => {
    const views = SYMBOLS.map((s) => view(s));
    const first = rowsOf(renderTable(views, state()));
    const next = views.map((v) => (v.symbol === 'aed' ? view('aed', '123456789') : v));
    expect(remade(first, rowsOf(renderTable(next, state())))).toEqual(SYMBOLS);
  });
});
