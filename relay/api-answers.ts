/**
 * How the /v1 endpoints answer: a cacheable 200 (or 304) with `Cache-Control` and an `ETag`, marked
 * stale by `Age` and `Warning` when it is; and an upstream failure in the service's error shape,
 * with the relay's own message by code.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { etagOf, keptEtagOf } from './etag';
import { PriceBoardError } from './from-src';
import { sendError, sendRaw } from './http';
import { MAX_PAUSE_MS } from './upstream';

/** Seconds a cache may keep an answer, then serve it stale while it fetches a new one. */
export const CACHING = {
  prices: { maxAge: 2, swr: 10 },
  history: { maxAge: 300, swr: 3_600 },
  symbols: { maxAge: 3_600, swr: 86_400 },
  /** `days=1`, from the record: it changes with every change relayed. */
  today: { maxAge: 5, swr: 30 },
  /** A rendered fragment (`/render/...`): the prices' moment, kept a little longer while stale. */
  render: { maxAge: 2, swr: 30 },
};

export const BAD_RESPONSE = 'the price service sent an answer the relay will not pass on';

/** A cacheable 200 (or 304 when the client holds it); `ageSeconds` marks stale data. */
export function sendCacheable(
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
  caching: { maxAge: number; swr: number },
  ageSeconds?: number,
  // History comes from the cache: the same body again and again (prices carry their moment).
  etag = caching === CACHING.history ? keptEtagOf(body) : etagOf(body),
  /** More headers (a fragment's `Content-Type`). */
  extra: Record<string, string> = {},
): void {
  const headers: Record<string, string> = {
    ...extra,
    'Cache-Control': `public, max-age=${caching.maxAge}, stale-while-revalidate=${caching.swr}`,
    ETag: etag,
  };
  if (ageSeconds !== undefined && Number.isFinite(ageSeconds)) {
    headers.Age = String(ageSeconds);
    headers.Warning = '110 - "Response is Stale"';
  }
  // If-None-Match compares weakly (RFC 9110 13.1.2): a weak ETag matches its strong form.
  const strong = etag.replace(/^W\//, '');
  if (req.headers['if-none-match']?.split(',').some((t) => t.trim().replace(/^W\//, '') === strong)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  sendRaw(res, 200, body, headers);
}

/**
 * The answer for an upstream failure when nothing is cached: the service's error shape, with the
 * relay's own message by code. Upstream text (which may hold anything, the key included) is never
 * forwarded.
 */
export function sendUpstreamError(res: ServerResponse, error: unknown, symbol?: string): void {
  if (!(error instanceof PriceBoardError)) throw error;
  if (error.code === 'rate_limited') {
    // The wait the relay keeps itself (an upstream Retry-After is believed up to MAX_PAUSE_MS).
    const seconds = String(Math.max(1, Math.ceil(Math.min(error.retryAfterMs ?? 5_000, MAX_PAUSE_MS) / 1000)));
    const message =
      error.data?.reason === 'demand'
        ? 'the rest of the history budget is kept for spans in demand; try again shortly'
        : 'the relay is waiting for its upstream budget';
    return sendError(res, 429, 'rate_limited', message, {}, { 'Retry-After': seconds });
  }
  if (error.status === 403 && error.data?.serviceCode === 'plan_limit')
    return sendError(res, 403, 'plan_limit', 'the plan does not give this much history');
  if (error.code === 'bad_response')
    return sendError(res, 502, 'bad_response', BAD_RESPONSE, {}, { 'Retry-After': '5' });
  if (error.status === 404 && symbol !== undefined)
    return sendError(res, 404, 'unknown_symbol', `unknown symbol: ${symbol}`, { symbols: [symbol] });
  sendError(
    res,
    503,
    'upstream_unavailable',
    'the price service cannot be reached; try again shortly',
    {},
    { 'Retry-After': '5' },
  );
}
