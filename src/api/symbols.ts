/**
 * The list of symbols the service offers (`/v1/symbols`). The board never needs it (it shows the
 * symbols it is given), so it is not part of `PriceClient`: only the demo's picker asks for it.
 */
import { PriceBoardError } from '../shared/errors';
import { DEFAULT_TIMEOUT_MS, getJson, globalFetch, type FetchLike } from './request';
import type { SymbolInfo } from '../shared/types';
import { endpointUrl } from './urls';
import { isObject } from './validate';

/** Where to ask, as for {@link PriceClient}. */
export interface SymbolsOptions {
  baseUrl: string;
  apiKey?: string;
  /** Default 10 s. */
  timeoutMs?: number;
  fetch?: FetchLike;
}

/** All symbols the service offers; failures are `PriceBoardError`s (one attempt, no retries). */
export async function fetchSymbols(options: SymbolsOptions, signal?: AbortSignal): Promise<SymbolInfo[]> {
  const ctx = {
    fetch: options.fetch ?? globalFetch,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
  return parseSymbolsBody(await getJson(endpointUrl(options.baseUrl, '/v1/symbols'), ctx, signal));
}

/**
 * The body of GET /v1/symbols, whose shape is not documented: an array of ids or of objects with
 * `symbol` (+ optional `title`, `category`, `unit`), under `data`, `data.symbols` or bare.
 * Entries that are neither are dropped; no list at all is `bad_response`.
 */
export function parseSymbolsBody(body: unknown): SymbolInfo[] {
  const data = isObject(body) ? body.data : undefined;
  const list = [body, data, isObject(data) ? data.symbols : undefined, isObject(body) ? body.symbols : undefined].find(
    Array.isArray,
  );
  if (!list) throw new PriceBoardError('bad_response', 'symbols body holds no list');
  const out: SymbolInfo[] = [];
  for (const entry of list as unknown[]) {
    if (typeof entry === 'string' && entry !== '') out.push({ symbol: entry });
    else if (isObject(entry) && typeof entry.symbol === 'string' && entry.symbol !== '') {
      const info: SymbolInfo = { symbol: entry.symbol };
      for (const field of ['title', 'category', 'unit'] as const)
        if (typeof entry[field] === 'string') info[field] = entry[field];
      out.push(info);
    }
  }
  return out;
}
