/**
 * The day's record (DESIGN.md §10, `days=1`): every change the relay relays, kept per symbol for
 * 24 h as 5-minute bars (open, high, low, close as the service's decimal strings, never floats), so
 * that `/v1/history/{s}?days=1` is answered at no upstream cost. A bar is the bound: however many
 * changes a symbol makes, it holds at most one bar per 5 minutes, and at most `RECORD_SYMBOLS`
 * symbols are held (the one whose last change is oldest goes first). One process holds them in
 * memory (`memory-record.ts`); the Redis engine keeps the same bars in Redis (`redis-record.ts`),
 * merged by the same rules in a script.
 */
import type { RecordedBar, RelayEvent } from './types';

/** One bar per this many ms (5 minutes: TradingView's intraday default; Tehran's +3:30 keeps them on the hour). */
export const BAR_MS = 5 * 60_000;
/** How long a change is kept. */
export const RECORD_MS = 24 * 60 * 60_000;
/** Bars held per symbol: a whole day, both ends included. */
export const RECORD_BARS = RECORD_MS / BAR_MS + 1;
/** Symbols held at most. */
export const RECORD_SYMBOLS = 256;
/**
 * A price recorded: a plain positive decimal of bounded length (a bar is then at most ~200 bytes).
 * Anything else cannot be drawn exactly and is left out of the record (still relayed).
 */
const PRICE = /^(0|[1-9]\d{0,23})(\.\d{1,12})?$/;

/** Compares two prices of the `PRICE` form exactly (no float): negative, zero or positive. */
export function comparePrice(a: string, b: string): number {
  const [ai = '', af = ''] = a.split('.');
  const [bi = '', bf = ''] = b.split('.');
  if (ai.length !== bi.length) return ai.length - bi.length;
  if (ai !== bi) return ai < bi ? -1 : 1;
  const n = Math.max(af.length, bf.length);
  const [x, y] = [af.padEnd(n, '0'), bf.padEnd(n, '0')];
  return x === y ? 0 : x < y ? -1 : 1;
}

/**
 * The bar of one change: at the change's `updated_at` (a date ahead of its arrival taken as the
 * arrival, as the quote merge does), or undefined when its price or date cannot be recorded.
 */
export function barOf(event: RelayEvent): RecordedBar | undefined {
  const { price, updated_at } = event.quote;
  const time = Math.min(Date.parse(updated_at), event.receivedAt || Infinity);
  if (typeof price !== 'string' || !PRICE.test(price) || !Number.isFinite(time)) return undefined;
  const t = Math.floor(time / BAR_MS) * BAR_MS;
  return { t, first: event.id, last: event.id, open: price, high: price, low: price, close: price };
}

/**
 * Two bars of the same period as one: open of the earliest change, close of the latest (by id),
 * the extremes of both. Merging a bar again changes nothing, so a write may be repeated.
 */
export function mergeBars(held: RecordedBar, next: RecordedBar): RecordedBar {
  const earlier = held.first <= next.first ? held : next;
  const later = held.last >= next.last ? held : next;
  return {
    t: held.t,
    first: earlier.first,
    last: later.last,
    open: earlier.open,
    close: later.close,
    high: comparePrice(held.high, next.high) >= 0 ? held.high : next.high,
    low: comparePrice(held.low, next.low) <= 0 ? held.low : next.low,
  };
}
