/**
 * The relay (DESIGN.md §7): one node:http server that speaks the service contract downstream,
 * spends the plan's budget once upstream, and serves the built widgets. This file routes and
 * composes; each job lives in its own module.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { sendErrorPage, wantsPage } from './error-page';
import { requestTarget, sendError, sendPreflight } from './http';
import { RelayApi } from './api';
import { Budget } from './budget';
import { PLAN_BUDGETS, type RelayConfig } from './config';
import { createMemoryEngine } from './engine/memory';
import { RedisEngine } from './engine/redis';
import type { Engine } from './engine/types';
import { FanOut } from './fanout';
import { Feed } from './feed';
import { createLogger, type LogSink } from './log';
import { Metrics } from './metrics';
import {
  addressMatcher,
  applyCors,
  clientAddress,
  FloodLog,
  isLoopback,
  RequestLimiter,
  socketAddress,
  StreamSlots,
  visitorKey,
} from './protect';
import { serveStatic } from './static';
import { UpstreamGate, type UpstreamTimings } from './upstream';

/** Requests node refuses for being late or too big keep its statuses (they are no path trick). */
const CLIENT_ERROR_STATUS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'timeout'],
  HPE_HEADER_OVERFLOW: [431, 'bad_request'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'bad_request'],
};

export interface RelayOptions {
  /** Default: the memory engine (one process). */
  engine?: Engine;
  logSink?: LogSink;
  now?: () => number;
  distDir?: string;
  heartbeatMs?: number;
  retryMs?: number;
  /** Unsent bytes after which a stream client is dropped. */
  maxBufferedBytes?: number;
  /** How long a backed-up stream client may go without draining. */
  stallMs?: number;
  /** Receiving a request's headers and body. */
  requestTimeoutMs?: number;
  /** The upstream state machine's intervals (tests shorten them). */
  upstream?: UpstreamTimings;
}

export interface Relay {
  url: string;
  port: number;
  metrics: Metrics;
  feed: Feed;
  fanout: FanOut;
  /** Graceful: nothing accepted after; streams told to reconnect and closed. */
  close(): Promise<void>;
}

