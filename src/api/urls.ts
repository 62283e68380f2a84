/** Service addresses. The API key never goes into a URL: it travels only in `X-API-Key`. */
import { PriceBoardError } from '../shared/errors';

/**
 * `baseUrl` + `path` as a URL. A relative `baseUrl` resolves against the page (browser only);
 * trailing slashes of `baseUrl` are ignored so that `https://x/api/` and `https://x/api` agree.
 */
export function endpointUrl(baseUrl: string, path: string, query?: string): URL {
  return absoluteUrl(trimBaseUrl(baseUrl) + path + (query ? `?${query}` : ''));
}

/** A service address as written, without surrounding spaces and trailing slashes (`/v1/...` follows). */
export function trimBaseUrl(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, '');
}

/** `url` (absolute, or relative to the page) with `query` appended to any query it already has. */
export function absoluteUrl(url: string, query?: string): URL {
  let out: URL;
  try {
    out = new URL(url, (globalThis as { location?: { href?: string } }).location?.href);
  } catch (cause) {
    // The request cannot be made (the board validates its attributes before they get here).
    throw new PriceBoardError('bad_request', `Bad service address: ${JSON.stringify(url)}`, { cause });
  }
  if (query) out.search = out.search ? `${out.search}&${query}` : `?${query}`;
  return out;
}

/** `symbols=a,b`: each id encoded, joined with plain commas and no spaces (SERVICE-SPEC 4.1). */
export function symbolsQuery(symbols: readonly string[]): string {
  return `symbols=${symbols.map(encodeURIComponent).join(',')}`;
}
