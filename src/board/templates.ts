/**
 * The board's markup, piece by piece. Text bindings only (titles come from the service and are
 * never HTML), no inline styles (strict CSP), and the stable parts/data attributes of DESIGN.md.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Column } from '../shared/attribute-table';
import type { ConnectionStatus, DisplayUnit } from '../shared/types';
import { MONEY_NAME } from '../format/number';
import { DASH, SKELETON, type RowView } from '../widget/row-view';

/** The status line's text while the first prices are on their way (`status-text.ts` has the others). */
export const LOADING_TEXT = 'در حال دریافت قیمت‌ها…';

/** `market`: `closed` when every shown quote is stale (DESIGN.md section 9), else `open`. */
export function renderStatus(status: ConnectionStatus, text: string, market: 'open' | 'closed'): TemplateResult {
  return html`<div part="status" data-status=${status} data-market=${market}><span class="dot" aria-hidden="true"></span>${text}</div>`;
}

/** What the table needs besides the rows. */
export interface TableState {
  unit: DisplayUnit;
  /** The cells of a row, in order. */
  columns: readonly Column[];
  loading: boolean;
  selected: string;
  /** The row that takes Tab (roving tabindex). */
  tabStop: string;
  /** Whether the price of `symbol` shows its flash now (`flash.ts`). */
  flashOf(symbol: string): boolean;
  /** A click, key press or focus in the rows. */
  onRowEvent(event: Event): void;
  /** The columns' own chunk (`extra-columns.ts`), once loaded: cells beyond today's, title links. */
  extra?: ExtraCells;
  /**
   * The first paint's light form: one grid for the table whose rows take its tracks (subgrid), the
   * sizers (`data-w`) in the header only. The full form (a grid and sizers per row, each row laid
   * out apart from the others during live updates) follows the first paint with the same boxes.
   */
  light?: boolean;
}

/**
 * What the columns' chunk adds: the `change-amount`, `bubble` and `spark` cells (until it is there
 * they are empty, or a skeleton), and the titles as links (`link`).
 */
export interface ExtraCells {
  cell(column: Column, v: RowView, c: CellContext): Piece;
  /** As {@link RowView.shapes}, for such a cell. */
  shape(column: Column, v: RowView): string | undefined;
  /**
   * The same object while what the chunk shows in a row stays but for the row's quote (its bubble
   * follows `ons` and `usd`, its spark its line, its title `link`): the row is measured and
   * rendered again when it changes.
   */
  stamp(v: RowView): unknown;
  /** A row's title as a link to the site's page for its symbol; `undefined` without one. */
  title(v: RowView, tabStop: boolean): unknown;
}

/** A placeholder for a value while the first prices are on their way. */
const SKELETON_SHORT = html`<span class="skeleton short" aria-hidden="true"></span>`;
/** A title while loading: a skeleton, said to screen readers (a row header is never empty), never the id. */
const LOADING_TITLE = html`<span class="sr-only">${LOADING_TEXT}</span>${SKELETON}`;
/** ▲ / ▼ beside the change (none when flat). */
const arrowOf = (arrow: string) => html`<span class="arrow" aria-hidden="true">${arrow}</span>`;

/** Header text of each column. */
const HEADERS: Readonly<Record<Column, (unit: DisplayUnit) => string>> = {
  price: (unit) => `قیمت (${MONEY_NAME[unit]})`,
  change: () => 'تغییر',
  'change-amount': (unit) => `تغییر (${MONEY_NAME[unit]})`,
  high: () => 'بیشترین',
  low: () => 'کمترین',
  time: () => 'زمان',
  spark: () => '۷ روز',
  bubble: () => 'حباب',
};

/**
 * Where a column's cells go in the narrower layouts (the `.board` container queries): the first
 * two columns (but `time`, and `high` and `low` while others are there) are the `lead` and the
 * `second` (below 440 px, one over the other); `high` and `low` otherwise are `minor` (hidden
 * below 720 px); `time` goes under the title below 720 px; the others are `more` (hidden below
 * 600 px). The default columns lay out as before: price over change, high and low hidden.
 */
