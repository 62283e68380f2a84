// The service: GET /v1/prices, /v1/symbols, /v1/history/{symbol}, /v1/stream. Every request goes
// through the same gate: route, faults, key, origin, rate limits, then the endpoint.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxContext } from './context';
import type { FaultPlan, FaultRule } from './faults';
import { buildHistory } from './history';
import { header, requestedSymbols, sendError, sendJson, sendRaw } from './http';
import { originAllowed, resolveKey, type Client } from './limits';
import { SYMBOLS, SYMBOL_MAP } from './symbols';
import type { Quote } from './types';

type Route = { name: 'prices' | 'symbols' | 'stream' } | { name: 'history'; symbol: string };

function route(path: string): Route | undefined {
  if (path === '/v1/prices') return { name: 'prices' };
  if (path === '/v1/symbols') return { name: 'symbols' };
  if (path === '/v1/stream') return { name: 'stream' };
  const m = /^\/v1\/history\/([^/]+)$/.exec(path);
  if (!m) return undefined;
  try {
    return { name: 'history', symbol: decodeURIComponent(m[1]!) };
  } catch {
    return undefined;
  }
}

/** `Retry-After` of a stream refused by the per-key cap: a stream closes any time. */
const STREAM_CAP_RETRY_S = 5;

const ERROR_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'unavailable',
  504: 'gateway_timeout',
};

export function handleApi(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, url: URL): void {
  const entry = ctx.stats.log(req, res, url, ctx.now());
  if (req.method !== 'GET') {
    return sendError(
      res,
      405,
      'method_not_allowed',
      `${req.method} is not allowed; the service is read-only (GET)`,
      {},
      { Allow: 'GET, OPTIONS' },
    );
  }
  const found = route(url.pathname);
  if (!found) return sendError(res, 404, 'not_found', `no such endpoint: ${url.pathname}`);
  const key = header(req, 'x-api-key');
  const faults = ctx.faults.take(url.pathname, key, found.name === 'stream');
  const run = () => {
    // The client may have left during a `slow` delay.
    if (res.destroyed) return;
    if (faults.answer) return answerFault(ctx, res, faults.answer);
    const client = admit(ctx, req, res, key, found.name === 'stream');
    if (!client) return;
    if (found.name === 'prices') return prices(ctx, res, url, faults);
    if (found.name === 'symbols') return symbols(res);
    if (found.name === 'history') return history(ctx, res, url, found.symbol, client);
    if (stream(ctx, req, res, url, faults)) entry.status = 200;
  };
  if (faults.delayMs <= 0) return run();
  const timer = setTimeout(() => {
    ctx.timers.delete(timer);
    run();
  }, faults.delayMs);
  ctx.timers.add(timer);
}

/** Key, origin and rate limits: the client, or undefined when an error was sent. */
function admit(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  key: string | undefined,
  isStream: boolean,
): Client | undefined {
  const client = resolveKey(key);
  if (!client) {
    const message = key ? 'unknown API key' : 'missing API key: send it in the X-API-Key header';
    return void sendError(res, 401, 'unauthorized', message);
  }
  const origin = header(req, 'origin');
  if (!originAllowed(client, origin)) {
    return void sendError(
      res,
      403,
      'forbidden',
      `this key may not be used from ${origin ? `origin ${origin}` : 'a request without an Origin'}`,
    );
  }
  if (isStream && ctx.streams.openFor(client.key) >= ctx.maxStreamsPerKey) {
    const message = `at most ${ctx.maxStreamsPerKey} streams may be open with one key`;
    return void sendError(res, 429, 'too_many_streams', message, {}, { 'Retry-After': String(STREAM_CAP_RETRY_S) });
  }
  const limit = ctx.limiter.take(client);
  if (!limit.ok) {
    const message = `rate limit of the ${client.plan.name} plan reached (${limit.scope === 'minute' ? `${client.plan.perMinute} per minute` : `${client.plan.perDay} per day`})`;
    return void sendError(res, 429, 'rate_limited', message, {}, { 'Retry-After': String(limit.retryAfter) });
  }
  return client;
}

