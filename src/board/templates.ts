/**
 * The board's markup, piece by piece. Text bindings only (titles come from the service and are
 * never HTML), no inline styles (strict CSP), and the stable parts/data attributes of DESIGN.md.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ConnectionStatus, DisplayUnit } from '../shared/types';
import type { RowView } from '../widget/row-view';

/** The status line's text while the first prices are on their way (`status-text.ts` has the others). */
export const LOADING_TEXT = 'در حال دریافت قیمت‌ها…';

/** `market`: `closed` when every shown quote is stale (DESIGN.md section 9), else `open`. */
export function renderStatus(status: ConnectionStatus, text: string, market: 'open' | 'closed'): TemplateResult {
  return html`<div part="status" data-status=${status} data-market=${market}><span class="dot" aria-hidden="true"></span>${text}</div>`;
}

const UNIT_NAME: Readonly<Record<DisplayUnit, string>> = { toman: 'تومان', rial: 'ریال' };

/** What the table needs besides the rows. */
export interface TableState {
  unit: DisplayUnit;
  loading: boolean;
  selected: string;
  /** The row that takes Tab (roving tabindex). */
  tabStop: string;
  flashOf(symbol: string): number;
  /** A click, key press or focus in the rows. */
  onRowEvent(event: Event): void;
}

/** A placeholder for a value while the first prices are on their way. */
const SKELETON = html`<span class="skeleton" aria-hidden="true"></span>`;
const SKELETON_SHORT = html`<span class="skeleton short" aria-hidden="true"></span>`;
const loadingTitle = (symbol: string) => html`<span class="sr-only">${symbol}</span>${SKELETON}`;
/** ▲ / ▼ beside the change (none when flat). */
const arrowOf = (arrow: string) => html`<span class="arrow" aria-hidden="true">${arrow}</span>`;

/** Header texts of the price, change, high, low and time columns. */
const headers = (unit: DisplayUnit): string[] => [`قیمت (${UNIT_NAME[unit]})`, 'تغییر', 'بیشترین', 'کمترین', 'زمان'];

/** Per table (unit and symbols): the longest value shape of each kind seen, and the `data-w`s. */
const seen = new Map<string, { longest: Map<string, string>; w: string[] }>();

const digits = (shape: string): number => shape.split('۰').length - 1;
/** Every character of `a` is in `b`, as often. */
const within = (a: string, b: string): boolean => [...a].every((c) => b.split(c).length >= a.split(c).length);

/**
 * The `data-w` of each column (price, change, high, low, time), the same in every row and in the
 * header: the header text and, one per line, the longest value shape of each kind (what is left
 * without the digits: separators, sign, unit) but those another line is sure to be wider than
 * (more digits and the same other characters). A column never narrows while the table shows the
 * same symbols, so a value flipping between formats (a toman price with and without its decimal)
 * does not relayout every row. The price column takes the change's lines too: the two share a
 * column in the compact layout.
 */
function columnWidths(rows: readonly RowView[], unit: DisplayUnit): string[] {
  const id = unit + rows.map((v) => v.symbol).join();
  let table = seen.get(id);
  if (!table) {
    if (seen.size > 20) seen.clear();
    seen.set(id, (table = { longest: new Map(), w: [] }));
  }
  const { longest } = table;
  let grew = table.w.length === 0;
  for (const v of rows) {
    v.shapes.forEach((shape, i) => {
      const kind = i + shape.replace(/۰/g, '');
      if (shape.length > (longest.get(kind)?.length ?? -1)) {
        longest.set(kind, shape);
        grew = true;
      }
    });
  }
  if (grew) {
    const lines = headers(unit).map((header) => [header]);
    const all = [...longest];
    for (const [kind, shape] of all) {
      const wider = all.some(
        ([k, s]) => k[0] === kind[0] && s.length > shape.length && digits(s) >= digits(shape) && within(kind, k),
      );
      if (!wider) lines[+kind[0]!]!.push(shape);
    }
    lines[0]!.push(...lines[1]!.slice(1));
    // Sorted: the same shapes met in another order give the same text.
    table.w = lines.map((l) => l.sort().join('\n'));
  }
  return table.w;
}

/**
 * One row: one template whose cells bind their text directly (the first render of the rows builds
 * one template instance per row, and one per arrow, instead of one per cell), so a loaded row is
 * `<div part=price><span class=value>text</span></div>` and so on. While loading, each value is a
 * skeleton (inside the same span) and the title the id for screen readers: the row's element stays
 * when the prices come, and so does the focus.
 */
function renderRow(v: RowView, t: TableState, w: readonly string[]): TemplateResult {
  const flashes = t.flashOf(v.symbol);
  const loading = v.loading;
  return html`<div
    part="row"
    class="row"
    role="row"
    data-symbol=${v.symbol}
    data-direction=${v.direction}
    ?data-stale=${v.stale}
    ?data-missing=${v.missing}
    tabindex=${v.symbol === t.tabStop ? '0' : '-1'}
    aria-current=${v.symbol === t.selected ? 'true' : nothing}
    ><div part="title" class="cell" role="rowheader">${loading ? loadingTitle(v.symbol) : v.title}</div
    ><div
      part="price"
      class=${flashes === 0 ? 'cell' : flashes % 2 ? 'cell flash-a' : 'cell flash-b'}
      role="cell"
      data-unit=${v.ownUnit ?? nothing}
      data-w=${w[0]}
      ><span class="value">${loading ? SKELETON : v.price}</span></div
    ><div part="change" class="cell" role="cell" data-w=${w[1]}
      >${v.arrow ? arrowOf(v.arrow) : nothing}<span class="value">${loading ? SKELETON_SHORT : v.change}</span></div
    ><div part="high" class="cell" role="cell" data-w=${w[2]}><span class="value">${loading ? SKELETON : v.high}</span></div
    ><div part="low" class="cell" role="cell" data-w=${w[3]}><span class="value">${loading ? SKELETON : v.low}</span></div
    ><div part="time" class="cell" role="cell" data-w=${w[4]} title=${v.stale ? `آخرین تغییر: ${v.changedAt}` : nothing}
      ><span class="value">${loading ? SKELETON : v.time}</span></div
    ></div
  >`;
}

/**
 * The quotes table: ARIA table semantics over one CSS grid per row (the same columns in each),
 * one focusable row per symbol. Rows are rendered by position: a row's element keeps its place
 * and takes the next values, so a frame of live updates writes only the cells that changed.
 */
export function renderTable(rows: readonly RowView[], t: TableState): TemplateResult {
  const w = columnWidths(rows, t.unit);
  const [price, change, high, low, time] = headers(t.unit);
  return html`<div class="table" role="table" aria-label="قیمت‌ها" aria-busy=${t.loading ? 'true' : 'false'}>
    <div class="rowgroup" role="rowgroup">
      <div class="row head" role="row">
        <div class="cell col-title" role="columnheader">نام</div>
        <div class="cell col-price" role="columnheader" data-w=${w[0]}>${price}</div>
        <div class="cell col-change" role="columnheader" data-w=${w[1]}>${change}</div>
        <div class="cell col-high" role="columnheader" data-w=${w[2]}>${high}</div>
        <div class="cell col-low" role="columnheader" data-w=${w[3]}>${low}</div>
        <div class="cell col-time" role="columnheader" data-w=${w[4]}>${time}</div>
      </div>
    </div>
    <div class="rowgroup rows" role="rowgroup" @click=${t.onRowEvent} @keydown=${t.onRowEvent} @focusin=${t.onRowEvent}>
      ${rows.map((v) => renderRow(v, t, w))}
    </div>
  </div>`;
}
