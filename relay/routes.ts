/**
 * Which answer each request gets (DESIGN.md §7): the relay's own `/healthz` and `/metrics`, the
 * `/v1` endpoints (RelayApi) behind the origin check and the per-address limits, and the built
 * widgets for every other path. Refusals are in the service's error shape, or a page for a browser
 * that navigates there.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RelayApi } from './api';
import type { RelayConfig } from './config';
import { isFragmentTarget, sendErrorPage, sendFragmentError, wantsPage } from './error-page';
import { requestTarget, sendError, sendPreflight } from './http';
import type { Metrics } from './metrics';
import {
  addressMatcher,
  applyCors,
  clientAddress,
  isLoopback,
  type FloodLog,
  type RequestLimiter,
  type StreamSlots,
  visitorKey,
} from './protect';
import { CSP_PATH, sendCspSources } from './render/csp';
import { sendEmbedPage } from './render/embed-page';
import { RenderCache } from './render/render-cache';
import { prepareRenderer } from './render/renderer';
import { renderedWidget, sendFragment, watchRenderCache } from './render/route';
import { serveStatic } from './static';

export interface RoutesDeps {
  config: RelayConfig;
  endpoints: RelayApi;
  limiter: RequestLimiter;
  slots: StreamSlots;
  metrics: Metrics;
  /** One line a minute at most about malformed requests. */
  malformed: FloodLog;
  /** Whether `address` may read `/metrics` (METRICS_ALLOW). */
  metricsAllowed: (address: string) => boolean;
  /** Answers `/healthz`. */
  health: (res: ServerResponse) => void;
  /** The metrics' text, brought up to date. */
  metricsText: () => Promise<string>;
  /** The relay is shutting down. */
  closing: () => boolean;
  distDir?: string;
}

