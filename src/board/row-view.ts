/**
 * What one row shows, as strings: formatted once per quote (and per unit, day and staleness), so a
 * frame of live updates formats only the rows whose quote changed.
 */
import type { DisplayUnit, Quote } from '../api/types';
import { DOLLAR_SYMBOLS } from '../api/types';
import { formatJalaliDate, formatTime, formatUpdated } from '../format/date';
import { formatQuoteValue, unitLabel } from '../format/number';
import { formatPercent } from '../format/percent';
import { direction, isStale, type Direction } from '../model/quote';

export const DASH = '—';

/** One row's display state. */
export interface RowView {
  symbol: string;
  /** The service's Persian title, or the id when the service did not send the symbol. */
  title: string;
  price: string;
  high: string;
  low: string;
  change: string;
  /** ▲ / ▼ beside the change, so colour is not the only signal; empty when flat. */
  arrow: string;
  direction: Direction;
  time: string;
  /** When the quote last changed, in full (for a stale row's tooltip). */
  changedAt: string;
  /** Unit shown beside the price when it differs from the column's (dollars). */
  ownUnit: string | undefined;
  /** Spoken price with its unit, for announcements. */
  spokenPrice: string;
  stale: boolean;
  missing: boolean;
  /** No data yet: skeleton cells. */
  loading: boolean;
}

/** What the rows depend on besides the quote. */
export interface RowContext {
  unit: DisplayUnit;
  now: Date;
  /** `now`'s Tehran day (see {@link dayOf}): a new day turns times into dates. */
  day: string;
}

const memo = new WeakMap<Quote, { key: string; view: RowView }>();

/** The view of a row with no quote: skeleton while loading, else the id and dashes. */
export function emptyRow(symbol: string, missing: boolean, loading: boolean): RowView {
  return {
    symbol,
    title: symbol,
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
  };
}

/** The Tehran day of `now`, computed once per render rather than per row. */
export function dayOf(now: Date): string {
  return formatJalaliDate(now);
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
  const view: RowView = {
    symbol: quote.symbol,
    title: quote.title || quote.symbol,
    price,
    high: safe(() => formatQuoteValue(quote, 'high', ctx.unit)),
    low: safe(() => formatQuoteValue(quote, 'low', ctx.unit)),
    change: safe(() => formatPercent(quote.change_pct)),
    arrow: dir === 'up' ? '▲' : dir === 'down' ? '▼' : '',
    direction: dir,
    time: safe(() => formatUpdated(updated, ctx.now)),
    changedAt: safe(() => `${formatJalaliDate(updated, 'long')} ${formatTime(updated)}`),
    ownUnit: DOLLAR_SYMBOLS.has(quote.symbol) ? unit : undefined,
    spokenPrice: `${price} ${unit}`,
    stale,
    missing: false,
    loading: false,
  };
  memo.set(quote, { key, view });
  return view;
}