function slotsOf(columns: readonly Column[]): Record<string, string> {
  const minor = (c: Column) => c === 'high' || c === 'low';
  const main = [...columns.filter((c) => c !== 'time' && !minor(c)), ...columns.filter(minor)];
  const slots: Record<string, string> = {};
  for (const c of columns) {
    slots[c] = c === main[0] ? 'lead' : c === main[1] ? 'second' : c === 'time' ? 'when' : minor(c) ? 'minor' : 'more';
  }
  return slots;
}

/** Per table (unit, columns and symbols): the longest value shape of each kind seen, and the `data-w`s. */
interface Table {
  longest: Map<string, string>;
  w: Record<string, string>;
  /** A longest shape grew since `w` was made. */
  grew: boolean;
}
const seen = new Map<string, Table>();

const digits = (shape: string): number => shape.split('۰').length - 1;
/** Every character of `a` is in `b`, as often. */
const within = (a: string, b: string): boolean => [...a].every((c) => b.split(c).length >= a.split(c).length);

/** Takes the value shapes of a row's cells into its table (none for the spark: its width is fixed). */
function measure(table: Table, v: RowView, t: TableState): void {
  for (const column of t.columns) {
    const shape = v.shapes[column] ?? t.extra?.shape(column, v);
    if (shape === undefined) continue;
    const kind = `${column}|${shape.replace(/۰/g, '')}`;
    if (shape.length > (table.longest.get(kind)?.length ?? -1)) {
      table.longest.set(kind, shape);
      table.grew = true;
    }
  }
}

/**
 * The `data-w` of each column, the same in every row and in the header: the header text and, one
 * per line, the longest value shape of each kind (what is left without the digits: separators,
 * sign, unit) but those another line is sure to be wider than (more digits and the same other
 * characters). A column never narrows while the table shows the same symbols, so a value flipping
 * between formats (a toman price with and without its decimal) does not relayout every row. The
 * lead column takes the second's lines too: the two share a column in the narrow layout.
 */
function columnWidths(table: Table, t: TableState, slots: Record<string, string>): Record<string, string> {
  if (table.grew) {
    table.grew = false;
    const lines = new Map<string, string[]>(t.columns.map((c) => [c, [HEADERS[c](t.unit)]]));
    const all = [...table.longest];
    for (const [kind, shape] of all) {
      const column = kind.slice(0, kind.indexOf('|'));
      const wider = all.some(
        ([k, s]) =>
          k.startsWith(`${column}|`) && s.length > shape.length && digits(s) >= digits(shape) && within(kind, k),
      );
      if (!wider) lines.get(column)?.push(shape);
    }
    const lead = t.columns.find((c) => slots[c] === 'lead');
    const second = t.columns.find((c) => slots[c] === 'second');
    if (lead && second) lines.get(lead)!.push(...lines.get(second)!.slice(1));
    // Sorted: the same shapes met in another order give the same text.
    table.w = Object.fromEntries([...lines].map(([c, l]) => [c, l.sort().join('\n')]));
  }
  return table.w;
}

/**
 * A row's template and what it was made from besides its view, which is made once per quote: a
 * frame of live updates measures and renders again only the rows whose quote, flash or columns'
 * chunk's cells changed (and all of them when a column widened).
 */
interface Made {
  deps: unknown[];
  /** The `data-w`s the template was made with (`nothing`: the light form's, none). */
  w?: object | typeof nothing;
  row?: TemplateResult;
}
const made = new WeakMap<RowView, Made>();

/** Static markup and the values between, as a tagged template literal gives them. */
export interface Piece {
  strings: readonly string[];
  values: unknown[];
}
export const piece = (strings: TemplateStringsArray, ...values: unknown[]): Piece => ({ strings, values });

/**
 * The row templates, one per combination of columns: the pieces' static markup joined into one
 * strings array, kept so that Lit sees the same template for every row (what `lit/static-html`
 * does, without its per-call lookups).
 */
