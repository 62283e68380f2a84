/**
 * The relay (DESIGN.md §7): one node:http server that speaks the service contract downstream,
 * spends the plan's budget once upstream, and serves the built widgets. This file routes and
 * composes; each job lives in its own module.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { sendError, sendPreflight } from './http';
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
  isLoopback,
  RequestLimiter,
  StreamSlots,
  visitorKey,
} from './protect';
import { serveStatic } from './static';
import { UpstreamGate, type UpstreamTimings } from './upstream';

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

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://relay.invalid');
    const path = url.pathname;
    const address = clientAddress(req, config.trustProxy);
    if (path === '/healthz' || path === '/metrics') {
      if (req.method !== 'GET' && req.method !== 'HEAD')
        return sendError(res, 405, 'method_not_allowed', `${path} answers GET and HEAD`, {}, { Allow: 'GET, HEAD' });
      // Limited like any request, except from this machine (a local monitor or sidecar polls freely).
      const wait = isLoopback(address) ? 0 : await limiter.take(address);
      if (wait > 0) return tooMany(res, wait, 'rate');
      if (path === '/healthz') return health(res);
      if (!metricsAllowed(address)) {
        metrics.inc('relay_refused_total', 'Downstream requests refused, by reason.', { reason: 'metrics' });
        return sendError(res, 403, 'forbidden', 'metrics are not served to this address');
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
      return sendError(
        res,
        503,
        'unavailable',
        'the relay is shutting down',
        {},
        { Connection: 'close', 'Retry-After': '1' },
      );
    const api = path === '/v1' || path.startsWith('/v1/');
    if (api && !applyCors(req, res, config.allowedOrigins)) {
      metrics.inc('relay_refused_total', 'Downstream requests refused, by reason.', { reason: 'origin' });
      return sendError(res, 403, 'forbidden', 'this origin is not allowed');
    }
    if (api && req.method === 'OPTIONS') return sendPreflight(res, 'GET, OPTIONS');
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendError(
        res,
        405,
        'method_not_allowed',
        'the relay is read-only (GET, HEAD)',
        {},
        { Allow: 'GET, HEAD, OPTIONS' },
      );
    const isStream = path === '/v1/stream';
    // Stream opens count too (a board reconnects once per `retry:`, far below the limit).
    const wait = await limiter.take(address);
    if (wait > 0) return tooMany(res, wait, 'rate');
    if (!api) {
      if (await serveStatic(req, res, path, options.distDir)) return;
      return sendError(res, 404, 'not_found', `no such path: ${path.slice(0, 200)}`);
    }
    if (path === '/v1/prices') return endpoints.prices(req, res, url);
    if (path === '/v1/symbols') return endpoints.symbols(req, res);
    const symbol = historySymbol(path);
    if (symbol !== undefined) return endpoints.historyOf(req, res, url, symbol, visitorKey(address));
    if (isStream) {
      const release = slots.acquire(address);
      if (!release) return tooMany(res, 10_000, 'streams');
      return endpoints.stream(req, res, url, release);
    }
    sendError(res, 404, 'not_found', `no such endpoint: ${path.slice(0, 200)}`);
  };

  function tooMany(res: ServerResponse, waitMs: number, reason: string): void {
    metrics.inc('relay_refused_total', 'Downstream requests refused, by reason.', { reason });
    sendError(
      res,
      429,
      'rate_limited',
      'too many requests from this address',
      {},
      { 'Retry-After': String(Math.max(1, Math.ceil(waitMs / 1000))) },
    );
  }

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
        sendError(res, 500, 'internal_error', 'the relay failed on this request');
      });
    },
  );
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
