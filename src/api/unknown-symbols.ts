/** Asking for quotes when some requested ids may not exist. */
import type { PriceClient } from './client';
import { PriceBoardError } from '../shared/errors';
import type { PricesData } from '../shared/types';

/** What {@link pricesSkippingUnknown} found. */
export interface PricesOutcome {
  /** The answer; absent when every requested id was unknown (nothing left to ask for). */
  data?: PricesData;
  /** Ids the service rejected as unknown (404 `unknown_symbol`). */
  unknown: string[];
  /** Requested ids absent from the answer, unknown ones included. */
  missing: string[];
}

/** The ids an `unknown_symbol` error names among `requested`; a lone requested id is implied. */
export function unknownSymbolsOf(error: unknown, requested: readonly string[]): string[] {
  if (!(error instanceof PriceBoardError) || error.code !== 'unknown_symbol') return [];
  const listed = error.data?.symbols;
  const named = Array.isArray(listed) ? listed.filter((s): s is string => typeof s === 'string') : [];
  if (named.length === 0) return requested.length === 1 ? [...requested] : [];
  const lower = new Set(named.map((s) => s.toLowerCase()));
  return requested.filter((s) => lower.has(s.toLowerCase()));
}

/**
 * `client.prices(symbols)`, except that when the service rejects some ids as unknown they are
 * dropped and the rest asked for once more. Other errors (and an `unknown_symbol` that names
 * nothing we asked for) are thrown.
 */
export async function pricesSkippingUnknown(
  client: PriceClient,
  symbols: readonly string[],
  signal?: AbortSignal,
): Promise<PricesOutcome> {
  let unknown: string[] = [];
  let data: PricesData | undefined;
  try {
    data = await client.prices(symbols, signal);
  } catch (error) {
    unknown = unknownSymbolsOf(error, symbols);
    if (unknown.length === 0) throw error;
    const rest = symbols.filter((s) => !unknown.includes(s));
    if (rest.length > 0) data = await client.prices(rest, signal);
  }
  const returned = new Set(data?.quotes.map((q) => q.symbol));
  return { data, unknown, missing: symbols.filter((s) => !returned.has(s)) };
}