/** The request handler. */
export function routes(deps: RoutesDeps): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { config, endpoints, limiter, slots, metrics, malformed } = deps;
  const renders = new RenderCache(config.renderCacheBytes);
  watchRenderCache(metrics, renders);
  // The widgets load now, not at the first fragment: loading them takes about a second, past an
  // include's 1 s timeout, and that first visitor would get the bare element. A failure here is
  // the fragment route's to answer (the bare element), not the relay's to die of.
  prepareRenderer().catch(() => undefined);
  const fragmentDeps = {
    cache: renders,
    metrics,
    held: (ids: readonly string[]) => endpoints.held(ids),
    now: () => endpoints.now(),
    scriptBase: config.publicUrl ?? '',
  };
  /** INCLUDERS: a site's server fetching fragments for all its visitors is not one visitor. */
  const includer = config.includers.length > 0 ? addressMatcher(config.includers) : () => false;
  return async (req, res) => {
    const address = clientAddress(req, config.trustProxy);
    // Every answer, refusals included, carries the CORS headers for its origin: a widget on another
    // origin can read a 429 or a 404 and say so in Persian.
    const originAllowed = applyCors(req, res, config.allowedOrigins);
    const url = requestTarget(req.url);
    const path = url?.pathname;
    // A fragment's error has no body, whoever asks: a site's server includes it in a page (nginx
    // passes on the visitor's headers, a navigation's among them).
    const fail = (status: number, code: string, message: string, headers: Record<string, string> = {}): void =>
      isFragmentTarget(req.url ?? '')
        ? sendFragmentError(res, status, code, message, headers)
        : wantsPage(req, path)
          ? sendErrorPage(res, status, code, headers)
          : sendError(res, status, code, message, {}, headers);
    const tooMany = (waitMs: number, reason: string): void => {
      metrics.inc('relay_refused_total', 'Downstream requests refused, by reason.', { reason });
      fail(429, 'rate_limited', 'too many requests from this address', {
        'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))),
      });
    };
    // Path tricks and junk: a 400 counted like an API request, and one log line a minute at most.
    if (!url || path === undefined) {
      malformed.note({ example: (req.url ?? '').slice(0, 100) });
      const wait = await limiter.take(address);
      if (wait > 0) return tooMany(wait, 'rate');
      metrics.inc('relay_refused_total', 'Downstream requests refused, by reason.', { reason: 'malformed' });
      return fail(400, 'bad_request', 'malformed request target');
    }
    if (path === '/healthz' || path === '/metrics') {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return fail(405, 'method_not_allowed', `${path} answers GET and HEAD`, { Allow: 'GET, HEAD' });
      // Limited like any request, except from this machine (a local monitor or sidecar polls freely).
      const wait = isLoopback(address) ? 0 : await limiter.take(address);
      if (wait > 0) return tooMany(wait, 'rate');
      if (path === '/healthz') return deps.health(res);
      if (!deps.metricsAllowed(address)) {
        metrics.inc('relay_refused_total', 'Downstream requests refused, by reason.', { reason: 'metrics' });
        return fail(403, 'forbidden', 'metrics are not served to this address');
      }
      const text = await deps.metricsText();
      res.writeHead(200, {
        'Content-Type': metrics.contentType,
        'Content-Length': String(Buffer.byteLength(text)),
        'Cache-Control': 'no-store',
      });
      return void res.end(text);
    }
    // Shutting down: a request on a connection still open is not started.
    if (deps.closing())
      return fail(503, 'unavailable', 'the relay is shutting down', { Connection: 'close', 'Retry-After': '1' });
    const api = path === '/v1' || path.startsWith('/v1/');
    if (api && !originAllowed) {
      metrics.inc('relay_refused_total', 'Downstream requests refused, by reason.', { reason: 'origin' });
      return fail(403, 'forbidden', 'this origin is not allowed');
    }
    if (api && req.method === 'OPTIONS') return sendPreflight(res, 'GET, OPTIONS');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return fail(405, 'method_not_allowed', 'the relay is read-only (GET, HEAD)', { Allow: 'GET, HEAD, OPTIONS' });
    const widget = !api ? renderedWidget(path) : undefined;
    if (widget || path === CSP_PATH) {
      // A fragment costs a render (no upstream request): counted like an API request.
      const wait = includer(address) ? 0 : await limiter.take(address);
      if (wait > 0) return tooMany(wait, 'rate');
      return widget ? sendFragment(req, res, url, widget, fragmentDeps) : sendCspSources(req, res);
    }
    // The iframe page, rendered like a fragment and counted like one. Files are not visits: past
    // the address's limit it is still the page, as built (its element then fetches as usual).
    if (path === '/embed.html') {
      const wait = includer(address) ? 0 : await limiter.take(address);
      if (wait === 0 && (await sendEmbedPage(req, res, url, fragmentDeps, deps.distDir))) return;
    }
    if (!api) {
      // Files are not visits: a page with every widget asks 40+ of them, and visitors behind one
      // carrier address share it. Only a miss counts (a scan of paths is requests like any other).
      if (await serveStatic(req, res, path, deps.distDir)) return;
      const wait = await limiter.take(address);
      if (wait > 0) return tooMany(wait, 'rate');
      return fail(404, 'not_found', `no such path: ${path.slice(0, 200)}`);
    }
    // Stream opens count too (a board reconnects once per `retry:`, far below the limit).
    const wait = await limiter.take(address);
    if (wait > 0) return tooMany(wait, 'rate');
    if (path === '/v1/prices') return endpoints.prices(req, res, url);
    if (path === '/v1/symbols') return endpoints.symbols(req, res);
    const symbol = historySymbol(path);
    if (symbol !== undefined) return endpoints.historyOf(req, res, url, symbol, visitorKey(address));
    if (path === '/v1/stream') {
      const release = slots.acquire(address);
      if (!release) return tooMany(10_000, 'streams');
      return endpoints.stream(req, res, url, release);
    }
    fail(404, 'not_found', `no such endpoint: ${path.slice(0, 200)}`);
  };
}

/**
 * The symbol of a `/v1/history/{symbol}` path, percent-decoded, as the service reads it: any
 * segment is a symbol (one the relay does not serve is answered `unknown_symbol` from the list),
 * and only a path that is not one segment, or not decodable, is no endpoint at all.
 */
function historySymbol(path: string): string | undefined {
  const m = /^\/v1\/history\/([^/]+)$/.exec(path);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
}