export async function startRelay(
  config: RelayConfig & { upstreamUrl: string },
  options: RelayOptions = {},
): Promise<Relay> {
  const now = options.now ?? Date.now;
  const engine = options.engine ?? createMemoryEngine();
  const log = createLogger(config.upstreamKey, options.logSink);
  const metrics = new Metrics();
  const budget = new Budget(
    engine.budget,
    { perMinute: config.perMinute, perDay: config.perDay },
    config.budgetShare,
    now,
  );
  const gate = new UpstreamGate({ budget, leader: engine.leader, metrics, log, now, timings: options.upstream });
  const feed = new Feed({
    baseUrl: config.upstreamUrl,
    apiKey: config.upstreamKey,
    engine,
    gate,
    budget,
    log,
    metrics,
    allow: config.symbols,
    now,
    timings: options.upstream,
  });
  const fanout = new FanOut({
    broker: engine.broker,
    metrics,
    log,
    now,
    heartbeatMs: options.heartbeatMs,
    retryMs: options.retryMs,
    maxBufferedBytes: options.maxBufferedBytes,
    stallMs: options.stallMs,
  });
  const endpoints = new RelayApi({
    engine,
    feed,
    fanout,
    gate,
    baseUrl: config.upstreamUrl,
    apiKey: config.upstreamKey,
    spanDays: PLAN_BUDGETS[config.plan].spanDays,
    budget,
    log,
    metrics,
    now,
  });
  // The leader fills what followers ask for (a cluster; one process never asks).
  const stopServing = engine.asks.serve((key) => endpoints.fill(key));
  // In a cluster the request counts live in Redis, so a visitor is limited as one across processes.
  const redis = engine instanceof RedisEngine ? engine : undefined;
  const limiter = new RequestLimiter(config.clientRpm, { redis: redis?.cmd, keyPrefix: redis?.keys('rl') });
  const slots = new StreamSlots(config.clientStreams);
  const metricsAllowed = config.metricsAllow ? addressMatcher(config.metricsAllow) : () => true;
  let closing = false;

  metrics.gauge(
    'relay_budget_minute_limit',
    'Upstream requests the relay may spend per minute.',
    () => budget.perMinute,
  );
  let spent = { minute: 0, day: 0 };
  metrics.gauge('relay_budget_spent_minute', 'Upstream requests in the last 60 s.', () => spent.minute);
  metrics.gauge('relay_budget_spent_day', 'Upstream requests this (Tehran) day.', () => spent.day);
  const { cluster, leader } = engine;
  if (cluster) {
    cluster.feedFresh = () => feed.upstreamFresh;
    metrics.gauge(
      'relay_leader',
      'Whether this process is the cluster leader (spends upstream): 1 leader, 0 follower.',
      () => (leader.isLeader ? 1 : 0),
    );
    metrics.gauge('relay_redis_connected', 'Whether Redis answers: 1 connected, 0 away.', () =>
      cluster.connected ? 1 : 0,
    );
  }
  metrics.gauge('relay_data_age_seconds', 'Seconds since the last upstream quote data.', () =>
    Number.isFinite(feed.ageSeconds) ? feed.ageSeconds : -1,
  );

  const malformed = new FloodLog((fields) => log('malformed_requests', fields), 60_000, now);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const address = clientAddress(req, config.trustProxy);
    // Every answer, refusals included, carries the CORS headers for its origin: a widget on another
    // origin can read a 429 or a 404 and say so in Persian.
    const originAllowed = applyCors(req, res, config.allowedOrigins);
    const url = requestTarget(req.url);
    const path = url?.pathname;
    const fail = (status: number, code: string, message: string, headers: Record<string, string> = {}): void =>
      wantsPage(req, path)
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
      if (path === '/healthz') return health(res);
      if (!metricsAllowed(address)) {
        metrics.inc('relay_refused_total', 'Downstream requests refused, by reason.', { reason: 'metrics' });
        return fail(403, 'forbidden', 'metrics are not served to this address');
      }
      spent = await budget.spent();
      const text = await metrics.text();
      res.writeHead(200, {
        'Content-Type': metrics.contentType,
        'Content-Length': String(Buffer.byteLength(text)),
        'Cache-Control': 'no-store',
      });
      return void res.end(text);
    }
    // Shutting down: a request on a connection still open is not started.
    if (closing)
      return fail(503, 'unavailable', 'the relay is shutting down', { Connection: 'close', 'Retry-After': '1' });
    const api = path === '/v1' || path.startsWith('/v1/');
    if (api && !originAllowed) {
      metrics.inc('relay_refused_total', 'Downstream requests refused, by reason.', { reason: 'origin' });
      return fail(403, 'forbidden', 'this origin is not allowed');
    }
    if (api && req.method === 'OPTIONS') return sendPreflight(res, 'GET, OPTIONS');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return fail(405, 'method_not_allowed', 'the relay is read-only (GET, HEAD)', { Allow: 'GET, HEAD, OPTIONS' });
    if (!api) {
      // Files are not visits: a page with every widget asks 40+ of them, and visitors behind one
      // carrier address share it. Only a miss counts (a scan of paths is requests like any other).
      if (await serveStatic(req, res, path, options.distDir)) return;
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

  function health(res: ServerResponse): void {
    const ok = !closing && !gate.halted && feed.fresh && cluster?.connected !== false;
    const body = {
      status: ok ? 'ok' : 'unhealthy',
      data_age_seconds: Number.isFinite(feed.ageSeconds) ? feed.ageSeconds : null,
      upstream: gate.halted ? 'key_refused' : feed.mode,
      clients: fanout.size,
      ...(cluster && {
        role: leader.isLeader ? 'leader' : 'follower',
        redis: cluster.connected ? 'connected' : 'away',
      }),
    };
    res.writeHead(ok ? 200 : 503, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify(body));
  }

  const requestTimeout = options.requestTimeoutMs ?? 10_000;
  // Node checks request timeouts on this interval (30 s by default): check often enough to keep them.
  const server: Server = createServer(
    {
      requestTimeout,
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.min(1_000, requestTimeout / 2),
    },
    (req, res) => {
      metrics.inc('relay_requests_total', 'Downstream requests.');
      handle(req, res).catch((error: unknown) => {
        log('request_failed', { path: (req.url ?? '').slice(0, 200), error });
        if (wantsPage(req, req.url?.split('?', 1)[0])) sendErrorPage(res, 500, 'internal_error');
        else sendError(res, 500, 'internal_error', 'the relay failed on this request');
      });
    },
  );
  // A request node cannot parse (a bad request line, bad headers): a 400 counted against its
  // address like a malformed target, logged as one; node's own statuses for a late or huge request.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const special = CLIENT_ERROR_STATUS[error.code ?? ''];
    const address = special ? undefined : socketAddress(socket.remoteAddress, config.trustProxy);
    if (!special) malformed.note({ example: error.code });
    void (address ? limiter.take(address) : Promise.resolve(0)).then((wait) => {
      const [status, code] = special ?? (wait > 0 ? [429, 'rate_limited'] : [400, 'bad_request']);
      const body = JSON.stringify({ error: { code, message: 'the request could not be read' } });
      const cors = config.allowedOrigins ? '' : 'Access-Control-Allow-Origin: *\r\n';
      const retry = wait > 0 ? `Retry-After: ${Math.ceil(wait / 1000)}\r\n` : '';
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n${cors}${retry}Connection: close\r\n\r\n${body}`,
      );
    });
  });
  server.maxConnections = config.maxConnections;
  server.keepAliveTimeout = 5_000;
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('drop', () =>
    metrics.inc('relay_refused_total', 'Downstream requests refused, by reason.', { reason: 'connections' }),
  );
  metrics.gauge('relay_connections', 'Open downstream connections.', () => sockets.size);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  feed.start();
  const port = (server.address() as AddressInfo).port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  log('relay_started', {
    url,
    upstream: config.upstreamUrl,
    plan: config.plan,
    budget_per_minute: budget.perMinute,
    budget_per_day: budget.perDay,
  });

  return {
    url,
    port,
    metrics,
    feed,
    fanout,
    async close() {
      if (closing) return;
      closing = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      stopServing();
      feed.close();
      fanout.closeAll();
      server.closeIdleConnections();
      // Requests in flight get a moment to finish; then whatever is left goes.
      const force = setTimeout(() => server.closeAllConnections(), 2_000);
      await closed;
      clearTimeout(force);
      await engine.close();
      log('relay_stopped', {});
    },
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
