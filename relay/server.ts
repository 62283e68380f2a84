/**
 * The relay (DESIGN.md §7): one node:http server that speaks the service contract downstream,
 * spends the plan's budget once upstream, and serves the built widgets. This file wires the parts
 * together; each job lives in its own module.
 */
import { RelayApi } from './api';
import { Budget } from './budget';
import { PLAN_BUDGETS, type RelayConfig } from './config';
import { createMemoryEngine } from './engine/memory';
import type { Engine } from './engine/types';
import { FanOut } from './fanout';
import { Feed } from './feed';
import { listen } from './listener';
import { createLogger, type LogSink } from './log';
import { Metrics } from './metrics';
import { addressMatcher, FloodLog, RequestLimiter, StreamSlots } from './protect';
import { routes } from './routes';
import { RelayStatus } from './status';
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
  let closing = false;

  // Upstream: the budget, the gate every request goes through, and the feed of quotes.
  const plan = { perMinute: config.perMinute, perDay: config.perDay };
  const budget = new Budget(engine.budget, plan, config.budgetShare, now);
  const gate = new UpstreamGate({ budget, leader: engine.leader, metrics, log, now, timings: options.upstream });
  const upstream = { baseUrl: config.upstreamUrl, apiKey: config.upstreamKey, gate, budget, log, metrics, now };
  const feed = new Feed({ ...upstream, engine, allow: config.symbols, timings: options.upstream });
  if (engine.cluster) engine.cluster.feedFresh = () => feed.upstreamFresh;

  // Downstream: the streams' fan-out and the /v1 endpoints.
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
  const endpoints = new RelayApi({ ...upstream, engine, feed, fanout, spanDays: PLAN_BUDGETS[config.plan].spanDays });
  // The leader fills what followers ask for (a cluster; one process never asks).
  const stopServing = engine.asks.serve((key) => endpoints.fill(key));

  // Visitors: per-address limits (counted cluster-wide where the engine shares them), the routes.
  const { requestCounts } = engine;
  const limiter = new RequestLimiter(config.clientRpm, {
    redis: requestCounts?.client,
    keyPrefix: requestCounts?.keyPrefix,
  });
  const malformed = new FloodLog((fields) => log('malformed_requests', fields), 60_000, now);
  const status = new RelayStatus({ metrics, budget, engine, feed, gate, fanout, closing: () => closing });
  const listener = await listen({
    config,
    limiter,
    malformed,
    metrics,
    log,
    requestTimeoutMs: options.requestTimeoutMs,
    handle: routes({
      config,
      endpoints,
      limiter,
      slots: new StreamSlots(config.clientStreams),
      metrics,
      malformed,
      metricsAllowed: config.metricsAllow ? addressMatcher(config.metricsAllow) : () => true,
      health: (res) => status.health(res),
      metricsText: () => status.metricsText(),
      closing: () => closing,
      distDir: options.distDir,
    }),
  });

  feed.start();
  log('relay_started', {
    url: listener.url,
    upstream: config.upstreamUrl,
    plan: config.plan,
    budget_per_minute: budget.perMinute,
    budget_per_day: budget.perDay,
  });

  return {
    url: listener.url,
    port: listener.port,
    metrics,
    feed,
    fanout,
    async close() {
      if (closing) return;
      closing = true;
      await listener.close(() => {
        stopServing();
        feed.close();
        fanout.closeAll();
      });
      await engine.close();
      log('relay_stopped', {});
    },
  };
}
