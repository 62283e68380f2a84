/**
 * What a board loads only when it shows a column beyond today's or links its titles (DESIGN.md
 * section 10; `columns.ts` asks for it): the `change-amount` and `bubble` cells, the `spark` cell
 * (the spark controller, loaded when that column is shown), the title links, and their styles.
 * The arithmetic is the model's, exact (`model/change-amount.ts`, `model/bubble.ts`); this file
 * turns it into what a cell shows.
 */
import { css, html, nothing } from 'lit';
import { addStyles } from '../widget/add-styles';
import type { LitElement } from 'lit';
import type { Column } from '../shared/attribute-table';
import type { DisplayUnit, Quote } from '../shared/types';
import { coinBubble, bubbleTitle } from '../model/bubble';
import { coinSpec } from '../model/coins';
import { changeAmount } from '../model/change-amount';
import { formatDecimal } from '../format/number';
import { formatPercent } from '../format/percent';
import type { Direction } from '../model/quote';
import type { SparkController } from '../widget/spark';
import { linkFor } from '../widget/settings';
import { importOnce } from '../widget/lazy-import';
import { DASH, shape, SKELETON, type RowView } from '../widget/row-view';
import { piece, type CellContext, type ExtraCells, type Piece } from './templates';

const loadSpark = importOnce(() => import('../widget/spark'));

const styles = css`
  [data-sign=up][part~=change-amount] {
    color: var(--_up);
  }
  [data-sign=down][part~=change-amount] {
    color: var(--_down);
  }
  [part~=title] a {
    color: inherit;
    text-decoration: none;
  }
  [part~=title] a:hover,
  [part~=title] a:focus-visible {
    text-decoration: underline;
  }
  /*
   * as wide and as tall with its line as before it came (the rows' tracks and heights stay the
   * same: a compact row's line is lower than the spark's)
   */
  [part~=spark] {
    box-sizing: content-box;
    min-inline-size: 64px;
    min-block-size: 20px;
  }
  [part~=spark] svg {
    display: block;
    inline-size: 64px;
    block-size: 20px;
  }
`;

/** A `change-amount` or `bubble` cell. */
interface Cell {
  text: string;
  /** The sign of the value shown, to colour by. */
  direction: Direction;
  /** How the value was computed (the bubble's), or why there is none. */
  title?: string;
  /** The unit beside the value when it differs from the column's (dollars). */
  ownUnit?: string;
  /** As `RowView.shapes`. */
  shape: string;
}

/** The cells computed for a quote, with what they were computed from. */
interface Memo {
  unit: DisplayUnit;
  amount?: Cell;
  bubble?: { ons: Quote | undefined; usd: Quote | undefined; cell: Cell | undefined };
}

const memo = new WeakMap<Quote, Memo>();

/** The signed change in the row's unit (whole toman or rial; dollars with cents), coloured by its sign. */
function amountCell(quote: Quote, unit: DisplayUnit): Cell {
  const amount = changeAmount(quote, unit);
  if (!amount.ok) return { text: DASH, direction: 'flat', title: amount.message, shape: DASH };
  const dollar = amount.unit === 'dollar';
  const text = formatDecimal(amount.value, { signDisplay: 'exceptZero', minFractionDigits: dollar ? 2 : 0 });
  const ownUnit = dollar ? 'دلار' : undefined;
  return { text, direction: amount.direction, ownUnit, shape: shape(ownUnit ? `${text} ${ownUnit}` : text) };
}

/** A coin's bubble as a signed percent, its title saying how it was computed; none for other rows. */
function bubbleCell(quote: Quote, ons: Quote | undefined, usd: Quote | undefined, unit: DisplayUnit) {
  const bubble = coinBubble(quote, ons, usd);
  if (!bubble) return undefined;
  const text = formatPercent(bubble.percent);
  return { text, direction: bubble.direction, title: bubbleTitle(bubble, unit), shape: shape(text) };
}

/** What the columns need of the board. */
export interface ColumnsSource {
  /** The latest quote of a symbol, shown or followed (the bubble's `ons` and `usd`). */
  get(symbol: string): Quote | undefined;
  /** The service the spark's history comes from. */
  connection(): { baseUrl: string; apiKey?: string };
}

/** What the board's settings say of the columns. */
export interface ColumnSettings {
  columns: readonly Column[];
  symbols: readonly string[];
  unit: DisplayUnit;
  link: string | undefined;
}

export class ExtraColumns implements ExtraCells {
  readonly #host: LitElement;
  readonly #source: ColumnsSource;
  #unit: DisplayUnit = 'toman';
  #spark: SparkController | undefined;
  #sparkShown = false;
  /** The link template the addresses in `#hrefs` were made from. */
  #link: string | undefined;
  readonly #hrefs = new Map<string, string | undefined>();
  #bubbleShown = false;
  /** Per symbol, the last {@link stamp}. */
  readonly #stamps = new Map<string, unknown[]>();