const rowTemplates = new Map<string, TemplateStringsArray>();

function joinPieces(key: string, pieces: readonly Piece[]): TemplateResult {
  let strings = rowTemplates.get(key);
  if (!strings) {
    const out = [''];
    for (const p of pieces) {
      out[out.length - 1] += p.strings[0]!;
      out.push(...p.strings.slice(1));
    }
    strings = Object.assign(out, { raw: [...out] }) as unknown as TemplateStringsArray;
    rowTemplates.set(key, strings);
  }
  return html(strings, ...pieces.flatMap((p) => p.values));
}

/** What a cell needs besides the row. */
export interface CellContext {
  t: TableState;
  /** The column's `data-w` (none in the light form's rows). */
  w: string | undefined | typeof nothing;
  /** `cell` and the column's slot class. */
  cls: string;
}

const skeletonOr = (v: RowView, text: string, short = false) =>
  v.loading ? (short ? SKELETON_SHORT : SKELETON) : text;

/** A cell of the columns' chunk before it is there: a change amount's skeleton, else empty. */
const pending = (column: Column, v: RowView, cls: string) =>
  piece`<div part=${column} class=${cls} role="cell"><span class="value">${column === 'change-amount' && !v.missing ? SKELETON : nothing}</span></div>`;

/**
 * Each column's cell: one `part` of the column's name, its text bound directly; `flash` is whether
 * the row's price flashes (asked once per row, for the row's template too).
 */
const CELLS: Readonly<Partial<Record<Column, (v: RowView, c: CellContext, flash: boolean) => Piece>>> = {
  price: (v, { w, cls }, flash) => {
    return piece`<div part="price" class=${flash ? `${cls} flash` : cls} role="cell" data-unit=${v.ownUnit ?? nothing} data-w=${w}><span class="value">${skeletonOr(v, v.price)}</span></div>`;
  },
  change: (v, { w, cls }) =>
    piece`<div part="change" class=${cls} role="cell" data-w=${w}>${v.arrow ? arrowOf(v.arrow) : nothing}<span class="value">${skeletonOr(v, v.change, true)}</span></div>`,
  high: (v, { w, cls }) =>
    piece`<div part="high" class=${cls} role="cell" data-w=${w}><span class="value">${skeletonOr(v, v.high)}</span></div>`,
  low: (v, { w, cls }) =>
    piece`<div part="low" class=${cls} role="cell" data-w=${w}><span class="value">${skeletonOr(v, v.low)}</span></div>`,
  time: (v, { w, cls }) =>
    piece`<div part="time" class=${cls} role="cell" data-w=${w} title=${v.stale ? `آخرین تغییر: ${v.changedAt}` : nothing}><span class="value">${skeletonOr(v, v.time)}</span></div>`,
};

/**
 * A row's title: the service's (a link to the site's page for the symbol with `link`); until it is
 * known a skeleton while loading, else a dash, never the id (DESIGN.md section 9).
 */
function titleOf(v: RowView, t: TableState): unknown {
  if (!v.title) return v.loading ? LOADING_TITLE : DASH;
  return t.extra?.title(v, v.symbol === t.tabStop) ?? v.title;
}

/**
 * One row: one template whose cells bind their text directly (the first render of the rows builds
 * one template instance per row, and one per arrow, instead of one per cell), so a loaded row is
 * `<div part=price><span class=value>text</span></div>` and so on. While loading, each value is a
 * skeleton (inside the same span), the title too (the table is `aria-busy`): the row's element
 * stays when the prices come, and so does the focus.
 */
