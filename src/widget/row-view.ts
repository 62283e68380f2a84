/**
 * What one row shows, as strings: formatted once per quote (and per unit, day and staleness), so a
 * frame of live updates formats only the rows whose quote changed.
 */
import { html } from 'lit';
import type { Column } from '../shared/attribute-table';
import type { DisplayUnit, Quote } from '../shared/types';
import { DOLLAR_SYMBOLS } from '../shared/types';
import type { DateFormat } from '../format/date';
import { formatQuoteValue, unitLabel } from '../format/number';
import { formatPercent } from '../format/percent';
import { direction, isStale, type Direction } from '../model/quote';

export const DASH = '—';
/** A cell (or a ticker item's title) while loading: a placeholder bar, never the id. */
export const SKELETON = html`<span class="skeleton" aria-hidden="true"></span>`;

/** One row's display state. */
export interface RowView {
  symbol: string;
  /** The service's Persian title; empty until it is known (a placeholder shows, never the id). */
  title: string;
  price: string;
  high: string;
  low: string;
  change: string;
  /** ▲ / ▼ beside the change, so colour is not the only signal; empty when flat. */
  arrow: string;
  direction: Direction;
  time: string;
  /** When the quote last changed, in full (for a stale row's tooltip; empty while the row is not stale). */
  changedAt: string;
  /** Unit shown beside the price when it differs from the column's (dollars). */
  ownUnit: string | undefined;
  /** Spoken price with its unit, for announcements. */
  spokenPrice: string;
  stale: boolean;
  missing: boolean;
  /** No data yet: skeleton cells. */
  loading: boolean;
  /**
   * What sets the width of the price, change, high, low and time cells: their text with every
   * digit as ۰ (digits are tabular) and one sign and arrow (see {@link shape}), so it changes only
   * when the length or format does.
   */
  shapes: Partial<Readonly<Record<Column, string>>>;
}

/** What the rows depend on besides the quote. */
export interface RowContext {
  unit: DisplayUnit;
  now: Date;
  /**
   * `now`'s Tehran day (see {@link dayOf}): a new day turns times into dates. Undefined until the
   * date formatters are prepared (`dates.ts`): the time cells stay empty until then.
   */
  day: string | undefined;
  /** The date formatters, once prepared (with `day`). */
  dates?: DateFormat;
}

const memo = new WeakMap<Quote, { key: string; view: RowView }>();

/** The view of a row with no quote: skeleton while loading, else dashes (and no title: not the id). */
export function emptyRow(symbol: string, missing: boolean, loading: boolean): RowView {
  return {
    symbol,
    title: '',
    price: DASH,
    high: DASH,
    low: DASH,
    change: DASH,
    arrow: '',
    direction: 'flat',
    time: DASH,
    changedAt: '',
    ownUnit: undefined,
    spokenPrice: '',
    stale: false,
    missing,
    loading: loading && !missing,
    shapes: {},
  };
}

/** The Tehran day of `now`, computed once per render rather than per row. */
export function dayOf(now: Date, dates: DateFormat): string {
  return dates.formatJalaliDate(now);
}

/** `text` with every digit as ۰, every sign as + and every arrow as ▲: the same width, in tabular digits. */
export const shape = (text: string): string => text.replace(/[۰-۹]/g, '۰').replace(/[−-]/g, '+').replace(/▼/g, '▲');

/**
 * A toman value (rials ÷ 10) shows a decimal now and then: its shape always has one, so that its
 * column keeps its width while values come and go with and without it.
 */
function toman(text: string): string {
  return /[۰-۹]$/.test(text) && !text.includes('٫') ? `${text}٫۰` : text;
}

function safe(format: () => string): string {
  try {
    return format();
  } catch {
    return DASH; // a value the validator let through but no formatter can read
  }
}

/** The view of a row with a quote. */
export function quoteRow(quote: Quote, ctx: RowContext): RowView {
  const stale = isStale(quote, ctx.now);
  const key = `${ctx.unit}|${ctx.day}|${stale}`;
  const hit = memo.get(quote);
  if (hit && hit.key === key) return hit.view;
  const dir = direction(quote);
  const updated = new Date(quote.updated_at);
  const price = safe(() => formatQuoteValue(quote, 'price', ctx.unit));
  const unit = unitLabel(quote, ctx.unit);
  const ownUnit = DOLLAR_SYMBOLS.has(quote.symbol) ? unit : undefined;
  const arrow = dir === 'up' ? '▲' : dir === 'down' ? '▼' : '';
  const high = safe(() => formatQuoteValue(quote, 'high', ctx.unit));
  const low = safe(() => formatQuoteValue(quote, 'low', ctx.unit));
  const change = safe(() => formatPercent(quote.change_pct));
  const dates = ctx.day === undefined ? undefined : ctx.dates;
  const time = dates ? safe(() => dates.formatUpdated(updated, ctx.now)) : '';
  const money = (text: string) => (ownUnit || ctx.unit !== 'toman' ? text : toman(text));
  const view: RowView = {
    symbol: quote.symbol,
    title: quote.title,
    price,
    high,
    low,
    change,
    arrow,
    direction: dir,
    time,
    // Only a stale row shows it (a view is made anew when its row turns stale): two Intl formats spared per live quote.
    changedAt:
      stale && dates ? safe(() => `${dates.formatJalaliDate(updated, 'long')} ${dates.formatTime(updated)}`) : '',
    ownUnit,
    spokenPrice: `${price} ${unit}`,
    stale,
    missing: false,
    loading: false,
    shapes: {
      price: shape(ownUnit ? `${price} ${ownUnit}` : money(price)),
      change: shape(arrow ? `${arrow} ${change}` : change),
      high: shape(money(high)),
      low: shape(money(low)),
      time: shape(stale ? `◷ ${time}` : time),
    },
  };
  memo.set(quote, { key, view });
  return view;
}