  constructor(host: LitElement, source: ColumnsSource) {
    this.#host = host;
    this.#source = source;
    // Beside the board's sheets (and its extras', whichever chunk came first).
    addStyles(host, [styles]);
  }

  /** Before each render: the settings, and the symbols whose spark is wanted. */
  update(s: ColumnSettings): void {
    this.#unit = s.unit;
    this.#bubbleShown = s.columns.includes('bubble');
    if (s.link !== this.#link) this.#hrefs.clear();
    this.#link = s.link;
    const spark = s.columns.includes('spark');
    if (spark && !this.#spark) {
      loadSpark().then(
        ({ SparkController }) => {
          this.#spark ??= new SparkController(this.#host, this.#source);
          this.#host.requestUpdate();
        },
        () => {}, // tried again at the next update
      );
    }
    if (this.#spark && (spark || this.#sparkShown)) this.#spark.want(spark ? [...s.symbols] : []);
    this.#sparkShown = spark && !!this.#spark;
  }

  /**
   * The `change-amount` or `bubble` cell of a row, computed once per quote (and unit, and for the
   * bubble per `ons` and `usd` quote).
   */
  #cell(column: Column, v: RowView): Cell | undefined {
    const quote = this.#source.get(v.symbol);
    if (!quote) return undefined;
    const unit = this.#unit;
    let m = memo.get(quote);
    if (!m || m.unit !== unit) memo.set(quote, (m = { unit }));
    if (column === 'change-amount') return (m.amount ??= amountCell(quote, unit));
    // Only a coin has a bubble: other rows' stay undefined while `ons` and `usd` move.
    if (column !== 'bubble' || !coinSpec(quote.symbol)) return undefined;
    const ons = this.#source.get('ons');
    const usd = this.#source.get('usd');
    let bubble = m.bubble;
    if (!bubble || bubble.ons !== ons || bubble.usd !== usd) {
      m.bubble = bubble = { ons, usd, cell: bubbleCell(quote, ons, usd, unit) };
    }
    return bubble.cell;
  }

  shape(column: Column, v: RowView): string | undefined {
    return this.#cell(column, v)?.shape;
  }

  cell(column: Column, v: RowView, { w, cls }: CellContext): Piece {
    if (column === 'spark') {
      return piece`<div part="spark" class=${cls} role="cell">${v.loading ? nothing : this.#sparkOf(v.symbol)}</div>`;
    }
    const cell = v.loading ? undefined : this.#cell(column, v);
    // Without a value: a dash for the amount (no quote, or no previous price), nothing for a bubble (not a coin).
    const text = v.loading ? SKELETON : (cell?.text ?? (column === 'bubble' ? '' : DASH));
    return piece`<div part=${column} class=${cls} role="cell" data-sign=${cell?.direction ?? nothing} data-unit=${cell?.ownUnit ?? nothing} title=${cell?.title ?? nothing} data-w=${w}><span class="value">${text}</span></div>`;
  }

  /** As {@link ExtraCells.stamp}: the same array while the row's link template, bubble and spark stay. */
  stamp(v: RowView): unknown {
    const bubble = this.#bubbleShown && !v.loading && this.#cell('bubble', v);
    const spark = this.#sparkOf(v.symbol);
    const last = this.#stamps.get(v.symbol);
    // Compared before a new array is made: every row asks for its stamp at every render.
    if (last && last[0] === this.#link && last[1] === bubble && last[2] === spark) return last;
    const stamp = [this.#link, bubble, spark];
    this.#stamps.set(v.symbol, stamp);
    return stamp;
  }

  /** A row's spark as its cell shows it (the same object until its line changes). */
  #sparkOf(symbol: string): unknown {
    return this.#spark?.render(symbol) ?? nothing;
  }

  title(v: RowView, tabStop: boolean): unknown {
    const link = this.#link;
    if (!link) return undefined;
    if (!this.#hrefs.has(v.symbol)) this.#hrefs.set(v.symbol, linkFor(link, v.symbol));
    const href = this.#hrefs.get(v.symbol);
    // In a frame (the embed page), a link leaves the frame: the site's page opens in its window.
    // (A server has no window: a fragment is rendered as the page's own, unframed.)
    const target = globalThis.top === globalThis.self ? nothing : '_top';
    return href
      ? html`<a href=${href} rel="noopener" target=${target} tabindex=${tabStop ? '0' : '-1'}>${v.title}</a>`
      : undefined;
  }
}
