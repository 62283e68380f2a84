/**
 * History for the chart: one source per service and key (`servicePart`), shared by every board of
 * the page (the service's client; fetched candles; the plan's span limit learnt), and the span
 * fallback 365 → 30 → 7 when the plan rejects a span, 1 → 7 when the service does not give
 * today's chart.
 */
import type { PriceClient } from '../api/client';
import { servicePart, type ServicePart } from '../api/services';
import { PriceBoardError } from '../shared/errors';
import type { Candle } from '../shared/types';
import { intervalFor, normalizeHistory, toCandles } from '../model/history';
import { DAY_OPTIONS, type HistoryDays } from '../shared/attribute-table';

/** Fetched history stays fresh this long when the user switches symbols or spans back and forth. */
const HISTORY_TTL_MS = 5 * 60_000;
const CACHE_LIMIT = 12;

/** One service and key. */
export interface HistorySource {
  client: PriceClient;
  /** `symbol|days` → candles in the service's unit (rial, or dollars). */
  cache: Map<string, { candles: Candle[]; at: number }>;
  /** The longest span the plan was seen to allow. */
  maxDays?: HistoryDays;
  /** The service refused `days=1` (no relay in front of it): today's chart falls back to 7 days at once. */
  noToday?: boolean;
}

/** Sets `key` in `map` as its most recently used entry, letting the least recently used go past `limit`. */
function use<T>(map: Map<string, T>, key: string, value: T, limit: number): T {
  map.delete(key);
  map.set(key, value);
  if (map.size > limit) map.delete(map.keys().next().value!);
  return value;
}

const SOURCE: ServicePart<HistorySource> = { make: (client) => ({ client, cache: new Map() }) };

/** The source of `baseUrl` and `apiKey` (let go with its service). */
export function sourceFor(baseUrl: string, apiKey: string | undefined): HistorySource {
  return servicePart(baseUrl, apiKey, SOURCE);
}

/**
 * The candles in which something traded: a candle whose open, high, low and close all equal the
 * close before it is a closed market's night, Friday or holiday (a service may send points at an
 * unchanged price then), and is left out. The chart spaces candles by index, not by time, so the
 * gap closes up: a 7-day chart shows 7 trading days, not 40 % of flat lines (docs/embedding.md).
 */
export function tradedCandles(candles: readonly Candle[]): Candle[] {
  const traded = candles.filter((c, i) => {
    const flat = c.low === c.high; // (so are open and close)
    // The first has no close before it: flat, with the next opening at its price, it is the night
    // (or Friday) the span happened to start in.
    if (i === 0) return !(flat && candles.length > 1 && candles[1]!.open === c.close);
    return !flat || c.high !== candles[i - 1]!.close;
  });
  // A span all in a closed market (today's chart on a Friday night): the price that stands, not
  // an empty chart.
  return traded.length > 0 || candles.length === 0 ? traded : [candles[candles.length - 1]!];
}

/**
 * The spans to try for `wanted`: longest first, none longer than the plan was seen to allow; for
 * today (1), today and then 7 days.
 */
function spansFor(wanted: HistoryDays, source: HistorySource): HistoryDays[] {
  if (wanted === 1) return source.noToday ? [7] : [1, 7];
  const max = source.maxDays;
  return DAY_OPTIONS.filter((d) => d > 1 && d <= wanted && (max === undefined || d <= max)).reverse();
}

/**
 * Whether a failure of `days` means "not this span", so a shorter (or, for today, the 7-day) span
 * is tried: a 403 (the plan); for today also what a service that does not offer it may answer, a
 * refused parameter (400, 422), no such resource (404), or no point of the last day (`bad_response`).
 * A refused key, a rate limit, a server or network failure are no answer about the span.
 */
function spanRefused(error: unknown, days: HistoryDays): boolean {
  if (!(error instanceof PriceBoardError)) return false;
  if (error.status === 403) return true;
  return days === 1 && (error.code === 'bad_response' || [400, 404, 422].includes(error.status ?? 0));
}

/**
 * The candles of `symbol` over `wanted` days, or over a shorter span when the plan rejects the
 * longer one (HTTP 403); `days` says which span they cover. The candles are a copy the caller may
 * extend. Rejects with the `PriceBoardError` of the last span tried, or the abort reason.
 */
export async function loadHistory(
  source: HistorySource,
  symbol: string,
  wanted: HistoryDays,
  signal: AbortSignal,
): Promise<{ candles: Candle[]; days: HistoryDays }> {
  const spans = spansFor(wanted, source);
  // Never runs past the end: 7 days is always a span, and the last span returns or throws.
  for (let i = 0; ; i++) {
    const days = spans[i]!;
    const key = `${symbol}|${days}`;
    const hit = source.cache.get(key);
    if (hit && Date.now() - hit.at < HISTORY_TTL_MS) return { candles: hit.candles.slice(), days };
    try {
      const body = await source.client.history(symbol, days, signal);
      const candles = tradedCandles(toCandles(normalizeHistory(body, { days }), intervalFor(days)));
      use(source.cache, key, { candles, at: Date.now() }, CACHE_LIMIT);
      return { candles: candles.slice(), days };
    } catch (error) {
      if (!spanRefused(error, days) || signal.aborted || i === spans.length - 1) throw error;
      // Learnt for the next symbol: the plan's longest span, or that the service refuses today.
      if (days === 1) source.noToday ||= [400, 403, 422].includes((error as PriceBoardError).status ?? 0);
      else source.maxDays = spans[i + 1];
    }
  }
}

/**
 * A history load that failed for a reason that is not final (`ERROR_POLICY`) is tried again while
 * the board shows the same chart: 2.5 s, 5 s, 10 s… up to a minute (equal jitter, so boards of a
 * page spread out), never before a `Retry-After`.
 */
export const HISTORY_RETRY = { baseMs: 2_500, maxMs: 60_000 };
