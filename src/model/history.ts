/**
 * Price history → chart candles (pure). The service's history shape is not published, so
 * `normalizeHistory` accepts every shape of DESIGN.md section 4; candles are bucketed on Tehran
 * boundaries (a daily candle starts at Tehran midnight, 20:30 UTC of the day before).
 */
import { PriceBoardError } from '../shared/errors';
import type { Candle } from '../shared/types';
import { tehranOffsetSeconds } from '../format/tehran-offset';
import { isObject } from '../api/validate';
import { type HistoryPoint, parsePoint } from './history-point';

export type { HistoryPoint } from './history-point';

const CONTAINER_KEYS = ['points', 'history', 'candles', 'items', 'prices'];

/**
 * Points read at most (the last ones of the list: services list oldest first). A year every 15
 * minutes is 35,040; a million points froze the page for seconds, so the rest is never looked at.
 */
export const MAX_HISTORY_POINTS = 40_000;
/** Points dated this far past our clock are kept (clocks differ); later ones are dropped. */
const FUTURE_SKEW_S = 5 * 60;

/** The span asked for: points outside it (with one day's slack for bucket alignment) are dropped. */
export interface HistorySpan {
  days: number;
  /** Epoch ms; default `Date.now()`. */
  now?: number;
}

function findList(body: unknown): unknown[] | undefined {
  for (const x of isObject(body) ? [body.data, body] : [body]) {
    if (Array.isArray(x)) return x;
    if (isObject(x)) for (const key of CONTAINER_KEYS) if (Array.isArray(x[key])) return x[key] as unknown[];
  }
  return undefined;
}

/**
 * The valid points of a history body, sorted by time, one per time (the last one given wins).
 * Accepts `{"data": X}` or bare `X`, where `X` is a list of points or an object holding one under
 * `points`, `history`, `candles`, `items` or `prices`. A point whose time is unreadable or whose
 * values are not finite numbers above zero is dropped; an inverted bar is widened to its envelope.
 * Only the last {@link MAX_HISTORY_POINTS} entries are read, and with a `span` only points inside
 * it (never in the future) are kept. Throws `PriceBoardError('bad_response')` when no valid point remains.
 */
export function normalizeHistory(body: unknown, span?: HistorySpan): HistoryPoint[] {
  const found = findList(body);
  if (!found) throw new PriceBoardError('bad_response', 'History body holds no list of points');
  const list = found.length > MAX_HISTORY_POINTS ? found.slice(-MAX_HISTORY_POINTS) : found;
  const now = (span?.now ?? Date.now()) / 1000;
  const from = span ? now - (span.days + 1) * 86_400 : 0;
  const to = span ? now + FUTURE_SKEW_S : Infinity;
  // One point per time, the last one given winning.
  const byTime = new Map<number, HistoryPoint>();
  for (const p of list.map(parsePoint)) if (p && p.time >= from && p.time <= to) byTime.set(p.time, p);
  if (byTime.size === 0) {
    throw new PriceBoardError('bad_response', `History body holds no valid point (of ${list.length})`);
  }
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}

/**
 * Candle length in seconds for a span in days: 1 day (today, intraday as TradingView's 1D) 5
 * minutes, up to 14 days 1 h, up to 120 days 4 h, longer 1 day.
 */
export function intervalFor(days: number): number {
  if (days <= 1) return 300;
  if (!(days > 14)) return 3600;
  return days <= 120 ? 14_400 : 86_400;
}

const tehranOffsetAt = (time: number): number => tehranOffsetSeconds(new Date(time * 1000));

/**
 * Tehran's offset per UTC day, looked up once per day (Intl lookups cost microseconds each and a
 * year of hourly points is thousands) and per point only on a day the offset changed.
 */
function offsetLookup(): (time: number) => number {
  const byDay = new Map<number, number | null>();
  return (time) => {
    const day = Math.floor(time / 86_400);
    let offset = byDay.get(day);
    if (offset === undefined) {
      const start = tehranOffsetAt(day * 86_400);
      const end = tehranOffsetAt((day + 1) * 86_400 - 1);
      offset = start === end ? start : null;
      byDay.set(day, offset);
    }
    return offset ?? tehranOffsetAt(time);
  };
}

/**
 * The UTC start of the Tehran-local bucket holding `time`. The offset is re-read at the start,
 * so on a day the clocks moved (Iran kept DST until 2022) the day still starts at local midnight.
 */
function bucketStart(time: number, intervalSec: number, offsetAt: (time: number) => number): number {
  const offset = offsetAt(time);
  const local = Math.floor((time + offset) / intervalSec) * intervalSec;
  const atStart = offsetAt(local - offset);
  return local - (atStart === offset ? offset : atStart);
}

function checkInterval(intervalSec: number): void {
  if (!Number.isInteger(intervalSec) || intervalSec <= 0) throw new RangeError(`Bad candle interval: ${intervalSec}`);
}

/**
 * Buckets points into candles of `intervalSec` aligned to Tehran midnight: `time` is the bucket's
 * start (UTC seconds), open = first point's open, close = last point's close, high/low the
 * extremes. One candle per non-empty bucket, sorted by time.
 */
export function toCandles(points: readonly HistoryPoint[], intervalSec: number): Candle[] {
  checkInterval(intervalSec);
  const offsetAt = offsetLookup();
  const candles: Candle[] = [];
  for (const p of [...points].sort((a, b) => a.time - b.time))
    add(candles, bucketStart(p.time, intervalSec, offsetAt), p);
  return candles;
}

/**
 * Adds `p` to the candle of the bucket starting at `time`: the last one (replaced by a new object,
 * never mutated) or a new one pushed; true when new.
 */
function add(candles: Candle[], time: number, p: Omit<Candle, 'time'>): boolean {
  const last = candles[candles.length - 1];
  const same = last?.time === time;
  candles[candles.length - (same ? 1 : 0)] = same
    ? { ...last, high: Math.max(last.high, p.high), low: Math.min(last.low, p.low), close: p.close }
    : { time, open: p.open, high: p.high, low: p.low, close: p.close };
  return !same;
}

/**
 * Applies a live value at `time` (UTC seconds) to the candles, updating `candles` in place (the
 * last element is replaced or a new one pushed; candle objects are never mutated) and returning
 * the candle to draw. In the last candle's bucket: close = value, high/low widened. In a later
 * bucket: a new candle with open = high = low = close = value, like `toCandles` builds it from
 * the points inside its bucket, so a reload draws the same candle. An older time, or a value that
 * is not a finite number above zero, leaves everything unchanged (`isNew` false); with no candle
 * at all that is a `RangeError`.
 */
export function applyQuoteToCandles(
  candles: Candle[],
  value: number,
  time: number,
  intervalSec: number,
): { candle: Candle; isNew: boolean } {
  checkInterval(intervalSec);
  const last = candles[candles.length - 1];
  const valid = value > 0 && value < Infinity && Number.isFinite(time);
  const bucket = valid ? bucketStart(time, intervalSec, tehranOffsetAt) : NaN;
  if (last && (!valid || bucket < last.time)) return { candle: last, isNew: false };
  if (!valid) throw new RangeError(`Bad live value ${value} at ${time}`);
  const isNew = add(candles, bucket, { open: value, high: value, low: value, close: value });
  return { candle: candles[candles.length - 1]!, isNew };
}
