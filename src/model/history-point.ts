/**
 * One history point in any of the shapes DESIGN.md section 4 accepts, read leniently: the history
 * format is not published, so every plausible spelling is tried and anything doubtful is dropped.
 */
import { isObject } from '../api/validate';

/** A point of price history: `time` in UTC epoch seconds (integer); values in the service's unit. */
export interface HistoryPoint {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

type Fields = Record<string, unknown>;

const TIME_KEYS = ['t', 'time', 'timestamp', 'date', 'at'];
const VALUE_KEYS = ['price', 'value', 'close', 'p'];
const OPEN_KEYS = ['open', 'o'];
const HIGH_KEYS = ['high', 'h'];
const LOW_KEYS = ['low', 'l'];
const CLOSE_KEYS = ['close', 'c'];
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}/;
/** Epoch values at or above this are milliseconds (1e11 s is the year 5138; 1e11 ms is 1973). */
const MS_THRESHOLD = 1e11;
/** Times after the year 9999 (e.g. `t: 1e20`) are not dates any chart or `Intl` can show: dropped. */
const MAX_TIME_S = 253_402_300_799;

function pick(fields: Fields, keys: readonly string[]): unknown {
  for (const key of keys) if (fields[key] != null) return fields[key];
  return undefined;
}

/** A number, or a numeric string; NaN for anything else. */
function toNumber(x: unknown): number {
  if (typeof x === 'string' && NUMBER.test((x = x.trim()))) return Number(x);
  return typeof x === 'number' ? x : NaN;
}

/** UTC epoch seconds (integer) from ISO 8601, epoch seconds or epoch ms; NaN when unreadable. */
function parseTime(x: unknown): number {
  let seconds = toNumber(x);
  if (seconds >= MS_THRESHOLD) seconds /= 1000;
  else if (typeof x === 'string' && ISO_DATE.test(x.trim())) seconds = Date.parse(x.trim()) / 1000;
  // also false for NaN and infinities
  return seconds > 0 && seconds <= MAX_TIME_S ? Math.floor(seconds) : NaN;
}

/** Finite and above zero. */
const isPrice = (n: number): boolean => n > 0 && n < Infinity;

function build(time: number, ...values: unknown[]): HistoryPoint | undefined {
  const [open, high, low, close] = values.map(toNumber) as [number, number, number, number];
  const ohlc = [open, high, low, close];
  if (!(time > 0) || !ohlc.every(isPrice)) return undefined;
  // Inconsistent bars (high < low, open outside the range) are repaired to their envelope.
  return { time, open, close, high: Math.max(...ohlc), low: Math.min(...ohlc) };
}

/**
 * Reads one point: an object with a time (`t`/`time`/`timestamp`/`date`/`at`) and OHLC
 * (`open/high/low/close` or `o/h/l/c`, all four required once any of open/high/low is present)
 * or one value (`price`/`value`/`close`/`p`); or `[time, o, h, l, c, ...]` or `[time, value]`.
 * `undefined` when invalid.
 */
export function parsePoint(x: unknown): HistoryPoint | undefined {
  if (Array.isArray(x)) {
    const [time, a, ...rest] = x as unknown[];
    if (rest.length > 2) return build(parseTime(time), a, ...rest.slice(0, 3));
    return rest.length ? undefined : build(parseTime(time), a, a, a, a);
  }
  if (!isObject(x)) return undefined;
  const time = parseTime(pick(x, TIME_KEYS));
  const [open, high, low] = [OPEN_KEYS, HIGH_KEYS, LOW_KEYS].map((keys) => pick(x, keys));
  if (open !== undefined || high !== undefined || low !== undefined)
    return build(time, open, high, low, pick(x, CLOSE_KEYS));
  const value = pick(x, VALUE_KEYS);
  return build(time, value, value, value, value);
}