function answerFault(ctx: SandboxContext, res: ServerResponse, rule: FaultRule): void {
  switch (rule.kind) {
    case 'hang':
      ctx.hanging.add(res);
      res.on('close', () => ctx.hanging.delete(res));
      return;
    case 'malformed':
      return sendRaw(res, 200, rule.body ?? '{"data":{"at":"2026-11-22T10:00:00Z","quotes":[{"symbol":"us');
    case 'redirect':
      res.writeHead(rule.status ?? 307, { Location: rule.location ?? '/', 'Content-Length': '0' });
      return void res.end();
    case 'huge_history':
      return sendRaw(res, 200, hugeHistory(ctx.now(), rule.points ?? 1_000_000, rule.spanDays ?? 365));
    case 'rate_limit':
      return sendError(
        res,
        429,
        'rate_limited',
        'rate limit reached (injected)',
        {},
        { 'Retry-After': String(rule.retryAfter ?? 1) },
      );
    default: {
      const status = rule.status ?? 500;
      const headers: Record<string, string> = status === 429 ? { 'Retry-After': '1' } : {};
      if (rule.body !== undefined) return sendRaw(res, status, rule.body, headers);
      return sendError(res, status, ERROR_CODES[status] ?? 'error', `injected status ${status}`, {}, headers);
    }
  }
}

/** `{"data":{"points":[[t, v], ...]}}`: `count` points (epoch seconds) spread over `days` up to now. */
function hugeHistory(now: number, count: number, days: number): string {
  const end = Math.floor(now / 1000);
  const step = (days * 86_400) / Math.max(1, count);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(`[${Math.round(end - (count - 1 - i) * step)},${1_000_000 + (i % 1000)}]`);
  return `{"data":{"points":[${parts.join(',')}]}}`;
}

function prices(ctx: SandboxContext, res: ServerResponse, url: URL, faults: FaultPlan): void {
  const ids = requestedSymbols(res, url, (id) => SYMBOL_MAP.has(id));
  if (!ids) return;
  const quotes = ids.filter((id) => !faults.omit.has(id)).map((id) => ctx.market.quote(id) as Quote);
  sendJson(res, 200, { data: { at: new Date(ctx.now()).toISOString(), delay_seconds: 0, quotes } });
}

function symbols(res: ServerResponse): void {
  const list = SYMBOLS.map(({ symbol, title, category, unit }) => ({ symbol, title, category, unit }));
  sendJson(res, 200, { data: { symbols: list } });
}

function history(ctx: SandboxContext, res: ServerResponse, url: URL, symbol: string, client: Client): void {
  const def = SYMBOL_MAP.get(symbol);
  if (!def) return sendError(res, 404, 'unknown_symbol', `unknown symbol: ${symbol}`, { symbols: [symbol] });
  const raw = url.searchParams.get('days');
  const days = raw !== null && /^\d{1,3}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(days >= 1 && days <= 365)) return sendError(res, 400, 'bad_request', 'days must be an integer from 1 to 365');
  if (days > client.plan.spanDays) {
    const message = `the ${client.plan.name} plan gives at most ${client.plan.spanDays} days of history`;
    return sendError(res, 403, 'plan_limit', message, { max_days: client.plan.spanDays });
  }
  const points = buildHistory(def, ctx.market.quote(symbol)!.price, days, ctx.now(), ctx.seed);
  sendJson(res, 200, { data: { symbol, days, points } });
}

/** Opens the stream; false when an error was sent instead. */
function stream(ctx: SandboxContext, req: IncomingMessage, res: ServerResponse, url: URL, faults: FaultPlan): boolean {
  const ids = requestedSymbols(res, url, (id) => SYMBOL_MAP.has(id));
  if (!ids) return false;
  const lastEventId = header(req, 'last-event-id');
  ctx.streams.open(res, {
    key: header(req, 'x-api-key') ?? '',
    symbols: ids,
    lastEventId,
    omit: faults.omit,
    dropAfter: faults.dropAfter,
    poison: faults.poison,
  });
  return true;
}