function renderRow(
  v: RowView,
  t: TableState,
  contexts: readonly CellContext[],
  key: string,
  flash: boolean,
): TemplateResult {
  const head = piece`<div part="row" class="row" role="row" data-symbol=${v.symbol} data-direction=${v.direction} ?data-stale=${v.stale} ?data-missing=${v.missing} tabindex=${v.symbol === t.tabStop ? '0' : '-1'} aria-current=${v.symbol === t.selected ? 'true' : nothing}><div part="title" class="cell" role="rowheader">${titleOf(v, t)}</div>`;
  const cells = t.columns.map((c, i) => {
    const context = contexts[i]!;
    return CELLS[c]?.(v, context, flash) ?? t.extra?.cell(c, v, context) ?? pending(c, v, context.cls);
  });
  return joinPieces(key, [head, ...cells, piece`</div>`]);
}

/**
 * The light form's rows on the table's tracks: the first 20. Those past them are painted only once
 * on screen (content-visibility, price-board.styles.ts), each then a grid of its own: with sizers.
 */
const LIGHT_ROWS = 20;

/**
 * The light form's classes that say how many tracks a row spans (`--n`, price-board.styles.ts): the
 * title's and one per cell shown, all (`n`), below 720 px (`m`: no minor, the time under the title)
 * and below 600 px (`s`: the lead and the second, the more columns being there only beside both).
 */
function spans(columns: readonly Column[], slots: Record<string, string>): string {
  const m = 1 + columns.filter((c) => !/minor|when/.test(slots[c]!)).length;
  return `n${columns.length + 1} m${m} s${Math.min(m, 3)}`;
}

/**
 * The quotes table: ARIA table semantics over one CSS grid per row (the same columns in each; in
 * the light form, one grid for the table), one focusable row per symbol. Rows are rendered by position: a row's element keeps its place
 * and takes the next values, so a frame of live updates writes only the cells that changed. The
 * column header stays in view while the rows scroll (`--price-board-max-height`).
 */
export function renderTable(rows: readonly RowView[], t: TableState): TemplateResult {
  const slots = slotsOf(t.columns);
  const id = t.unit + t.columns.join() + rows.map((v) => v.symbol).join();
  let table = seen.get(id);
  if (!table) {
    if (seen.size > 20) seen.clear();
    seen.set(id, (table = { longest: new Map(), w: {}, grew: true }));
  }
  const rowsMade = rows.map((v) => {
    const { symbol } = v;
    const deps = [table, t.flashOf(symbol), symbol === t.tabStop, symbol === t.selected, t.extra?.stamp(v)];
    let m = made.get(v);
    if (!m || deps.some((d, i) => d !== m!.deps[i])) {
      made.set(v, (m = { deps }));
      measure(table, v, t);
    }
    return m;
  });
  const w = columnWidths(table, t, slots);
  // Per table, not per row: each column's cell context (in the light form's rows, with no width:
  // the header's hold for all), and the row template's key.
  const contexts = (light: boolean) =>
    t.columns.map((c): CellContext => ({ t, w: light ? nothing : w[c], cls: `cell ${slots[c]}` }));
  const full = contexts(false);
  const light = contexts(true);
  const key = t.columns.join() + (t.extra ? '+' : '');
  return html`<div class=${t.light ? `table light ${spans(t.columns, slots)}` : 'table'} role="table" aria-label="قیمت‌ها" aria-busy=${t.loading ? 'true' : 'false'}>
    <div class="rowgroup head" role="rowgroup">
      <div class="row" role="row">
        <div class="cell col-title" role="columnheader">نام</div>
        ${t.columns.map(
          (c) =>
            html`<div class=${`cell col-${c} ${slots[c]}`} role="columnheader" data-w=${w[c] ?? nothing}>${HEADERS[c](t.unit)}</div>`,
        )}
      </div>
    </div>
    <div class="rowgroup rows" role="rowgroup" @click=${t.onRowEvent} @keydown=${t.onRowEvent} @focusin=${t.onRowEvent}>
      ${rows.map((v, i) => {
        const m = rowsMade[i]!;
        const own = t.light && i < LIGHT_ROWS ? nothing : w;
        if (m.w !== own) {
          m.w = own;
          m.row = renderRow(v, t, own === w ? full : light, key, m.deps[1] as boolean); // the flash, as this render asked
        }
        return m.row;
      })}
    </div>
  </div>`;
}
