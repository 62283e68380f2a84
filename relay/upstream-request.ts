/**
 * What an upstream request is, as the gate (upstream.ts) sees it: its path, the scope a pause of it
 * stops, the symbols it names, the catalog beside it, and the service's code of a refusal.
 */
import { readBounded } from './from-src';

export type UpstreamPath = 'prices' | 'stream' | 'history' | 'symbols' | 'other';
/**
 * What one pause stops: `quotes` (a 429 on prices, the stream or anything else: the key's rate
 * limit) stops every path. A path that fails (5xx, unreachable) pauses itself only: the poll is
 * the stream's fallback, and the other way round.
 */
export type Scope = 'quotes' | 'prices' | 'stream' | 'history' | 'symbols';

export function pathLabel(pathname: string): UpstreamPath {
  const m = /^\/v1\/(prices|stream|history|symbols)(\/|$)/.exec(pathname);
  return (m?.[1] as UpstreamPath | undefined) ?? 'other';
}

export function scopeOf(path: UpstreamPath): Scope {
  return path === 'other' ? 'quotes' : path;
}

/** The symbols a prices or stream request names. */
export function namedSymbols(url: URL): string[] {
  const path = pathLabel(url.pathname);
  if (path !== 'prices' && path !== 'stream') return [];
  return (url.searchParams.get('symbols') ?? '').split(',').filter(Boolean);
}

/** The catalog's address beside `input`: the cheapest request there is, and the key's test. */
export function catalogUrl(input: string): string {
  return input.replace(/\/v1\/[^?]*(\?.*)?$/, '/v1/symbols');
}

/** The service's error code of a refusal (`plan_limit`, `unknown_symbol`...), read from a bounded body. */
export async function serviceCode(res: Response): Promise<string | undefined> {
  const text = (await readBounded(res.clone(), 4_096).catch(() => undefined)) ?? '';
  return /"code"\s*:\s*"([a-z_]{1,40})"/.exec(text)?.[1];
}
